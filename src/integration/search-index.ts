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
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as pagefind from 'pagefind';
import { descendants, statusBytes } from '../lib/process-tree.ts';
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
 * What Pagefind needs of a page: the indexed <article data-pagefind-body> (title meta,
 * filters and heading ids live inside it) in a minimal document. Sending only this keeps
 * the chrome (sidebar, header, scripts) out of the pipe to the Pagefind process and out of
 * its HTML parser (a third of the bytes at 10,000 pages), and the code blocks go without
 * their highlighting spans (≈90 a page). Falls back to the whole page.
 */
export function indexableHtml(html: string): string {
  const open = html.search(/<article\b[^>]*\bdata-pagefind-body\b/);
  const close = html.lastIndexOf('</article>');
  if (open === -1 || close < open) return html;
  const lang = /<html\b[^>]*\blang="([^"]*)"/.exec(html)?.[1] ?? 'en';
  // The highlighting's token spans inside <pre> carry no text: the bundle is byte-identical without them.
  const article = html.slice(open, close + '</article>'.length).replace(/<pre\b[^>]*>[\s\S]*?<\/pre>/g, (pre) => pre.replace(/<\/?span\b[^>]*>/g, ''));
  return `<!doctype html><html lang="${lang}"><head></head><body>${article}</body></html>`;
}

/**
 * Pagefind's service binary allocates with jemalloc (configured through `_RJEM_MALLOC_CONF`,
 * which the service inherits; an operator's own value wins). At 10,000 pages, measured on the
 * Pagefind step alone (tree peak, 2 runs each): jemalloc's default of 4 arenas per core and
 * freed pages kept ≈10 s, 3.28–3.31 GB in 19.1–20.3 s; one arena, 2.97 GB in 18.3–18.7 s;
 * one arena and freed pages kept 5 s, 2.89 GB in 19.7 s; 2 s, 2.86 GB in 20.1–20.5 s.
 * Returning freed pages at once (`dirty_decay_ms:0`) had doubled the bundle phase on a VM
 * with slow page faults (34 → 66–75 s: page faults and madvise on every reuse).
 */
export const PAGEFIND_MALLOC_CONF = 'narenas:1,dirty_decay_ms:5000';

async function createIndex(): Promise<pagefind.PagefindIndex> {
  process.env._RJEM_MALLOC_CONF ??= PAGEFIND_MALLOC_CONF; // read by the service when it starts, below
  const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
  if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
  return index;
}

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
 * gets a Pagefind service of its own, stopped before the next starts, so only one part's index is ever in memory.
 */
export async function indexTree(root: string, label: string, partPages: number, log: Log): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(root, 'build-manifest.json'), 'utf8')) as { pages: ManifestPage[] };
  const started = performance.now();
  const bundle = join(root, 'pagefind');
  // parts of an earlier build into the same folder
  if (existsSync(bundle)) for (const name of readdirSync(bundle)) if (/^part-\d+$/.test(name)) rmSync(join(bundle, name), { recursive: true, force: true });
  const ranges = partRanges(manifest.pages.length, partPages);
  let indexedMs = 0;
  for (const [k, [from, to]] of ranges.entries()) {
    const partLabel = ranges.length > 1 ? `${label} part ${k + 1}/${ranges.length}` : label;
    const partStarted = performance.now();
    indexedMs += await indexPart(root, manifest.pages.slice(from, to), k === 0 ? bundle : join(bundle, partFolder(k)), partLabel, log);
    if (ranges.length > 1) log(`${partLabel}: written in ${((performance.now() - partStarted) / 1000).toFixed(1)} s`);
  }
  writeFileSync(join(bundle, PARTS_FILE), `${JSON.stringify({ parts: ranges.slice(1).map((_, k) => partFolder(k + 1)) })}\n`);
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const total = performance.now() - started;
  log(`${label}: search index written in ${s(total)} s (pages ${s(indexedMs)} s, bundle ${s(total - indexedMs)} s)`);
}

/** One Pagefind service indexes `pages` into the bundle `outputPath`, then exits; returns the ms spent adding pages. */
async function indexPart(root: string, pages: readonly ManifestPage[], outputPath: string, label: string, log: Log): Promise<number> {
  const started = performance.now();
  const index = await createIndex();
  const total = pages.length;
  const step = Math.max(1, Math.ceil(total / 10));
  // The Pagefind service handles one message at a time, in arrival order. Pages are sent
  // in manifest order (so the index is deterministic) without waiting for each answer: a
  // window of requests in flight hides the round trip and lets this process read and
  // encode the next pages while Pagefind parses.
  const window = 64;
  const inFlight: Promise<unknown>[] = [];
  let done = 0;
  try {
    for (const page of pages) {
      const file = page.path === '/' ? 'index.html' : `${page.path.slice(1)}.html`;
      const html = readFileSync(join(root, file), 'utf8');
      const added = index.addHTMLFile({ url: page.path, content: indexableHtml(html) }).then((r) => {
        if (r.errors.length) throw new Error(`Pagefind could not index ${page.path}: ${r.errors.join('; ')}`);
        if (++done % step === 0 || done === total) log(`${label}: indexed ${done}/${total} pages`);
      });
      added.catch(() => {}); // awaited below, in order; this only keeps an early failure from counting as unhandled
      inFlight.push(added);
      if (inFlight.length >= window) await inFlight.shift();
    }
    await Promise.all(inFlight);
    const indexed = performance.now() - started;
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length) throw new Error(`Pagefind could not write its bundle: ${written.errors.join('; ')}`);
    await index.deleteIndex();
    return indexed;
  } finally {
    // Pagefind runs as a child service; left open it keeps the process alive. close() kills it without waiting:
    // its memory must be gone before the next part's service, or the engine's builders, start.
    const service = childPids('pagefind');
    await pagefind.close();
    await exited(service);
  }
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
  // The pages' precompressed siblings meanwhile: Pagefind's service indexes on one core and
  // the engine's builders wait on the disk part of the time, so the other core compresses.
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

/** Pids of this process's children whose command name starts with `prefix` (none where there is no /proc). */
function childPids(prefix: string): number[] {
  try {
    return descendants(process.pid)
      .filter((p) => p.comm.startsWith(prefix))
      .map((p) => p.pid);
  } catch {
    return [];
  }
}

/** Resolves once none of `pids` runs (gone, or a zombie: no memory left), or after `timeoutMs`. */
async function exited(pids: number[], timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (pids.some((pid) => statusBytes(pid) > 0) && Date.now() < until) await new Promise((done) => setTimeout(done, 50));
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
