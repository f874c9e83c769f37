// The HTML side of reading a page: one hast plugin for Sätteri, the native Markdown
// processor Astro renders Markdown and MDX with (astro.config.mjs hands it the plugin;
// plugins for the unified/rehype processor would switch every page to it, ≈30× slower
// per page, see the performance docs page). Run on every Markdown and MDX page:
// - Fenced code becomes `<div class="code-block"><pre class="code" tabindex="0">…`,
//   highlighted at build time (highlight.ts), with an optional title (`title="x"`,
//   `[x]` or Mintlify's leading words in the fence's info string) and highlighted lines (`{1,3-5}`). The copy
//   button is added by the client script: it only works with JavaScript anyway.
// - `::: code-group` (a paragraph `::: code-group`, fences, a paragraph `:::`, as
//   VitePress writes it; the docs loader leaves these lines in place) becomes the
//   tabs markup scripts/code-groups.ts makes interactive, each fence's title its tab's
//   label; the only code-group renderer of the HTML. Every panel shows when scripts
//   do not run (blocks.css keys on html.js).
// - Tables sit in a focusable, labelled scroll region; tables of three or more
//   columns are marked to stack on a phone (scripts/reading.ts labels their cells).
//   A column's alignment (`| ---: |`) becomes a class on its cells: the site's
//   Content-Security-Policy allows no inline style attribute, so the processor's
//   `style="text-align: …"` would be dropped by the browser.
// - Headings keep the ids Astro gives them from their text; an id the author wrote
//   (`{#options}`, which the docs loader leaves as text) and the id VitePress would give
//   become empty anchors beside them, so links written for the source site land.
// - A compiled MDX page's links resolve as a Markdown page's do in the docs loader
//   (`./other.md`, `/guide/x` → `/docs/guide/x`, src/lib/content-links.ts): the MDX
//   integration compiles the file as written. Broken ones are the twin's to report.
// The Markdown twin is made from the source file, so none of this reaches it.
// Visitors see elements in document order; the replacements they return are
// serialised by the processor, so cached highlight nodes are shared, never copied.
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import type { HastPluginDefinition, HastVisitorContext } from 'satteri';
import { linkTable, resolveLink } from '../lib/content-links.ts';
import { authoredId, authoredIdLine, vitepressSlug } from './heading-ids.ts';
import { highlightLines } from './highlight.ts';

type Parent = Root | Element;
type Node = RootContent | ElementContent;

const isElement = (node: Node | Root | undefined, tag?: string): node is Element =>
  node?.type === 'element' && (tag === undefined || node.tagName === tag);

const hasClass = (node: Element, name: string): boolean => ((node.properties.className as string[] | undefined) ?? []).includes(name);

/** The text a reader sees in a node. */
function textOf(node: Node): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

export interface FenceInfo {
  lang?: string;
  title?: string;
  /** 1-based line numbers to highlight. */
  lines: Set<number>;
}

/** Words of a fence's meta string that are other tools' flags, not a title (Docusaurus, twoslash, Mintlify). */
const META_FLAGS = new Set(['showLineNumbers', 'npm2yarn', 'live', 'noInline', 'twoslash', 'wrap', 'lines', 'expandable', 'collapse', 'frame', 'ts2js']);

/**
 * A title written as the meta string's first words, Mintlify's way (```` ```bash Install with curl icon="globe" ````,
 * ```` ```js dist/index.js ````): the words before the first attribute (`key=`), `{1,3}` or `[label]`, flags left out.
 */
function leadingTitle(meta: string): string | undefined {
  const head = meta.slice(0, 300).trim().split(/\s(?=[\w-]+=)|[{[]/)[0]!.trim();
  if (!head || /^[\w-]+=/.test(head)) return undefined;
  // a flag, or an option written `key:value` (`style:max-height:400px`)
  const words = head.split(/\s+/).filter((word) => !META_FLAGS.has(word) && !/^[\w-]+:\S/.test(word));
  return words.length > 0 ? words.join(' ') : undefined;
}

/** Reads the language (from the class) and the meta string of a `<pre><code>`. */
export function fenceInfo(code: Element): FenceInfo {
  const classes = (code.properties.className as string[] | undefined) ?? [];
  const lang = classes.find((c) => String(c).startsWith('language-'))?.slice('language-'.length);
  const meta = String((code.data as { meta?: string } | undefined)?.meta ?? '');
  const written = /\btitle=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(meta) ?? /\[([^\]]+)\]/.exec(meta);
  const title = written ? (written[1] ?? written[2] ?? written[3]) : leadingTitle(meta);
  const lines = new Set<number>();
  const ranges = /\{([\d,\s-]+)\}/.exec(meta)?.[1] ?? '';
  for (const part of ranges.split(',')) {
    const [from, to = from] = part.trim().split('-').map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to)) continue;
    // A bound, so "{1-99999999}" in a fence cannot make the build spin.
    for (let n = from!; n <= Math.min(to!, from! + 1000); n++) lines.add(n);
  }
  return { lang, title, lines };
}

