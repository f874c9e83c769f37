/**
 * Server-side search over the site's Pagefind bundle (`<siteDir>/pagefind/`), run in a pool of worker threads.
 *
 * Startup: check `pagefind-entry.json` (clear error, nothing else touched when missing), load build-manifest.json
 * (buildId), then load the index segments from the index cache (keyed by a fingerprint of the bundle entry, the
 * build id and the engine code) or build them in parallel child processes (search-build.ts), and install them —
 * SharedArrayBuffers, shared not copied, with the files kept open for the page texts and section postings that
 * queries read on demand — into every query worker.
 *
 * Startup loads, in this order: the build's prebuilt index (`prebuiltIndexDir`, i.e. `<DIST_DIR>/search-index/<tree>`
 * written by the build, read-only), the index cache, or builds it.
 *
 * Query flow (see search-index.ts for the index itself):
 *   1. main thread: validate options, canonicalize the query (text.ts queryTerms: normalized, stemmed, stopwords
 *      dropped, sorted terms);
 *   2. LRU lookup keyed by (buildId, tag, match, terms): an entry holds the ranking (typed arrays; for match 'any' only
 *      its first offset+limit ranks and the exact total, until a request beyond them fetches the rest) plus what was
 *      rendered of it — SearchHits (search(), for /ask, MCP, the assistant) and serialized response bodies per slice
 *      (searchBody(), for GET /api/search); a slice already rendered is answered from memory (the same frozen hits
 *      array, or the same Buffer, for the same slice);
 *   3. miss: one round trip to the least-busy worker ranks every matching page and renders the requested slice;
 *      concurrent identical misses share one in-flight request;
 *   4. a later page of a cached ranking (cursor pagination) is rendered by a worker: hits in chunks of 250 (each reply
 *      is deserialized on the main thread), bodies whole (bytes, transferred — no copy, no parsing).
 * Excerpts: the first FULL_EXCERPT_RANKS (20) ranks of a ranking get a query-dependent excerpt (the window around
 * the densest matches of the hit's section); ranks beyond get the static first 12 words of that same section (still
 * plain text, still the query-dependent section/url/type), precomputed in the index. An unlimited query for a common
 * term (≈8,000 hits) thus costs a ranking plus a concatenation of precomputed per-hit JSON in a worker, not
 * thousands of excerpt searches and a main-thread JSON.stringify.
 * Nothing query-related runs on the main thread besides the cache and the slicing.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Lru } from './lru.ts';
import { loadManifest } from './manifest.ts';
import { checkBundle } from './pagefind-bundle.ts';
import type { ContentType, SearchHit } from './search-index.ts';
import { CONTENT_TYPES } from './search-index.ts';
import { INDEX_FORMAT_VERSION, type SegmentFile, checkSegmentFile, closeSegmentFile, openSegmentFile, openSegmentFileAsync } from './search-index-file.ts';
import { queryTerms } from './text.ts';

export type { ContentType, SearchHit } from './search-index.ts';
export { CONTENT_TYPES } from './search-index.ts';

export interface SearchOptions {
  tag?: ContentType;
  offset?: number;
  limit?: number;
  signal?: AbortSignal;
  /**
   * 'all' (default, the search API): pages containing every query term. 'any': pages containing at least one, ranked
   * down by the share of terms they miss — for natural-language questions (/ask, the assistant's retrieval).
   */
  match?: 'all' | 'any';
}

export interface SearchEngine {
  /** Deterministic for a given (query, tag, build): same order every time. Returns the slice [offset, offset+limit) and the total. */
  search(query: string, opts?: SearchOptions): Promise<{ total: number; hits: SearchHit[] }>;
  /**
   * The same slice as `search`, as the search API's response body: the JSON array of SearchResults (id, url, type,
   * title, content, score — exactly JSON.stringify of those objects), built in a worker and cached per slice, so a
   * repeated query costs the main thread a memory write. `count` is the number of results in it.
   */
  searchBody(query: string, opts?: SearchOptions): Promise<{ total: number; count: number; body: Buffer<ArrayBuffer> }>;
  readonly buildId: string;
  /** Number of indexed pages. */
  readonly pageCount: number;
  /** Counters for health/bench output. */
  stats(): SearchStats;
  close(): Promise<void>;
}

