// The Pagefind step of the build: indexes the body of every page listed in a tree's
// build-manifest.json and writes the bundle to <tree>/pagefind/ (a site of more than
// SEARCH_INDEX_PART_PAGES pages in parts, see partRanges). Used by the agent-docs
// integration on astro:build:done, or run on its own after the Astro process has exited:
//
//   node src/integration/search-index.ts [distDir]     (default: DIST_DIR or dist)
//
// Run on its own, the Astro process's memory (≈1.7 GB at 10,000 pages) is already returned
// to the OS when Pagefind builds its index (≈270 KB a page of the part it writes), so the
// build's peak is the larger of the two rather than their sum (see the performance pages).
import { fork, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PartJob, PartMessage } from './pagefind-part.ts';
import { compressTree } from './compress.ts';
import { aheadDir } from './compress-ahead.ts';
import { loadSiteConfig } from '../lib/site-config.ts';
import { PARTS_FILE } from '../../gateway/engine/pagefind-bundle.ts';
import { warmCompileCacheCommand } from '../../gateway/compile-cache.ts';
import { gatewayNodeArgs } from '../../gateway/process-tunables.ts';

interface ManifestPage {
  path: string;
}

type Log = (message: string) => void;

/**
 * How a tree's pages are cut into Pagefind bundles: one bundle up to `partPages` pages, else the fewest parts of at
 * most `partPages` pages, of equal size, in manifest order. Pagefind's memory while it writes a bundle grows with the
 * bundle's pages (≈270 KB a page), so parts bound the build's peak whatever the site's size; the browser merges them
 * (Pagefind's `mergeIndex`) and the gateway's engine reads them as one list of pages.
 */
export function partRanges(total: number, partPages: number): [number, number][] {
  const parts = Math.max(1, Math.ceil(total / partPages));
  const per = Math.ceil(total / parts);
  return Array.from({ length: parts }, (_, k) => [k * per, Math.min(total, (k + 1) * per)] as [number, number]);
}

/** The folder, inside the main bundle, of part `k` (0-based; part 0 is the main bundle itself). */
const partFolder = (k: number): string => `part-${k + 1}`;

/**
 * Indexes one tree (its build-manifest.json lists the pages) into <root>/pagefind/, in parts of at most `partPages`
 * pages (partRanges): the first part is the bundle in <root>/pagefind/, the others go to <root>/pagefind/part-2/ …,
 * named by <root>/pagefind/parts.json (written for one part too, `{"parts":[]}`, so a reader never guesses). Each part
 * is a process of its own (pagefind-part.ts), pipelined: a part's pages are indexed while the part before writes its
 * bundle, and a part writes only once the one before has exited, so at most one bundle (≈270 KB a page) and one
 * part's pages (≈70 KB a page) are in memory at once, on the two cores.
 */
export async function indexTree(root: string, label: string, partPages: number, log: Log): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(root, 'build-manifest.json'), 'utf8')) as { pages: ManifestPage[] };
  const started = performance.now();
  const bundle = join(root, 'pagefind');
  // parts of an earlier build into the same folder
  if (existsSync(bundle)) for (const name of readdirSync(bundle)) if (/^part-\d+$/.test(name)) rmSync(join(bundle, name), { recursive: true, force: true });
  const ranges = partRanges(manifest.pages.length, partPages);
  const running: PartProcess[] = [];
  let indexedMs = 0;
  try {
    let before: Promise<void> = Promise.resolve();
    for (const [k, [from, to]] of ranges.entries()) {
      const partLabel = ranges.length > 1 ? `${label} part ${k + 1}/${ranges.length}` : label;
      const part = startPart({ root, from, to, outputPath: k === 0 ? bundle : join(bundle, partFolder(k)), label: partLabel }, log);
      running.push(part);
      indexedMs += await part.indexed;
      await before; // the part before has written its bundle and its Pagefind service is gone
      part.write();
      const partStarted = performance.now();
      before = part.exited.then(() => {
        if (ranges.length > 1) log(`${partLabel}: bundle written in ${((performance.now() - partStarted) / 1000).toFixed(1)} s`);
      });
      before.catch(() => {}); // awaited in the next turn or after the loop; a failure meanwhile is not unhandled
    }
    await before;
  } finally {
    for (const part of running) part.kill(); // a failed part: the others stop too (a no-op once exited)
  }
  writeFileSync(join(bundle, PARTS_FILE), `${JSON.stringify({ parts: ranges.slice(1).map((_, k) => partFolder(k + 1)) })}\n`);
  const s = (ms: number) => (ms / 1000).toFixed(1);
  log(`${label}: search index written in ${s(performance.now() - started)} s (adding pages ${s(indexedMs)} s in all parts)`);
}

interface PartProcess {
  /** Resolves to the ms its pages took, once they are all indexed. */
  indexed: Promise<number>;
  /** Lets it write its bundle. */
  write(): void;
  /** Resolves when it has exited after writing, rejects when it failed. */
  exited: Promise<void>;
  kill(): void;
}

