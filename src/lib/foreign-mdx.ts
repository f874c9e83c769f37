// MDX pages written for another tool. Starlight, Docusaurus and Astro's own docs import
// their theme's components (`import { Steps } from '@astrojs/starlight/components'`,
// `import Tabs from '@theme/Tabs'`, `~/components/ReadMore.astro`), which this site
// cannot resolve; Mintlify's pages use its components (`<Note>`, `<Tabs>`) with no import
// at all. Compiled as MDX, such a page stops the build. A page with an import that does
// not resolve, or a component no import names, is read as Markdown instead, the way a
// page of a VitePress tree is: its `import`/`export` lines and `{/* comments */}` dropped,
// its components shown as their text (src/lib/source-markdown.ts). An MDX page whose
// imports all resolve and whose components they name stays MDX, rendered by the MDX
// integration, unless it gives a heading an id of its own the Docusaurus way
// (`## Options {#options}`), which MDX cannot compile. A page read as Markdown is first
// given its components' lines as MDX reads them (componentLinesAsMdx).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { authoredId, authoredIdLine, withoutAuthoredId } from '../markdown/heading-ids.ts';
import { closesFence } from './markdown-lines.ts';
import { codeSpanParts } from '../../gateway/engine/inline-markdown.ts';
import { readContentFile } from './content-links.ts';
import { TAG_VALUE } from './tool-components.ts';

