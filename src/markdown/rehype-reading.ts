// The HTML side of reading a page: a rehype step run on every Markdown and MDX page.
// - Fenced code becomes `<div class="code-block"><pre class="code" tabindex="0">…`,
//   highlighted at build time (highlight.ts), with an optional title (`title="x"` or
//   `[x]` in the fence's info string) and highlighted lines (`{1,3-5}`). The copy
//   button is added by the client script: it only works with JavaScript anyway.
// - VitePress `::: code-group` (a paragraph `::: code-group`, fences, a paragraph `:::`)
//   becomes the tabs markup scripts/reading.ts makes interactive; every panel shows
//   when scripts do not run (site.css keys on html.js).
// - Tables sit in a focusable, labelled scroll region; tables of three or more
//   columns are marked to stack on a phone (scripts/reading.ts labels their cells).
// The Markdown twin is made from the source file, so none of this reaches it.
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { highlightLines } from './highlight.ts';

type Parent = Root | Element;

const isElement = (node: RootContent | ElementContent | undefined, tag?: string): node is Element =>
  node?.type === 'element' && (tag === undefined || node.tagName === tag);

/** The text a reader sees in a node. */
function textOf(node: RootContent | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** Every element under `parent`, with its parent, depth first; children are read after the callback. */
function walk(parent: Parent, visit: (node: Element, parent: Parent) => void): void {
  for (const child of parent.children) {
    if (!isElement(child)) continue;
    visit(child, parent);
    walk(child, visit);
  }
}

export interface FenceInfo {
  lang?: string;
  title?: string;
  /** 1-based line numbers to highlight. */
  lines: Set<number>;
}

/** Reads the language (from the class) and the meta string of a `<pre><code>`. */
export function fenceInfo(code: Element): FenceInfo {
  const classes = (code.properties.className as string[] | undefined) ?? [];
  const lang = classes.find((c) => String(c).startsWith('language-'))?.slice('language-'.length);
  const meta = String((code.data as { meta?: string } | undefined)?.meta ?? '');
  const title = /\btitle=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(meta) ?? /\[([^\]]+)\]/.exec(meta);
  const lines = new Set<number>();
  const ranges = /\{([\d,\s-]+)\}/.exec(meta)?.[1] ?? '';
  for (const part of ranges.split(',')) {
    const [from, to = from] = part.trim().split('-').map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to)) continue;
    // A bound, so "{1-99999999}" in a fence cannot make the build spin.
    for (let n = from!; n <= Math.min(to!, from! + 1000); n++) lines.add(n);
  }
  return { lang, title: title ? (title[1] ?? title[2] ?? title[3]) : undefined, lines };
}

const el = (tagName: string, properties: Element['properties'], children: ElementContent[]): Element => ({ type: 'element', tagName, properties, children });

async function codeBlock(code: Element, opts: { showTitle: boolean }): Promise<Element> {
  const info = fenceInfo(code);
  const source = textOf(code).replace(/\n$/, '');
  const lines = await highlightLines(source, info.lang);
  const children: ElementContent[] = [];
  lines.forEach((line, i) => {
    // Cached lines are shared between pages: wrap, never mutate.
    if (i > 0) children.push({ type: 'text', value: '\n' });
    if (info.lines.has(i + 1)) children.push(el('span', { className: ['line-hl'] }, structuredClone(line)));
    else children.push(...structuredClone(line));
  });
  const preProps: Element['properties'] = { className: ['code'], tabIndex: 0 };
  if (info.lang) preProps.dataLang = info.lang;
  const block: ElementContent[] = [];
  if (opts.showTitle && info.title) block.push(el('div', { className: ['code-title'] }, [{ type: 'text', value: info.title }]));
  block.push(el('pre', { ...preProps, ...(info.title && opts.showTitle ? { ariaLabel: info.title } : {}) }, [el('code', {}, children)]));
  return el('div', { className: ['code-block'] }, block);
}