/** One part's process (pagefind-part.ts), its log lines passed on to `log`. */
function startPart(job: PartJob, log: Log): PartProcess {
  const script = fileURLToPath(new URL('./pagefind-part.ts', import.meta.url));
  const child = fork(script, [JSON.stringify(job)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let onIndexed!: (ms: number) => void;
  const indexed = new Promise<number>((resolve) => (onIndexed = resolve));
  child.on('message', (m: PartMessage) => {
    if (m.type === 'log') log(m.message);
    else if (m.type === 'indexed') onIndexed(m.ms);
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${job.label}: the Pagefind step failed (${signal ?? `exit code ${code}`})`))));
  });
  exited.catch(() => {}); // awaited by indexTree; this only keeps a failure before then from counting as unhandled
  return {
    // a part that fails while adding pages never says it is indexed: its exit settles this too
    indexed: Promise.race([indexed, exited.then(() => Promise.reject(new Error(`${job.label}: exited before indexing its pages`)))]),
    write: () => child.connected && child.send({ type: 'write' }),
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

/** Where the gateway finds the prebuilt engine index of a tree (`site` or `portfolio`). */
export function engineIndexDir(distDir: string, tree: string): string {
  return join(distDir, 'search-index', tree);
}

/**
 * Indexes dist/site and, when built, dist/portfolio with Pagefind (indexTree: every part's service has exited when it
 * returns); then builds the gateway's search engine index of each tree into dist/search-index/<tree>/ (outside the
 * public trees), so the gateway's first start after a build loads it instead of re-indexing every fragment, and the
 * manifest's runtime slice beside it. The engine's builders are child processes of their own that start after
 * Pagefind has exited, so the two never add up in memory. Files are 0644 in 0755 directories: the gateway may run as
 * another user than the build, and they hold nothing the public Pagefind bundle does not.
 */
export async function writeSearchIndexes(distDir: string, log: Log): Promise<void> {
  const trees: [string, string][] = [[join(distDir, 'site'), 'site']];
  const portfolioDir = join(distDir, 'portfolio');
  if (existsSync(join(portfolioDir, 'build-manifest.json'))) trees.push([portfolioDir, 'portfolio']);
  // The pages' precompressed siblings meanwhile: most were made during the render
  // (compress-ahead.ts) and are only moved into place; the few others are compressed here.
  // Pagefind's own bundle is compressed once it is written (below).
  const compressing = new Map(
    trees.map(([dir, tree]) => {
      const done = precompress(dir, tree, ['pagefind'], log, aheadDir(distDir));
      done.catch(() => {}); // awaited below; this only keeps a failure while indexing from counting as unhandled
      return [tree, done];
    }),
  );
  const { searchIndexPartPages } = loadSiteConfig();
  for (const [dir, tree] of trees) await indexTree(dir, tree === 'site' ? 'docs' : tree, searchIndexPartPages, log);
  // The engine's modules load only now: not held in this process while Pagefind holds its index.
  const { prepareSearchIndex } = await import('../../gateway/engine/search.ts');
  const { RUNTIME_MANIFEST_FILE, writeRuntimeManifest } = await import('../../gateway/engine/manifest.ts');
  // the gateway's compile cache (gateway/compile-cache.ts) meanwhile, in a process of its own
  const warm = warmGatewayCompileCache(distDir, log);
  for (const [siteDir, tree] of trees) {
    const r = await prepareSearchIndex({ siteDir, indexCacheDir: engineIndexDir(distDir, tree), publish: true });
    log(`${tree}: engine index ${r.built ? 'built' : 'up to date'} in ${(r.ms / 1000).toFixed(1)} s`);
    // the manifest's runtime slice beside it: the gateway parses that instead of the whole manifest
    await writeRuntimeManifest(siteDir, join(engineIndexDir(distDir, tree), RUNTIME_MANIFEST_FILE));
  }
  for (const [siteDir, tree] of trees) {
    await compressing.get(tree);
    // the Pagefind UI's script and stylesheet get their siblings too
    await precompress(join(siteDir, 'pagefind'), `${tree} search bundle`, [], log);
  }
  rmSync(aheadDir(distDir), { recursive: true, force: true }); // what no file took: pages Astro rendered twice, or removed
  await warm;
}

/** `.br` and `.gz` siblings of a tree's text files (PRECOMPRESS=false: none), taken from `ahead` where they were made during the render. */
async function precompress(dir: string, label: string, skip: string[], log: Log, ahead?: string): Promise<void> {
  if (process.env.PRECOMPRESS === 'false' || !existsSync(dir)) return;
  const started = performance.now();
  const { files, ahead: early } = await compressTree(dir, skip, ahead && existsSync(ahead) ? ahead : undefined);
  const during = early ? ` (${early} of them during the render)` : '';
  log(`${label}: ${files} files precompressed (.br, .gz)${during} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Fills `<distDir>/compile-cache` so the gateway's first start skips stripping and compiling its modules. */
function warmGatewayCompileCache(distDir: string, log: Log): Promise<void> {
  return new Promise((done) => {
    const { args, env } = warmCompileCacheCommand(distDir, gatewayNodeArgs());
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('error', () => done());
    child.on('close', () => {
      if (out.trim()) log(out.trim());
      done();
    });
  });
}

/** Set by runAstroBuild: the integration leaves the Pagefind step to a process of its own after the build. */
export const deferEnv = 'AGENT_DOCS_SEARCH_INDEX';
export const deferValue = 'after-build';

if (import.meta.main) {
  const distDir = resolve(process.argv[2] ?? (process.env.DIST_DIR || 'dist'));
  const log: Log = (m) => console.log(`${new Date().toTimeString().slice(0, 8)} [search-index] ${m}`);
  writeSearchIndexes(distDir, log).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`[search-index] ${(err as Error)?.message ?? String(err)}`);
      process.exit(1);
    },
  );
}