export interface SearchStats {
  pages: number;
  workers: number;
  cache: { entries: number; bytes: number; hits: number; misses: number };
  queries: number;
  workerRequests: number;
  startupMs: number;
  /** Segments built at startup (0 when the index was loaded from the index cache). */
  segmentsBuilt: number;
}

export interface CreateSearchEngineOptions {
  siteDir: string;
  /** Worker threads (default: available parallelism clamped to 2..4). */
  workers?: number;
  /** Max cached query results (default 2000). 0 disables the cache. */
  cacheSize?: number;
  /** Max estimated bytes of cached results (default 64 MiB). */
  cacheBytes?: number;
  /**
   * Where built index segments are kept between starts (keyed by a fingerprint of the bundle, the manifest and the
   * engine code): a restart on an unchanged build loads them instead of re-indexing. Default: a private directory
   * under the OS temp dir; `false`: build into a temp dir and delete it after loading.
   */
  indexCacheDir?: string | false;
  /**
   * A read-only prebuilt index (the build output's `<distDir>/search-index`, see prepareSearchIndex): loaded when it
   * holds the index of this bundle (same fingerprint), never written; otherwise indexCacheDir applies as usual.
   */
  prebuiltIndexDir?: string;
  /**
   * The build id of the site's manifest when the caller has loaded it already (or is loading it: a promise), so the
   * manifest is not parsed twice; default: read from `<siteDir>/build-manifest.json`.
   */
  buildId?: string | PromiseLike<string>;
}

export const DEFAULT_CACHE_SIZE = 2000;
/** Hits materialized per worker round trip (bounds the main thread's deserialization work per message). */
const MATERIALIZE_CHUNK = 250;
/**
 * Cached rankings, hits and serialized bodies (an unlimited common-term body is ≈2 MB at 10,000 pages). 32 MiB: the
 * bodies are Buffers outside the V8 heap, so this bounds the gateway's memory (RSS), not GC work; by simulation of the
 * bench's query mix 32 MiB serves ≈45% of requests from memory, 128 MiB ≈70% (README, Performance).
 */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * V8 heap caps of a query worker: the index, its page table included, lives in SharedArrayBuffers (outside the
 * heap); a worker's heap holds up to 1,024 decoded pages, memos of query-term variants and excerpt words, and one
 * query's transient strings (the body itself is built in an ArrayBuffer). Without a cap, V8 lets garbage grow to
 * hundreds of MB per worker before collecting. A worker that still runs out is replaced (its in-flight requests fail).
 */
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

export function defaultWorkerCount(): number {
  return Math.max(2, Math.min(4, availableParallelism()));
}

interface Entry {
  /** Every match; docs/scores/titleMatch may hold only a prefix of the ranking (see ranked). */
  total: number;
  docs: Int32Array;
  scores: Float64Array;
  titleMatch: Uint8Array;
  hits: (SearchHit | undefined)[];
  /** Frozen slices handed out, by "offset:end" (stable identity for repeated identical requests). */
  slices: Map<string, SearchHit[]>;
  /** Serialized result arrays (searchBody), by "offset:end", and those being built. */
  bodies: Map<string, Buffer<ArrayBuffer>>;
  pendingBodies: Map<string, Promise<Buffer<ArrayBuffer>>>;
  /** The full ranking being fetched (a request beyond the prefix). */
  full?: Promise<void>;
  bytes: number;
}

/**
 * Match 'any' (/ask, the assistant: the first few of thousands of matches, offset 0) asks the worker for the ranking's
 * prefix only — no sort of every match on a cache miss; a rare later request beyond it fetches the full ranking.
 */
const PREFIX_MATCH = 'any';

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void }

