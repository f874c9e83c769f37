/**
 * The index cache: where built segments are kept between starts, and how a start finds them. A fingerprint (the
 * Pagefind bundle's entry, the manifest's build id and the engine code that builds and reads the index) names the
 * segment files `<fingerprint>-<k>of<n>.idx`; a start loads, in this order, the build output's prebuilt index
 * (read-only), the private cache directory, or builds the segments in parallel child processes (build-process.ts).
 *
 * Why fingerprints rather than timestamps: a restart on an unchanged build must load (cold start in well under a
 * second) and any change to the content or the code must rebuild, and only a hash of both says which is which.
 * The private cache is 0700 and owned by us, or not used; files are written atomically and pruned by last use.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadManifest } from '../manifest.ts';
import { bundlePageCount, checkBundles, type PagefindEntry } from '../pagefind-bundle.ts';
import { INDEX_FORMAT_VERSION, type SegmentFile, checkSegmentFile, closeSegmentFile, openSegmentFile, openSegmentFileAsync } from './index-file.ts';

const BUILD_SCRIPT = fileURLToPath(new URL('./build-process.ts', import.meta.url));
/** The code an index depends on: every module of this folder (builders, file format, the renderer of static hits) and the text analysis and bundle reader it uses. */
const CODE_DIR = new URL('./', import.meta.url);
const SHARED_CODE = ['../text.ts', '../pagefind-bundle.ts'];

function privateDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (!st.isDirectory()) return undefined;
    if (typeof process.getuid === 'function' && (st.uid !== process.getuid() || (st.mode & 0o077) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

function runBuilder(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILD_SCRIPT, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      if (err.length < 8192) err += d;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(err.trim() || `index builder exited with ${signal ?? `code ${code}`}`));
    });
  });
}

function cacheDirFor(option: string | false | undefined): string | undefined {
  if (option === false) return undefined;
  return privateDir(option ?? join(tmpdir(), `agent-docs-search-${typeof process.getuid === 'function' ? process.getuid() : 'user'}`));
}

/** A complete set of cached segment files `<fp>-<k>of<n>.idx` (any n), or undefined. */
function findCached(dir: string, fingerprint: string): string[] | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const byN = new Map<number, Set<number>>();
  const re = new RegExp(`^${fingerprint}-(\\d+)of(\\d+)\\.idx$`);
  for (const f of names) {
    const m = re.exec(f);
    if (!m) continue;
    const k = Number(m[1]);
    const n = Number(m[2]);
    if (k >= n) continue;
    if (!byN.has(n)) byN.set(n, new Set());
    byN.get(n)!.add(k);
  }
  for (const [n, ks] of [...byN.entries()].sort((a, b) => a[0] - b[0])) {
    if (ks.size === n) return Array.from({ length: n }, (_, k) => join(dir, `${fingerprint}-${k}of${n}.idx`));
  }
  return undefined;
}

/** Checks that every segment holds the index of `fingerprint`; closes them all otherwise. */
function ofFingerprint(segs: SegmentFile[], fingerprint: string): SegmentFile[] {
  try {
    for (const f of segs) if (checkSegmentFile(f).fingerprint !== fingerprint) throw new Error('fingerprint mismatch');
    return segs;
  } catch (err) {
    for (const f of segs) closeSegmentFile(f);
    throw err;
  }
}

/** Opens the segment files of `files`, checking each one's fingerprint (all closed again when one fails). */
function loadFiles(files: string[], fingerprint: string): SegmentFile[] {
  const segs: SegmentFile[] = [];
  try {
    for (const f of files) segs.push(openSegmentFile(f));
  } catch (err) {
    for (const f of segs) closeSegmentFile(f);
    throw err;
  }
  return ofFingerprint(segs, fingerprint);
}

/** The prebuilt index's files, being read before the fingerprint (which needs the build id) is known. */
export interface Prefetch {
  fingerprint: string;
  segments: Promise<SegmentFile[]>;
}