const el = (tagName: string, properties: Element['properties'], children: ElementContent[]): Element => ({ type: 'element', tagName, properties, children });
const text = (value: string): ElementContent => ({ type: 'text', value });

async function codeBlock(code: Element, source: string): Promise<Element> {
  const info = fenceInfo(code);
  const lines = await highlightLines(source.replace(/\n$/, ''), info.lang);
  const children: ElementContent[] = [];
  lines.forEach((line, i) => {
    if (i > 0) children.push(text('\n'));
    if (info.lines.has(i + 1)) children.push(el('span', { className: ['line-hl'] }, line));
    else children.push(...line);
  });
  const preProps: Element['properties'] = { className: ['code'], tabIndex: 0 };
  if (info.lang) preProps.dataLang = info.lang;
  if (info.title) preProps.ariaLabel = info.title;
  const block: ElementContent[] = [];
  if (info.title) block.push(el('div', { className: ['code-title'] }, [text(info.title)]));
  block.push(el('pre', preProps, [el('code', {}, children)]));
  return el('div', { className: ['code-block'] }, block);
}

/** A plain copy of a node the processor handed over (its lazily read children included). */
function copy(node: Node): ElementContent {
  if (node.type === 'element') return el(node.tagName, { ...node.properties }, node.children.map(copy));
  return { ...node } as ElementContent;
}

const isMarker = (node: Node | undefined, re: RegExp): boolean => isElement(node, 'p') && re.test(textOf(node).trim());
const groupOpen = /^:::\s*code-group$/;
const groupClose = /^:::$/;

interface BuiltGroup {
  end: number;
  group: Element;
}

/**
 * One `::: code-group` run of `kids` (from `start`, ending at `end`) as the tabs markup.
 * Its code blocks were rendered already: each block's title becomes its tab's label and
 * leaves the panel; other content between the markers, a group nested in it included
 * (`inner`, by its start), stays above the panels.
 */
function codeGroup(kids: Node[], start: number, end: number, inner: Map<number, BuiltGroup>, group: number): Element {
  const tabs: Element[] = [];
  const panels: Element[] = [];
  const loose: ElementContent[] = [];
  for (let i = start + 1; i < end; i++) {
    const node = kids[i]!;
    const nested = inner.get(i);
    if (nested) {
      loose.push(nested.group);
      i = nested.end;
      continue;
    }
    if (!isElement(node, 'div') || !hasClass(node, 'code-block')) {
      if (node.type !== 'text' || node.value.trim()) loose.push(copy(node));
      continue;
    }
    const pre = node.children.find((c): c is Element => isElement(c, 'pre'));
    if (!pre) continue;
    const title = node.children.find((c): c is Element => isElement(c, 'div') && hasClass(c, 'code-title'));
    const n = tabs.length;
    const id = `code-group-${group}-${n + 1}`;
    const label = (title ? textOf(title) : undefined) ?? (pre.properties.dataLang as string | undefined) ?? `Tab ${n + 1}`;
    const { ariaLabel: _label, ...preProps } = pre.properties;
    tabs.push(el('button', { type: 'button', role: 'tab', id: `${id}-tab`, ariaSelected: String(n === 0), ariaControls: [id] }, [text(label)]));
    const panelProps: Element['properties'] = { className: ['code-group-panel'], role: 'tabpanel', id, ariaLabelledBy: [`${id}-tab`] };
    if (n > 0) panelProps.hidden = true;
    panels.push(el('div', panelProps, [el('div', { className: ['code-block'] }, [copy({ ...pre, properties: preProps })])]));
  }
  return el('div', { className: ['code-group'], dataCodeGroup: '' }, [el('div', { className: ['code-group-tabs'], role: 'tablist' }, tabs), ...loose, ...panels]);
}

/**
 * Replaces every `::: code-group` … `:::` run under `parent` by its tabs markup. Markers
 * pair like brackets (the docs loader writes a group nested in another one inside it);
 * an unpaired marker stays as the text it is.
 */