const WORKER_URL = new URL('./search-worker.ts', import.meta.url);
const BUILD_SCRIPT = fileURLToPath(new URL('./search-build.ts', import.meta.url));
const CODE_FILES = ['search-index.ts', 'search-index-file.ts', 'search-build.ts', 'pagefind-bundle.ts', 'text.ts'];

class Pool {
  private readonly workers: { w: Worker; busy: number; dead: boolean }[] = [];
  private readonly pending = new Map<number, Pending & { slot: number }>();
  private nextId = 1;
  private rr = 0;
  private closed = false;
  requests = 0;
  /** Set once the index is installed: used to re-install it into a replacement worker. */
  files: SegmentFile[] | undefined;

  constructor(n: number) {
    for (let k = 0; k < n; k++) this.workers.push(this.spawn(k));
  }

  get size(): number {
    return this.workers.length;
  }

  private spawn(slot: number): { w: Worker; busy: number; dead: boolean } {
    const w = new Worker(WORKER_URL, { name: `search-${slot}`, resourceLimits: WORKER_RESOURCE_LIMITS });
    const rec = { w, busy: 0, dead: false };
    w.on('message', (msg: { id: number; ok: boolean; result?: unknown; error?: { message: string; stack?: string } }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      this.done(rec);
      if (msg.ok) p.resolve(msg.result);
      else {
        const e = new Error(msg.error?.message ?? 'search worker error');
        if (msg.error?.stack) e.stack = msg.error.stack;
        p.reject(e);
      }
    });
    const fail = (err: Error) => {
      if (rec.dead) return;
      rec.dead = true;
      for (const [id, p] of this.pending) {
        if (p.slot !== slot || this.workers[slot] !== rec) continue;
        this.pending.delete(id);
        p.reject(err);
      }
      rec.busy = 0;
      if (!this.closed) this.replace(slot);
    };
    w.on('error', (err) => fail(err instanceof Error ? err : new Error(String(err))));
    w.on('exit', (code) => fail(new Error(`search worker exited with code ${code}`)));
    w.unref();
    return rec;
  }

  private replace(slot: number): void {
    const rec = this.spawn(slot);
    this.workers[slot] = rec;
    if (this.files) {
      this.send(slot, { op: 'install', files: this.files }).catch(() => {
        /* a failing replacement reports through its own 'error' handler */
      });
    }
  }

  private done(rec: { w: Worker; busy: number }): void {
    rec.busy = Math.max(0, rec.busy - 1);
    if (rec.busy === 0) rec.w.unref();
  }

  /** Send to a specific worker slot. */
  send<T>(slot: number, msg: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new Error('search engine is closed'));
    const rec = this.workers[slot]!;
    const id = this.nextId++;
    this.requests++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, slot });
      if (rec.busy++ === 0) rec.w.ref();
      rec.w.postMessage({ ...msg, id }, transfer);
    });
  }

  /** Send to the least-busy live worker (round-robin among equals). */
  run<T>(msg: Record<string, unknown>): Promise<T> {
    const n = this.workers.length;
    let best = -1;
    for (let j = 0; j < n; j++) {
      const k = (this.rr + j) % n;
      const rec = this.workers[k]!;
      if (rec.dead) continue;
      if (best < 0 || rec.busy < this.workers[best]!.busy) best = k;
    }
    this.rr = (this.rr + 1) % n;
    if (best < 0) return Promise.reject(new Error('no search worker available'));
    return this.send<T>(best, msg);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new Error('search engine is closed'));
    }
    await Promise.all(this.workers.map((r) => ((r.dead = true), r.w.terminate())));
    for (const f of this.files ?? []) closeSegmentFile(f); // no worker reads them any more
  }
}

function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function hitBytes(h: SearchHit): number {
  return 160 + 2 * (h.id.length + h.url.length + h.title.length + h.content.length + h.section.length + h.path.length);
}

function checkInt(name: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new RangeError(`search: ${name} must be an integer >= ${min}`);
  return v;
}

/** A private cache directory (0700, owned by us) or undefined when that cannot be guaranteed. */
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
interface Prefetch {
  fingerprint: string;
  segments: Promise<SegmentFile[]>;
}