/**
 * Starts reading the prebuilt index (a build output holds the files of one fingerprint: the build prunes the rest) on
 * the thread pool, so the read overlaps the manifest's parse; loadOrBuildSegments uses it only when the fingerprint
 * then matches. Undefined when the directory holds no single complete set.
 */
export function prefetchPrebuilt(dir: string | undefined): Prefetch | undefined {
  if (!dir) return undefined;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const fps = new Set(names.map((f) => /^([0-9a-f]{32})-\d+of\d+\.idx$/.exec(f)?.[1]).filter((fp) => fp !== undefined));
  if (fps.size !== 1) return undefined;
  const [fingerprint] = fps as Set<string>;
  const files = findCached(dir, fingerprint!);
  if (!files) return undefined;
  const opened = files.map(openSegmentFileAsync);
  const segments = Promise.all(opened);
  // one failing: close the others once open
  segments.catch(() => opened.forEach((p) => p.then(closeSegmentFile, () => {})));
  return { fingerprint: fingerprint!, segments };
}

export interface SegmentSource {
  /** Writable cache (private by default) — see CreateSearchEngineOptions.indexCacheDir. */
  cacheDir: string | false | undefined;
  /** Read-only prebuilt index (the build output's search-index/): used when it holds this fingerprint, never written. */
  prebuiltDir?: string;
  /** The prebuilt index already being read (prefetchPrebuilt). */
  prefetched?: Prefetch;
  /** Write into cacheDir as a build output: directory 0755, files 0644, other fingerprints removed. */
  publish?: boolean;
}

/** Loads the segment files for this fingerprint (prebuilt, then cached) or builds them (in parallel child processes). */
export async function loadOrBuildSegments(siteDir: string, fingerprint: string, parallel: number, src: SegmentSource): Promise<{ segments: SegmentFile[]; built: number; from: 'prebuilt' | 'cache' | 'built' }> {
  if (src.prefetched) {
    if (src.prefetched.fingerprint === fingerprint) {
      try {
        return { segments: ofFingerprint(await src.prefetched.segments, fingerprint), built: 0, from: 'prebuilt' };
      } catch {
        /* unreadable or stale: as below */
      }
    } else src.prefetched.segments.then((segs) => segs.forEach(closeSegmentFile), () => {}); // another build's
  }
  if (src.prebuiltDir) {
    const files = findCached(src.prebuiltDir, fingerprint);
    if (files) {
      try {
        return { segments: loadFiles(files, fingerprint), built: 0, from: 'prebuilt' };
      } catch {
        /* unreadable or stale: fall through to the cache / a rebuild (never written: it belongs to the build) */
      }
    }
  }
  const publish = src.publish === true && typeof src.cacheDir === 'string';
  let base: string | undefined;
  if (publish) {
    mkdirSync(src.cacheDir as string, { recursive: true, mode: 0o755 });
    base = src.cacheDir as string;
  } else base = cacheDirFor(src.cacheDir);
  if (base) {
    const files = findCached(base, fingerprint);
    if (files) {
      try {
        const segments = loadFiles(files, fingerprint);
        if (!publish) {
          const now = new Date();
          for (const f of files) utimesSync(f, now, now);
          pruneOld(base);
        }
        return { segments, built: 0, from: 'cache' };
      } catch {
        for (const f of files) rmSync(f, { force: true });
      }
    }
  }
  const dir = base ?? mkdtempSync(join(tmpdir(), 'agent-docs-search-'));
  try {
    const n = segmentCount(bundlePageCount(checkBundles(siteDir)), Math.max(1, parallel));
    const files = Array.from({ length: n }, (_, k) => join(dir, `${fingerprint}-${k}of${n}.idx`));
    await Promise.all(files.map((f, k) => runBuilder([siteDir, String(k), String(n), f, fingerprint, publish ? '644' : '600'])));
    // open (kept open: a temporary directory's files stay readable through their descriptors once it is removed)
    const segments = loadFiles(files, fingerprint);
    if (publish) pruneOld(base!, fingerprint);
    else if (base) pruneOld(base);
    return { segments, built: n, from: 'built' };
  } finally {
    if (!base) rmSync(dir, { recursive: true, force: true });
  }
}