/** `import … from 'x'` and `import 'x'` at the start of a line, the specifier on the same line as `from`. */
const importFrom = /^(?:import|export)\b[^'"]*?\bfrom\s*(['"])([^'"]+)\1|^import\s*(['"])([^'"]+)\3/gm;
const fence = /^\s*(`{3,}|~{3,})/;
const requireHere = createRequire(join(process.cwd(), 'package.json'));

/** Each line of a page, and whether it is outside fenced code (a fence's own lines are inside). */
export function* linesOf(source: string): Generator<[line: string, prose: boolean]> {
  let open: string | null = null;
  for (const line of source.split('\n')) {
    if (open !== null) {
      if (closesFence(line, open)) open = null;
      yield [line, false];
      continue;
    }
    const f = fence.exec(line);
    if (f) open = f[1]!;
    yield [line, !f];
  }
}

/** The lines of a page outside its fenced code. */
function proseLines(source: string): string[] {
  return [...linesOf(source)].flatMap(([line, prose]) => (prose ? [line] : []));
}

/** The import specifiers of an MDX page outside its fenced code. */
export function mdxImports(source: string): string[] {
  const out: string[] = [];
  // a multi-line import names its specifier on its last line: join each statement first
  const text = proseLines(source).join('\n').replace(/^(import|export)\b([^;'"{]*\{[^}]*\})/gm, (_w, kw: string, rest: string) => `${kw}${rest.replace(/\s+/g, ' ')}`);
  for (const m of text.matchAll(importFrom)) out.push(m[2] ?? m[4]!);
  return out;
}

function resolves(specifier: string, file: string): boolean {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const path = specifier.startsWith('/') ? specifier : resolve(dirname(file), specifier);
    return ['', '.ts', '.js', '.mjs', '.astro', '.mdx', '.md', '.json'].some((ext) => existsSync(path + ext));
  }
  try {
    requireHere.resolve(specifier);
    return true;
  } catch (err) {
    // the package is there, but exports no CommonJS entry for this path: it resolves for the bundler
    return (err as { code?: string }).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
  }
}

/** `## Options {#options}` or `{#options}` alone on a line: Docusaurus's and VitePress's ids, an expression to MDX. */
function writesMdxId(line: string): boolean {
  return line.includes('{#') && (authoredIdLine.test(line) || (/^\s*#{1,6}\s/.test(line) && authoredId.test(line)));
}

/**
 * The ids a page's author gives its sections, outside code: the Docusaurus or VitePress way (`{#options}`), and in
 * HTML written into the Markdown (`<a id="factory"></a>` under a heading, as Fastify's docs do; `<a name="hijack">`),
 * which the page keeps, so a link to it lands there.
 */
export function customIds(source: string): string[] {
  const braces = source.includes('{#');
  const html = source.includes('<');
  if (!braces && !html) return [];
  return [...linesOf(source)].flatMap(([line, prose]) => {
    if (!prose) return [];
    const id = braces && line.includes('{#') ? authoredId.exec(line)?.[1] : undefined;
    return [...(id ? [id] : []), ...(html && line.includes('<') ? htmlIds(line) : [])];
  });
}

/** A line with its code spans blanked: inline code (`` `<a id="x">` ``, `` `<Note>` ``) shows a tag and writes none. */
function withoutCodeSpans(line: string): string {
  return line.includes('`') ? codeSpanParts(line).map((part) => (part.code ? ' ' : part.text)).join('') : line;
}

/** An HTML start tag, up to its `>`: `[^<>]` stops at the next tag, so a line is scanned once. */
const startTag = /<([a-z][a-z0-9-]*)\b([^<>]*)>/gi;
/** An `id` attribute, or an `a` element's `name` (a fragment's target too, by the HTML standard). */
const idAttribute = /(?:^|\s)(id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

/** The ids a line's HTML tags give (empty values left out). */
export function htmlIds(line: string): string[] {
  const ids: string[] = [];
  // inline code (`` `<a id="x">` ``) shows a tag and writes none: only the text around code spans is read
  const prose = withoutCodeSpans(line);
  for (const [, tag, attributes] of prose.matchAll(startTag)) {
    for (const [, name, double, single, bare] of attributes!.matchAll(idAttribute)) {
      const value = (double ?? single ?? bare ?? '').trim();
      if (value && (name!.toLowerCase() === 'id' || tag!.toLowerCase() === 'a')) ids.push(value);
    }
  }
  return ids;
}

/**
 * The page without its custom ids (left blank where one had a line of its own, so line numbers hold), for the MDX
 * parse of its twin: the twin's headings have no ids.
 */
export function withoutCustomIds(source: string): string {
  if (!source.includes('{#')) return source;
  return [...linesOf(source)].map(([line, prose]) => (prose && writesMdxId(line) ? withoutAuthoredId(line) : line)).join('\n');
}

/** The names an MDX page binds itself, outside code: what its imports name, and its exported functions and constants. */
function boundNames(prose: string): Set<string> {
  const names = new Set<string>();
  for (const [, clause, exported] of prose.matchAll(/^import\s+([^'"]*?)\s*\bfrom\b|^export\s+(?:async\s+)?(?:const|let|var|function|class)\s+([A-Za-z_$][\w$]*)/gm)) {
    if (exported) names.add(exported);
    // `{ Tabs as T }` binds T; reading `Tabs` too only ever keeps a page MDX, as before
    for (const [name] of (clause ?? '').matchAll(/[A-Za-z_$][\w$]*/g)) names.add(name);
  }
  return names;
}

/** A JSX component's opening tag (`<Note>`, `<Tabs.Item`): a capital first letter, as MDX tells components from HTML. */
const componentTag = /<([A-Z][\w$]*)/g;

/**
 * Whether the page uses a component that nothing in it binds: Mintlify provides `<Note>`, `<Tabs>`, `<ParamField>` to
 * every page without an import, as Docusaurus and Nextra do for theirs, and MDX stops the build at the first one it
 * cannot find. Code spans and fenced code show tags without using them.
 */
function usesUnboundComponent(source: string): boolean {
  if (!/<[A-Z]/.test(source)) return false;
  const prose = proseLines(source).map(withoutCodeSpans);
  const bound = boundNames(prose.join('\n'));
  return prose.some((line) => [...line.matchAll(componentTag)].some(([, name]) => !bound.has(name!) && name !== 'Fragment'));
}

/**
 * Whether an MDX page (an absolute path) uses what this site does not have: an import it cannot resolve, or a
 * component no import names (another tool's built-in); or gives headings ids of its own the Docusaurus way, which MDX
 * cannot compile.
 */
export function isForeignMdx(file: string, source = readContentFile(file)): boolean {
  return mdxImports(source).some((specifier) => !resolves(specifier, file)) || usesUnboundComponent(source) || (source.includes('{#') && proseLines(source).some(writesMdxId));
}

/** The columns a line's leading white space takes, a tab reaching the next multiple of four (as CommonMark counts). */
function indentColumns(line: string): number {
  let column = 0;
  for (const char of line) {
    if (char === ' ') column++;
    else if (char === '\t') column += 4 - (column % 4);
    else break;
  }
  return column;
}

/** `line` without its first `columns` columns of leading white space (a tab that reaches past them leaves spaces). */
function withoutColumns(line: string, columns: number): string {
  let column = 0;
  let at = 0;
  while (at < line.length && column < columns && (line[at] === ' ' || line[at] === '\t')) {
    column = line[at] === '\t' ? column + 4 - (column % 4) : column + 1;
    at++;
  }
  return ' '.repeat(Math.max(0, column - columns)) + line.slice(at);
}

/** A line that is only a component's opening tag (`<Tab title="npm">`), and only its closing tag (`</Tab>`). */
const componentOpenLine = new RegExp(String.raw`^\s*<([A-Z][\w.]*)\b(?:[^<>"'/{}]|${TAG_VALUE})*>\s*$`);
const componentCloseLine = /^\s*<\/([A-Z][\w.]*)\s*>\s*$/;

/**
 * An MDX page of another tool, its components' lines as MDX reads them, for the converter. MDX has no indented code,
 * so Mintlify indents what a `<Tab>` or `<Note>` holds (a fence included) and means prose and fences, where Markdown
 * would read code: inside a component whose opening tag has a line of its own, each line loses as much leading white
 * space as the component's first line of content has (in columns: tabs and spaces mix in real pages), keeping its
 * indentation relative to it (a nested list), fenced code its own. And Mintlify's `<CodeGroup>` is a code group (`::: code-group`), each fence's title its tab's label.
 */
export function componentLinesAsMdx(source: string): string {
  if (!/^[ \t]*<[A-Z]/m.test(source)) return source;
  const open: { name: string; indent: number | undefined }[] = [];
  return [...linesOf(source)]
    .map(([line, prose]) => {
      const top = open.at(-1);
      const closing = prose ? componentCloseLine.exec(line)?.[1] : undefined;
      if (top && top.indent === undefined && line.trim() && closing !== top.name) top.indent = indentColumns(line);
      const strip = open.at(-1)?.indent ?? 0;
      if (closing !== undefined) {
        const at = open.findLastIndex((c) => c.name === closing);
        if (at >= 0) open.length = at;
      } else if (prose) {
        const opening = componentOpenLine.exec(line)?.[1];
        if (opening) open.push({ name: opening, indent: undefined });
      }
      const out = strip ? withoutColumns(line, strip) : line;
      return prose && /^\s*<\/?CodeGroup\s*>\s*$/.test(out) ? out.replace(/<(\/?)CodeGroup\s*>/, (_tag, closing: string) => (closing ? ':::' : '::: code-group')) : out;
    })
    .join('\n');
}
