// The tokenizer behind build-time highlighting (highlight.ts): one shiki highlighter per
// thread with a small fixed set of grammars and the JavaScript regex engine (no
// WebAssembly to start), a CSS-variables theme whose token colours map to short classes
// (`.code .k` …) that the stylesheet colours for light and dark. It answers in runs, a
// compact form that crosses a thread boundary cheaply: highlight.ts runs it in a worker
// thread (highlight-worker.ts) and turns the runs into hast on the main thread.
import { createHighlighterCore, createCssVariablesTheme, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';

/** One line of a block: [class, text] runs, class '' for plain text. */
export type LineRuns = [string, string][];

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

/**
 * The grammars, all loaded before the first block is tokenized: a grammar embeds others (YAML front matter in Markdown,
 * scripts and styles in HTML) and uses them only if they are loaded, so loading on demand would make a block's
 * highlighting depend on which blocks came before it.
 */
const grammars: readonly (() => Promise<unknown>)[] = [
  () => import('shiki/langs/bash.mjs'),
  () => import('shiki/langs/typescript.mjs'),
  () => import('shiki/langs/javascript.mjs'),
  () => import('shiki/langs/tsx.mjs'),
  () => import('shiki/langs/json.mjs'),
  () => import('shiki/langs/yaml.mjs'),
  () => import('shiki/langs/toml.mjs'),
  () => import('shiki/langs/ini.mjs'),
  () => import('shiki/langs/nginx.mjs'),
  () => import('shiki/langs/html.mjs'),
  () => import('shiki/langs/css.mjs'),
  () => import('shiki/langs/markdown.mjs'),
  () => import('shiki/langs/diff.mjs'),
  () => import('shiki/langs/dockerfile.mjs'),
  () => import('shiki/langs/http.mjs'),
];

let highlighter: Promise<HighlighterCore> | undefined;

async function createHighlighter(): Promise<HighlighterCore> {
  const langs = await Promise.all(grammars.map((grammar) => grammar().then((mod) => (mod as { default: never }).default)));
  return createHighlighterCore({
    themes: [createCssVariablesTheme({ name: 'site', fontStyle: false })],
    langs,
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  });
}

/** One line's tokens as runs: neighbours of the same class merged, whitespace taking the run's class (fewer spans). */
function lineRuns(tokens: { content: string; color?: string }[]): LineRuns {
  const out: LineRuns = [];
  let runClass = '';
  let run = '';
  for (const token of tokens) {
    const variable = /var\(--shiki-([a-z-]+)/.exec(token.color ?? '')?.[1];
    const cls = /^\s*$/.test(token.content) ? runClass : ((variable && tokenClass[variable]) ?? '');
    if (cls !== runClass && run) {
      out.push([runClass, run]);
      run = '';
    }
    runClass = cls;
    run += token.content;
  }
  if (run) out.push([runClass, run]);
  return out;
}

/** The lines of `code` tokenized with `grammar` (a name highlight.ts's aliases give). */
export async function tokenRuns(code: string, grammar: string): Promise<LineRuns[]> {
  const hl = await (highlighter ??= createHighlighter());
  // No time limit per line: with one (shiki's default is 500 ms) a busy machine cuts a line's
  // tokens short and the HTML depends on the load. Lines past 2,000 characters stay plain.
  return hl.codeToTokensBase(code, { lang: grammar, theme: 'site', tokenizeTimeLimit: 0, tokenizeMaxLineLength: 2000 }).map(lineRuns);
}