export function fingerprintOf(entries: readonly PagefindEntry[], buildId: string): string {
  // the bundles' entries (each names its content-addressed meta index; not their directories, so a moved build
  // keeps its index), manifest build id, engine code
  const fp = createHash('sha256');
  fp.update(`v${INDEX_FORMAT_VERSION}\n${JSON.stringify(entries)}\n${buildId}\n`);
  const own = readdirSync(CODE_DIR).filter((f) => f.endsWith('.ts')).sort().map((f) => `./${f}`);
  for (const f of [...own, ...SHARED_CODE]) fp.update(readFileSync(new URL(f, CODE_DIR)));
  return fp.digest('hex').slice(0, 32);
}

/** Parallel index builders: one per core, 1..4. */
export function defaultBuildParallelism(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** Pages per segment the site's size asks for (as many as a Pagefind part holds by default). */
const SEGMENT_PAGES = 5_000;

/**
 * How many segments a site of `pages` pages is built in: one per SEGMENT_PAGES pages, at most one per parallel
 * builder (one per builder when the count is unknown). What a segment decides alone — which words are typo targets,
 * counted on its own pages (typo-index.ts) — then depends on the site, not on the build machine's cores, for every
 * site of up to SEGMENT_PAGES pages per core: a docs site of a few hundred pages is one segment whatever the machine.
 */
export function segmentCount(pages: number | undefined, parallel: number): number {
  if (pages === undefined || !Number.isFinite(pages)) return Math.max(1, parallel);
  return Math.max(1, Math.min(parallel, Math.ceil(pages / SEGMENT_PAGES)));
}

/**
 * Builds the search index of a site into the index cache without starting workers — e.g. at the end of the site
 * build, so the gateway's first start only loads it (cold start). Same `indexCacheDir` semantics as createSearchEngine,
 * except with `publish: true` (the build output's `<distDir>/search-index`, read by the gateway through
 * `prebuiltIndexDir`): the directory is created 0755 and the files 0644 — readable by a gateway running as another
 * user; they hold only what the public Pagefind bundle already holds — and index files of other builds are removed.
 */
export async function prepareSearchIndex(opts: { siteDir: string; indexCacheDir?: string | false; publish?: boolean }): Promise<{ fingerprint: string; built: number; ms: number }> {
  const t0 = performance.now();
  const bundles = checkBundles(opts.siteDir);
  const manifest = await loadManifest(opts.siteDir);
  const fingerprint = fingerprintOf(bundles.map((b) => b.entry), manifest.buildId);
  const r = await loadOrBuildSegments(opts.siteDir, fingerprint, defaultBuildParallelism(), { cacheDir: opts.indexCacheDir, publish: opts.publish });
  for (const f of r.segments) closeSegmentFile(f);
  return { fingerprint, built: r.built, ms: Math.round(performance.now() - t0) };
}

/** Best effort: drop index files not used for a week, and keep at most the 8 most recently used builds (only `only`). */
function pruneOld(dir: string, only?: string): void {
  try {
    const cutoff = Date.now() - 7 * 24 * 3600 * 1000;
    const lastUse = new Map<string, number>();
    const files: { p: string; fp: string; mtime: number }[] = [];
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.idx') && !f.includes('.idx.tmp-')) continue;
      const p = join(dir, f);
      const mtime = statSync(p).mtimeMs;
      const fp = f.split('-')[0]!;
      files.push({ p, fp, mtime });
      lastUse.set(fp, Math.max(lastUse.get(fp) ?? 0, mtime));
    }
    const keep = new Set([...lastUse.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([fp]) => fp));
    for (const f of files) if (only !== undefined ? f.fp !== only : f.mtime < cutoff || !keep.has(f.fp)) unlinkSync(f.p);
  } catch {
    /* ignore */
  }
}