const fenceCode = (pre: Element): Element | undefined => {
  const code = pre.children.find((c): c is Element => isElement(c, 'code'));
  return code;
};

const paragraphIs = (node: RootContent | ElementContent | undefined, re: RegExp): boolean => isElement(node, 'p') && re.test(textOf(node).trim());

/** Replaces `::: code-group` … `:::` runs in `parent` by the tabs markup. */
function codeGroups(parent: Parent, nextId: () => string): void {
  const kids = parent.children as ElementContent[];
  for (let i = 0; i < kids.length; i++) {
    if (!paragraphIs(kids[i], /^:::\s*code-group$/)) continue;
    const end = kids.findIndex((k, j) => j > i && paragraphIs(k, /^:::$/));
    if (end < 0) continue;
    const pres = kids.slice(i + 1, end).filter((k): k is Element => isElement(k, 'pre'));
    if (pres.length === 0) continue;
    const tabs: Element[] = [];
    const panels: Element[] = [];
    pres.forEach((pre, n) => {
      const code = fenceCode(pre);
      const info = code ? fenceInfo(code) : { lang: undefined, title: undefined };
      const id = nextId();
      const selected = n === 0;
      tabs.push(el('button', { type: 'button', role: 'tab', ariaSelected: String(selected), ariaControls: [id] }, [{ type: 'text', value: info.title ?? info.lang ?? `Tab ${n + 1}` }]));
      panels.push(el('div', { className: ['code-group-panel'], role: 'tabpanel', id, hidden: !selected }, [pre]));
    });
    const group = el('div', { className: ['code-group'], dataCodeGroup: '' }, [el('div', { className: ['code-group-tabs'], role: 'tablist' }, tabs), ...panels]);
    kids.splice(i, end - i + 1, group);
  }
}

function tableRegion(table: Element, heading: string | undefined, used: Map<string, number>): Element {
  const headRow = table.children.find((c): c is Element => isElement(c, 'thead'))?.children.find((c): c is Element => isElement(c, 'tr'));
  const headers = (headRow?.children ?? []).filter((c): c is Element => isElement(c, 'th')).map((th) => textOf(th).trim());
  // Wider tables stack on a phone; the client script labels each cell with its column there.
  if (headers.length > 2) table.properties.className = ['stack'];
  // Landmark names must be unique on the page: the section it sits in, then a number if need be.
  let label = `Table${heading ? ` under “${heading}”` : ''}${headers.length ? `: ${headers.join(', ')}` : ''}`;
  const seen = (used.get(label) ?? 0) + 1;
  used.set(label, seen);
  if (seen > 1) label += ` (${seen})`;
  return el('div', { className: ['table-scroll'], role: 'region', tabIndex: 0, ariaLabel: label }, [table]);
}

export function rehypeReading() {
  return async (tree: Root): Promise<void> => {
    let groups = 0;
    const nextId = () => `code-group-${++groups}`;
    codeGroups(tree, nextId);
    walk(tree, (node) => codeGroups(node, nextId));

    const jobs: Promise<void>[] = [];
    const labels = new Map<string, number>();
    let heading: string | undefined;
    walk(tree, (node, parent) => {
      if (/^h[1-6]$/.test(node.tagName)) heading = textOf(node).trim();
      if (isElement(node, 'table')) {
        parent.children[parent.children.indexOf(node)] = tableRegion(node, heading, labels);
        return;
      }
      if (!isElement(node, 'pre')) return;
      const code = fenceCode(node);
      if (!code) return;
      const inGroup = isElement(parent as ElementContent, 'div') && (parent as Element).properties.role === 'tabpanel';
      jobs.push(
        codeBlock(code, { showTitle: !inGroup }).then((block) => {
          parent.children[parent.children.indexOf(node as never)] = block;
        }),
      );
    });
    await Promise.all(jobs);
  };
}