function codeGroups(parent: Parent, ctx: HastVisitorContext, next: () => number): void {
  const kids = parent.children as Node[];
  const open: number[] = [];
  const built = new Map<number, BuiltGroup>();
  for (let i = 0; i < kids.length; i++) {
    const node = kids[i]!;
    if (isMarker(node, groupOpen)) open.push(i);
    else if (open.length > 0 && isMarker(node, groupClose)) {
      const start = open.pop()!;
      built.set(start, { end: i, group: codeGroup(kids, start, i, built, next()) });
    } else if (isElement(node)) codeGroups(node, ctx, next);
  }
  // Only the outermost groups go into the page: a nested one is part of its outer group.
  for (const [start, { end, group }] of built) {
    if ([...built].some(([s, b]) => s < start && b.end > end)) continue;
    ctx.replaceNode(kids[start]!, group);
    for (const k of kids.slice(start + 1, end + 1)) ctx.removeNode(k);
  }
}

const alignment = /^\s*text-align:\s*(left|right|center)\s*;?\s*$/;

/** A cell's alignment as the Markdown set it (`| ---: |` becomes an inline style or the `align` attribute). */
function sideOf(cell: Element): string | undefined {
  const { style, align } = cell.properties;
  return typeof style === 'string' ? alignment.exec(style)?.[1] : typeof align === 'string' ? align : undefined;
}

const tableParts = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr']);

/** Drops the line breaks between a table's rows and cells: they show nowhere, and a long table has hundreds. */
function dropTableWhitespace(node: Element): void {
  node.children = node.children.filter((child) => !(child.type === 'text' && child.value.trim() === ''));
  for (const child of node.children) if (isElement(child) && tableParts.has(child.tagName)) dropTableWhitespace(child);
}

function rowsOf(node: Element): Element[] {
  return node.children.flatMap((child) => (!isElement(child) ? [] : child.tagName === 'tr' ? [child] : rowsOf(child)));
}

/**
 * Moves each cell's alignment from an inline style (or the `align` attribute) to a class, as the CSP allows no inline
 * style. A table of figures (every column right-aligned but the first) says so once, `numbers` on the table, instead of
 * `align-right` on each of its cells (≈20 bytes a cell: 3 KB on a page with a table of measurements).
 * Returns whether the table is one.
 */
function alignCells(table: Element): boolean {
  const rows = rowsOf(table);
  const cells = rows.map((row) => row.children.filter((c): c is Element => isElement(c) && (c.tagName === 'th' || c.tagName === 'td')));
  const numbers = cells.length > 0 && cells.every((row) => row.length > 1 && row.every((cell, i) => (i === 0 ? sideOf(cell) !== 'right' && sideOf(cell) !== 'center' : sideOf(cell) === 'right')));
  for (const cell of cells.flat()) {
    const side = sideOf(cell);
    if (side === undefined) continue;
    delete cell.properties.style;
    delete cell.properties.align;
    // left is where a cell's text starts anyway
    if (!numbers && side !== 'left') cell.properties.className = [...((cell.properties.className as string[] | undefined) ?? []), `align-${side}`];
  }
  return numbers;
}

function tableRegion(table: Element, heading: string | undefined, used: Map<string, number>): Element {
  const headRow = table.children.find((c): c is Element => isElement(c, 'thead'))?.children.find((c): c is Element => isElement(c, 'tr'));
  const headers = (headRow?.children ?? []).filter((c): c is Element => isElement(c, 'th')).map((th) => textOf(th).trim());
  const copied = copy(table) as Element;
  dropTableWhitespace(copied);
  const numbers = alignCells(copied);
  // Wider tables stack on a phone; the client script labels each cell with its column there.
  const classes = [...(headers.length > 2 ? ['stack'] : []), ...(numbers ? ['numbers'] : [])];
  if (classes.length) copied.properties.className = classes;
  // Landmark names must be unique on the page: the section it sits in, then a number if need be.
  let label = `Table${heading ? ` under “${heading}”` : ''}${headers.length ? `: ${headers.join(', ')}` : ''}`;
  const seen = (used.get(label) ?? 0) + 1;
  used.set(label, seen);
  if (seen > 1) label += ` (${seen})`;
  return el('div', { className: ['table-scroll'], role: 'region', tabIndex: 0, ariaLabel: label }, [copied]);
}

const headingTag = /^h[1-6]$/;

