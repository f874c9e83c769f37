// Build-time syntax highlighting for fenced code: a fence's language → grammar, and the
// lines of a block as hast with short token classes (`.code .k` …) that the stylesheet
// colours for light and dark, so the HTML carries no per-token colours and the theme
// toggle needs no second copy. The tokenizing (shiki, highlight-tokens.ts) runs in a
// worker thread when it can. Results are cached per unique (language, code): the same
// snippet on many pages is tokenised once.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ElementContent } from 'hast';
import { tokenRuns, type LineRuns } from './highlight-tokens.ts';
import type { TokenizeAnswer, TokenizeRequest } from './highlight-worker.ts';

/** Fence info string → grammar. Anything else renders as plain, escaped text. */
const aliases: Readonly<Record<string, string>> = {
  bash: 'bash', sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash',
  ts: 'typescript', typescript: 'typescript', mts: 'typescript',
  js: 'javascript', javascript: 'javascript', mjs: 'javascript',
  tsx: 'tsx', jsx: 'tsx',
  json: 'json', jsonc: 'json', json5: 'json',
  yaml: 'yaml', yml: 'yaml',
  toml: 'toml', ini: 'ini', env: 'ini',
  nginx: 'nginx',
  html: 'html', xml: 'html', astro: 'html',
  css: 'css',
  md: 'markdown', markdown: 'markdown', mdx: 'markdown',
  diff: 'diff',
  dockerfile: 'dockerfile', docker: 'dockerfile',
  http: 'http',
};

/**
 * The tokenizer: a worker thread while its module is on disk beside this one (the content sync, where all Markdown
 * pages render: Astro's main thread goes on with the next pages' Markdown while the worker tokenizes, on the core
 * the sync otherwise leaves idle), in this thread where it is not (this module bundled into Astro's prerender code,
 * for the few MDX pages) or cannot start. The answers are the same runs either way.
 */
let worker: Worker | undefined | null;
const waiting = new Map<number, { resolve: (lines: LineRuns[]) => void; reject: (err: Error) => void }>();
let nextId = 0;

function startWorker(): Worker | null {
  const url = new URL('./highlight-worker.ts', import.meta.url);
  if (url.protocol !== 'file:' || !existsSync(fileURLToPath(url))) return null;
  const started = new Worker(url);
  started.unref(); // idle between builds' pages; never keeps the process alive
  started.on('message', (answer: TokenizeAnswer) => {
    const waiter = waiting.get(answer.id);
    waiting.delete(answer.id);
    if ('error' in answer) waiter?.reject(new Error(answer.error));
    else waiter?.resolve(answer.lines);
  });
  started.on('error', (err: Error) => {
    worker = null; // the blocks still waiting, and every later one, are tokenized here
    for (const waiter of waiting.values()) waiter.reject(err);
    waiting.clear();
  });
  return started;
}

function tokenize(code: string, grammar: string): Promise<LineRuns[]> {
  if (worker === undefined) worker = startWorker();
  if (!worker) return tokenRuns(code, grammar);
  const id = nextId++;
  const answer = new Promise<LineRuns[]>((resolve, reject) => waiting.set(id, { resolve, reject }));
  if (waiting.size === 1) worker.ref(); // a block is waiting: the process must not exit under it
  worker.postMessage({ id, code, grammar } satisfies TokenizeRequest);
  return answer
    .catch(() => tokenRuns(code, grammar))
    .finally(() => {
      if (waiting.size === 0) worker?.unref();
    });
}

/** The grammar a fence's language names, or undefined (plain text). */
export function grammarFor(lang: string | undefined): string | undefined {
  return lang ? aliases[lang.toLowerCase()] : undefined;
}

// A block's hast is ≈10 KB of objects: the cache holds the snippets pages share (install
// commands, config examples) in a bounded space, not every block of a 10,000-page site.
const MAX_CACHED = 2_000;
const cache = new Map<string, Promise<ElementContent[][]>>();

const text = (value: string): ElementContent => ({ type: 'text', value });

/** One line's runs as hast: a span per classed run, plain text bare. */
const lineNodes = (runs: LineRuns): ElementContent[] =>
  runs.map(([cls, value]) => (cls ? { type: 'element', tagName: 'span', properties: { className: [cls] }, children: [text(value)] } : text(value)));

/**
 * The lines of `code` as hast children (one array per line), highlighted when the
 * grammar is known. The returned arrays are shared through the cache: never mutate them.
 */
export function highlightLines(code: string, lang: string | undefined): Promise<ElementContent[][]> {
  const grammar = grammarFor(lang);
  const key = `${grammar ?? ''}\0${code}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const lines = grammar
    ? tokenize(code, grammar).then((lines) => lines.map(lineNodes))
    : Promise.resolve(code.split('\n').map((line) => (line ? [text(line)] : [])));
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, lines);
  lines.catch(() => cache.delete(key));
  return lines;
}
