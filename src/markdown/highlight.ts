// Build-time syntax highlighting for fenced code. One shiki highlighter per build
// process with a small fixed set of grammars and the JavaScript regex engine (no
// WebAssembly to start), a CSS-variables theme whose token colours map to short
// classes (`.code .k` …) that the stylesheet colours for light and dark, so the
// HTML carries no per-token colours and the theme toggle needs no second copy.
// Results are cached per unique (language, code): the same snippet on many pages
// is tokenised once.
import { createHighlighterCore, createCssVariablesTheme, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import type { ElementContent } from 'hast';

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

/** css-variables theme colour → class (see `.code` rules in src/styles/reading.css). */
const tokenClass: Readonly<Record<string, string>> = {
  'token-keyword': 'k',
  'token-string': 's',
  'token-string-expression': 's',
  'token-comment': 'c',
  'token-constant': 'n',
  'token-function': 'f',
  'token-parameter': 'p',
  'token-link': 'l',
};

/** Grammars load on first use: a build without TOML code never reads the TOML grammar. */
const grammars: Readonly<Record<string, () => Promise<unknown>>> = {
  bash: () => import('shiki/langs/bash.mjs'),
  typescript: () => import('shiki/langs/typescript.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
  toml: () => import('shiki/langs/toml.mjs'),
  ini: () => import('shiki/langs/ini.mjs'),
  nginx: () => import('shiki/langs/nginx.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
  diff: () => import('shiki/langs/diff.mjs'),
  dockerfile: () => import('shiki/langs/dockerfile.mjs'),
  http: () => import('shiki/langs/http.mjs'),
};

let highlighter: Promise<HighlighterCore> | undefined;
const loaded = new Map<string, Promise<void>>();

async function load(grammar: string): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [createCssVariablesTheme({ name: 'site', fontStyle: false })],
    langs: [],
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  });
  const hl = await highlighter;
  let ready = loaded.get(grammar);
  if (!ready) {
    ready = grammars[grammar]!().then((mod) => hl.loadLanguage((mod as { default: never }).default));
    loaded.set(grammar, ready);
  }
  await ready;
  return hl;
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

/** One line's tokens as hast: runs of the same class merged, plain text left bare. */
function lineNodes(tokens: { content: string; color?: string }[]): ElementContent[] {
  const out: ElementContent[] = [];
  let runClass: string | undefined;
  let run = '';
  const flush = () => {
    if (!run) return;
    out.push(runClass ? { type: 'element', tagName: 'span', properties: { className: [runClass] }, children: [text(run)] } : text(run));
    run = '';
  };
  for (const token of tokens) {
    const variable = /var\(--shiki-([a-z-]+)/.exec(token.color ?? '')?.[1];
    // Whitespace takes whatever class the run has: fewer spans.
    const cls = /^\s*$/.test(token.content) ? runClass : variable ? tokenClass[variable] : undefined;
    if (cls !== runClass) flush();
    runClass = cls;
    run += token.content;
  }
  flush();
  return out;
}

/** The lines of `code` highlighted with `grammar`. */
async function tokenizeLines(code: string, grammar: string): Promise<ElementContent[][]> {
  const hl = await load(grammar);
  // No time limit per line: with one (shiki's default is 500 ms) a busy machine cuts a line's
  // tokens short and the HTML depends on the load. Lines past 2,000 characters stay plain.
  return hl.codeToTokensBase(code, { lang: grammar, theme: 'site', tokenizeTimeLimit: 0, tokenizeMaxLineLength: 2000 }).map(lineNodes);
}

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
    ? tokenizeLines(code, grammar)
    : Promise.resolve(code.split('\n').map((line) => (line ? [text(line)] : [])));
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, lines);
  lines.catch(() => cache.delete(key));
  return lines;
}