/**
 * Starts reading the prebuilt index (a build output holds the files of one fingerprint: the build prunes the rest) on
 * the thread pool, so the read overlaps the manifest's parse; loadOrBuildSegments uses it only when the fingerprint
 * then matches. Undefined when the directory holds no single complete set.
 */
function prefetchPrebuilt(dir: string | undefined): Prefetch | undefined {
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

interface SegmentSource {
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
async function loadOrBuildSegments(siteDir: string, fingerprint: string, parallel: number, src: SegmentSource): Promise<{ segments: SegmentFile[]; built: number; from: 'prebuilt' | 'cache' | 'built' }> {
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
    const n = Math.max(1, parallel);
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

function fingerprintOf(entry: unknown, buildId: string): string {
  // bundle entry (names the content-addressed meta index), manifest build id, engine code
  const fp = createHash('sha256');
  fp.update(`v${INDEX_FORMAT_VERSION}\n${JSON.stringify(entry)}\n${buildId}\n`);
  for (const f of CODE_FILES) fp.update(readFileSync(new URL(`./${f}`, import.meta.url)));
  return fp.digest('hex').slice(0, 32);
}

/** Parallel index builders: one per core, 1..4. */
export function defaultBuildParallelism(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
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
  const { entry } = checkBundle(opts.siteDir);
  const manifest = await loadManifest(opts.siteDir);
  const fingerprint = fingerprintOf(entry, manifest.buildId);
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

/**
 * Loads `<siteDir>/build-manifest.json` (buildId) and indexes `<siteDir>/pagefind/` (or loads the cached index of
 * the same bundle), then starts the query workers. Throws a clear Error when the bundle or the manifest is missing or
 * invalid.
 */
export async function createSearchEngine(opts: CreateSearchEngineOptions): Promise<SearchEngine> {
  const t0 = performance.now();
  const { entry } = checkBundle(opts.siteDir); // before anything touches the bundle
  const nWorkers = opts.workers === undefined ? defaultWorkerCount() : checkInt('workers', opts.workers, 1);
  const cache = new Lru<Entry>(opts.cacheSize ?? DEFAULT_CACHE_SIZE, opts.cacheBytes ?? DEFAULT_CACHE_BYTES);

  let pool: Pool | undefined;
  let prefetched: Prefetch | undefined;
  let nPages = 0;
  let built = 0;
  let buildId: string;
  try {
    // Workers first: each takes ≈300 ms to boot (module loading), in its own thread, while this thread reads the
    // manifest and the index files.
    pool = new Pool(nWorkers);
    prefetched = prefetchPrebuilt(opts.prebuiltIndexDir);
    buildId = opts.buildId === undefined ? (await loadManifest(opts.siteDir)).buildId : await opts.buildId;
    const fingerprint = fingerprintOf(entry, buildId);
    // Build one segment per worker in child processes (their transient memory is returned to the OS when they
    // exit), open the segment files (hot parts read into SharedArrayBuffers, the files kept open for the cold
    // arrays) and install them, shared, into every query worker.
    const r = await loadOrBuildSegments(opts.siteDir, fingerprint, defaultBuildParallelism(), { cacheDir: opts.indexCacheDir, prebuiltDir: opts.prebuiltIndexDir, prefetched });
    built = r.built;
    pool.files = r.segments; // closed with the pool
    for (const f of r.segments) nPages += checkSegmentFile(f).nPages;
    await Promise.all(Array.from({ length: nWorkers }, (_, k) => pool!.send<number>(k, { op: 'install', files: r.segments })));
  } catch (err) {
    if (!pool?.files) prefetched?.segments.then((segs) => segs.forEach(closeSegmentFile), () => {});
    await pool?.close();
    if (buildId! === undefined) throw err; // the manifest: its own clear message
    throw new Error(`Search index could not be built from ${join(opts.siteDir, 'pagefind')}: ${(err as Error).message}`, { cause: err });
  }
  const startupMs = performance.now() - t0;
  const workers = pool;

  const inflight = new Map<string, Promise<Entry>>();
  let closed = false;
  let queries = 0;

  const materialize = async (key: string, entry: Entry, terms: string[], ranks: number[]): Promise<void> => {
    const items = ranks.map((r) => [entry.docs[r]!, entry.scores[r]!, entry.titleMatch[r]!, r]);
    const hits = await workers.run<SearchHit[]>({ op: 'materialize', terms, items });
    ranks.forEach((r, j) => {
      if (!entry.hits[r]) {
        entry.hits[r] = Object.freeze(hits[j]!);
        entry.bytes += hitBytes(hits[j]!);
      }
    });
    cache.resize(key, entry.bytes);
  };

  interface Query { terms: string[]; key: string; tag?: ContentType; match: 'all' | 'any'; offset: number; limit?: number }

  /** Validates the options and canonicalizes the query; undefined when it has no terms (no results). */
  const prepare = (query: string, o: SearchOptions): Query | undefined => {
    if (closed) throw new Error('search engine is closed');
    o.signal?.throwIfAborted();
    if (typeof query !== 'string') throw new TypeError('search: query must be a string');
    const tag = o.tag;
    if (tag !== undefined && !CONTENT_TYPES.includes(tag)) throw new RangeError(`search: unknown tag ${JSON.stringify(tag)}`);
    const offset = o.offset === undefined ? 0 : checkInt('offset', o.offset, 0);
    const limit = o.limit === undefined ? undefined : checkInt('limit', o.limit, 0);
    const match = o.match ?? 'all';
    if (match !== 'all' && match !== 'any') throw new RangeError(`search: match must be 'all' or 'any'`);
    queries++;
    const terms = queryTerms(query);
    if (terms.length === 0) return undefined;
    return { terms, key: `${buildId}\u0001${tag ?? '*'}\u0001${match}\u0001${terms.join(' ')}`, tag, match, offset, limit };
  };

  /** The cached ranking of a query, or one worker round trip that ranks it and renders the requested slice. */
  const entryFor = async (q: Query, body: boolean, signal: AbortSignal | undefined): Promise<Entry> => {
    const cached = cache.get(q.key);
    if (cached) return cached;
    let p = inflight.get(q.key);
    if (!p) {
      p = (async () => {
        // a body is rendered whole by the worker (bytes, transferred); hits are materialized in chunks
        const want = body ? q.limit : Math.min(q.limit ?? MATERIALIZE_CHUNK, MATERIALIZE_CHUNK);
        const r = await workers.run<{ total: number; docs: Int32Array; scores: Float64Array; titleMatch: Uint8Array; hits: [number, SearchHit][]; body?: Uint8Array<ArrayBuffer> }>({
          op: 'search', terms: q.terms, tag: q.tag, match: q.match, offset: q.offset, limit: want, body, prefix: q.match === PREFIX_MATCH,
        });
        const e: Entry = { total: r.total, docs: r.docs, scores: r.scores, titleMatch: r.titleMatch, hits: [], slices: new Map(), bodies: new Map(), pendingBodies: new Map(), bytes: 64 + r.docs.length * 13 };
        for (const [rank, h] of r.hits) {
          e.hits[rank] = Object.freeze(h);
          e.bytes += hitBytes(h);
        }
        if (r.body) {
          const end = q.limit === undefined ? e.total : Math.min(e.total, q.offset + q.limit);
          if (q.offset < end) {
            e.bodies.set(`${q.offset}:${end}`, Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength));
            e.bytes += 64 + r.body.byteLength;
          }
        }
        cache.set(q.key, e, e.bytes);
        return e;
      })().finally(() => inflight.delete(q.key));
      inflight.set(q.key, p);
    }
    return abortable(p, signal);
  };

  /** Makes sure the entry's ranking reaches rank `end` (exclusive): fetches the full ranking when it holds a prefix. */
  const ranked = async (q: Query, entry: Entry, end: number, signal: AbortSignal | undefined): Promise<void> => {
    if (end <= entry.docs.length) return;
    entry.full ??= (async () => {
      const r = await workers.run<{ total: number; docs: Int32Array; scores: Float64Array; titleMatch: Uint8Array }>({
        op: 'search', terms: q.terms, tag: q.tag, match: q.match, offset: 0, limit: 0,
      });
      entry.bytes += (r.docs.length - entry.docs.length) * 13;
      entry.docs = r.docs;
      entry.scores = r.scores;
      entry.titleMatch = r.titleMatch;
      cache.resize(q.key, entry.bytes);
    })().finally(() => (entry.full = undefined));
    await abortable(entry.full, signal);
  };

  const EMPTY_BODY = Buffer.from('[]');

  const engine: SearchEngine = {
    buildId,
    pageCount: nPages,
    async search(query, o = {}) {
      const q = prepare(query, o);
      if (!q) return { total: 0, hits: [] };
      const { key, terms, offset, limit } = q;
      const entry = await entryFor(q, false, o.signal);
      const end = limit === undefined ? entry.total : Math.min(entry.total, offset + limit);
      if (offset >= end) return { total: entry.total, hits: [] };
      await ranked(q, entry, end, o.signal);
      const missing: number[] = [];
      for (let r = offset; r < end; r++) if (!entry.hits[r]) missing.push(r);
      // in chunks: each reply is deserialized on the main thread, so no single message may be huge
      for (let k = 0; k < missing.length; k += MATERIALIZE_CHUNK) {
        await abortable(materialize(key, entry, terms, missing.slice(k, k + MATERIALIZE_CHUNK)), o.signal);
      }
      // the same frozen array for the same cached slice: callers may key a WeakMap on it (e.g. serialized bodies)
      const sk = `${offset}:${end}`;
      let hits = entry.slices.get(sk);
      if (!hits) {
        hits = Object.freeze(entry.hits.slice(offset, end)) as SearchHit[];
        if (entry.slices.size >= 8) entry.slices.delete(entry.slices.keys().next().value!);
        entry.slices.set(sk, hits);
        entry.bytes += 64 + 8 * hits.length;
        cache.resize(key, entry.bytes);
      }
      return { total: entry.total, hits };
    },
    async searchBody(query, o = {}) {
      const q = prepare(query, o);
      if (!q) return { total: 0, count: 0, body: EMPTY_BODY };
      const { key, terms, offset, limit } = q;
      const entry = await entryFor(q, true, o.signal);
      const end = limit === undefined ? entry.total : Math.min(entry.total, offset + limit);
      if (offset >= end) return { total: entry.total, count: 0, body: EMPTY_BODY };
      const sk = `${offset}:${end}`;
      let body = entry.bodies.get(sk);
      if (!body) {
        await ranked(q, entry, end, o.signal);
        let p = entry.pendingBodies.get(sk);
        if (!p) {
          p = (async () => {
            const u8 = await workers.run<Uint8Array<ArrayBuffer>>({
              op: 'body', terms, docs: entry.docs.slice(offset, end), scores: entry.scores.slice(offset, end), titleMatch: entry.titleMatch.slice(offset, end), from: offset,
            });
            const b = Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
            if (entry.bodies.size >= 8) {
              const [k0, b0] = entry.bodies.entries().next().value!;
              entry.bodies.delete(k0);
              entry.bytes -= 64 + b0.length;
            }
            entry.bodies.set(sk, b);
            entry.bytes += 64 + b.length;
            cache.resize(key, entry.bytes);
            return b;
          })().finally(() => entry.pendingBodies.delete(sk));
          entry.pendingBodies.set(sk, p);
        }
        body = await abortable(p, o.signal);
      }
      return { total: entry.total, count: end - offset, body };
    },
    stats() {
      return {
        pages: nPages,
        segmentsBuilt: built,
        workers: workers.size,
        cache: { entries: cache.size, bytes: cache.bytes, hits: cache.hits, misses: cache.misses },
        queries,
        workerRequests: workers.requests,
        startupMs: Math.round(startupMs),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      cache.clear();
      await workers.close();
    },
  };
  return engine;
}
