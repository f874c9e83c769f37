// One part of the Pagefind step (search-index.ts), in a process of its own: a Pagefind
// service indexes the part's pages, the process says so, waits for its turn to write the
// bundle, writes it, and exits once the service has exited. Pagefind's Node API runs one
// service per process (a module-level singleton), and a service answers one message at a
// time; so a process per part is what lets the next part's pages be indexed while this
// part writes its bundle, on the other core, with only one bundle written at a time.
//
//   node src/integration/pagefind-part.ts '<PartJob as JSON>'     (with an IPC channel)
//
// Messages to the parent: {type:'log', message}, {type:'indexed', ms}; from it: {type:'write'}.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { descendants } from '../lib/process-tree.ts';

export interface PartJob {
  /** The tree: its build-manifest.json lists the pages. */
  root: string;
  /** The part's pages: manifest.pages.slice(from, to). */
  from: number;
  to: number;
  outputPath: string;
  label: string;
}

export type PartMessage = { type: 'log'; message: string } | { type: 'indexed'; ms: number };

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
 * Indexes the job's pages into the bundle `outputPath`: adds every page, calls `indexed`, waits for `mayWrite`, writes
 * the bundle, and resolves once the Pagefind service has exited (its memory gone).
 */
export async function indexPart(job: PartJob, log: (message: string) => void, indexed: (ms: number) => void, mayWrite: Promise<void>): Promise<void> {
  const started = performance.now();
  const manifest = JSON.parse(readFileSync(join(job.root, 'build-manifest.json'), 'utf8')) as { pages: { path: string }[] };
  const pages = manifest.pages.slice(job.from, job.to).map((page) => page.path);
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
    for (const path of pages) {
      const file = path === '/' ? 'index.html' : `${path.slice(1)}.html`;
      const html = readFileSync(join(job.root, file), 'utf8');
      const added = index.addHTMLFile({ url: path, content: indexableHtml(html) }).then((r) => {
        if (r.errors.length) throw new Error(`Pagefind could not index ${path}: ${r.errors.join('; ')}`);
        if (++done % step === 0 || done === total) log(`${job.label}: indexed ${done}/${total} pages`);
      });
      added.catch(() => {}); // awaited below, in order; this only keeps an early failure from counting as unhandled
      inFlight.push(added);
      if (inFlight.length >= window) await inFlight.shift();
    }
    await Promise.all(inFlight);
    indexed(performance.now() - started);
    await mayWrite;
    const written = await index.writeFiles({ outputPath: job.outputPath });
    if (written.errors.length) throw new Error(`Pagefind could not write its bundle: ${written.errors.join('; ')}`);
    await index.deleteIndex();
  } finally {
    // Pagefind runs as a child service; left open it keeps the process alive. close() kills it without waiting:
    // its memory must be gone before this process exits, which is when the next part may write.
    const service = childPids('pagefind');
    await pagefind.close();
    await exited(service);
  }
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

/**
 * Resolves once none of `pids` is left, or after `timeoutMs`: not even a zombie, so this process has reaped the
 * service and its CPU time is counted in this process's children's time (and the build's, by the bench) rather than
 * passed to init with the zombie when this process exits.
 */
async function exited(pids: number[], timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (pids.some((pid) => existsSync(`/proc/${pid}`)) && Date.now() < until) await new Promise((done) => setTimeout(done, 50));
}

if (import.meta.main) {
  const send = (message: PartMessage) => process.send!(message);
  let finished = false;
  process.on('disconnect', () => finished || process.exit(1)); // the build is gone: stop, service and all
  const mayWrite = new Promise<void>((resolve) => process.on('message', (m: { type?: string }) => m?.type === 'write' && resolve()));
  indexPart(JSON.parse(process.argv[2]!) as PartJob, (message) => send({ type: 'log', message }), (ms) => send({ type: 'indexed', ms }), mayWrite).then(
    () => {
      finished = true;
      process.disconnect?.(); // the messages sent so far are delivered; nothing else keeps the process alive
    },
    (err: unknown) => {
      console.error(`[search-index] ${(err as Error)?.message ?? String(err)}`);
      process.exit(1);
    },
  );
}