function lastText(node: Element): Text | undefined {
  for (let i = node.children.length - 1; i >= 0; i--) {
    const child = node.children[i]!;
    if (child.type === 'text') return child;
    if (isElement(child)) {
      const found = lastText(child);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Ids the author's links may use besides the ones headings get from their text (github-slugger, as Astro gives
 * them): an id written after a heading or on a line of its own (`{#options}`, left as text by the docs loader), and
 * the id VitePress would give a heading (`#userevent-type` where the page's id is `usereventtype`). Each becomes an
 * empty anchor element where it applies, unless a heading of the page has it already, so a link written for the
 * source site lands on its section. The plugin runs before Astro's heading ids, whose slugs this repeats to know
 * them; it sees headings and paragraphs as they are visited (no walk of the whole page: Sätteri hands JS only the
 * nodes a filter names) and places the anchors once the page's ids are all known.
 */
class Anchors {
  private readonly slugger = new GithubSlugger();
  private readonly headings: { node: Element; slug: string; text: string; authored?: string }[] = [];
  /** Ids placed for paragraphs that were only an id. */
  private readonly lines = new Set<string>();

  /** Notes a heading; returns its text as a reader sees it (an authored id taken out of it). */
  heading(node: Element, ctx: HastVisitorContext): string {
    let text = ctx.textContent(node);
    const last = text.includes('{#') ? lastText(node) : undefined;
    const marker = last && authoredId.exec(last.value);
    if (marker) {
      const value = last.value.slice(0, marker.index).trimEnd();
      text = text.slice(0, text.length - last.value.length) + value;
      ctx.replaceNode(last, { type: 'text', value });
    }
    // as Astro: a heading with an id of its own keeps it and takes no slug
    const own = node.properties.id;
    this.headings.push({ node, slug: typeof own === 'string' ? own : this.slugger.slug(text), text, authored: marker?.[1] });
    return text;
  }

  /**
   * A paragraph that is only an authored id: the anchor that replaces it (there and then, as the visitor's
   * replacement: code groups later rebuild their stretch of the page from the nodes the visitors returned), or an
   * empty text when an earlier heading has the id. A later heading with the same id is the author's double.
   */
  paragraph(node: Element): Element | Text | undefined {
    const only = node.children.length === 1 ? node.children[0] : undefined;
    const id = only?.type === 'text' && only.value.includes('{#') ? authoredIdLine.exec(only.value)?.[1] : undefined;
    if (id === undefined) return undefined;
    if (this.headings.some((h) => h.slug === id) || this.lines.has(id)) return { type: 'text', value: '' };
    this.lines.add(id);
    return el('span', { id }, []);
  }

  place(ctx: HastVisitorContext): void {
    if (!this.headings.length) return;
    const taken = new Set([...this.headings.map((h) => h.slug), ...this.lines]);
    const claim = (id: string | undefined): id is string => id !== undefined && id !== '' && !taken.has(id) && (taken.add(id), true);
    for (const h of this.headings) {
      const ids = [h.authored, vitepressSlug(h.text)].filter(claim);
      if (ids.length) ctx.prependChild(h.node, ids.map((id) => el('span', { id }, [])));
    }
  }
}

/** Where a compiled MDX page's links point: the page a Markdown page's link would, else as written. */
function mdxLink(node: Element, ctx: HastVisitorContext, contentDir: string): void {
  const href = node.properties.href;
  if (typeof href !== 'string' || !ctx.fileURL) return;
  const file = relative(contentDir, fileURLToPath(ctx.fileURL)).split('\\').join('/');
  if (file.startsWith('..') || file.startsWith('portfolio/')) return;
  const link = resolveLink(linkTable(contentDir), file, href);
  if (link.kind === 'page' || link.kind === 'asset') ctx.setProperty(node, 'href', link.url);
}

/**
 * The plugin, one instance per page (the processor calls this factory for each); `contentDir` (absolute) is the docs
 * tree whose compiled MDX pages get their links resolved.
 */
export function readingPlugin(contentDir?: string): HastPluginDefinition {
  let heading: string | undefined;
  let hasGroups = false;
  const labels = new Map<string, number>();
  const anchors = new Anchors();
  return {
    name: 'agent-docs-reading',
    element: [
      {
        filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'pre', 'p', 'a'],
        visit(node, ctx) {
          if (node.tagName === 'a') {
            if (contentDir && ctx.sourceFormat === 'mdx') mdxLink(node, ctx, contentDir);
          } else if (headingTag.test(node.tagName)) heading = anchors.heading(node, ctx).trim();
          else if (node.tagName === 'table') return tableRegion(node, heading, labels);
          else if (node.tagName === 'p') {
            const anchor = anchors.paragraph(node);
            if (anchor) return anchor;
            hasGroups ||= groupOpen.test(ctx.textContent(node).trim());
          } else {
            const code = node.children.find((c): c is Element => isElement(c, 'code'));
            if (code) return codeBlock(code, ctx.textContent(code));
          }
          return undefined;
        },
      },
    ],
    after(root, ctx) {
      anchors.place(ctx);
      if (!hasGroups) return;
      let groups = 0;
      codeGroups(root as Root, ctx, () => ++groups);
    },
  };
}
