// The Markdown twin of a page: what /docs/<section>/<page>.md serves and what the
// batch endpoint returns byte for byte. MDX is reduced to plain Markdown: imports
// and exports are dropped, JSX elements give way to their Markdown children.
import { createHash } from 'node:crypto';
import GithubSlugger from 'github-slugger';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { mdxToMdast } from 'satteri';
import type { Root, RootContent, Parent } from 'mdast';
import { TWIN_INDEX_POINTER, atxHeading, fenceTracker, referenceDefinitions } from '../../gateway/engine/markdown-sections.ts';
import { labelKey, inlineText as readerText, smartDashes, unquoted } from '../../gateway/engine/inline-markdown.ts';
import { codeSpan, componentLead, expressionText } from './tool-components.ts';

const mdxProcessor = unified().use(remarkParse).use(remarkMdx).use(remarkGfm).use(remarkStringify, {
  bullet: '-',
  fences: true,
  rule: '-',
});

const jsxElement = new Set(['mdxJsxFlowElement', 'mdxJsxTextElement']);
const dropped = new Set(['mdxjsEsm', 'mdxFlowExpression', 'mdxTextExpression']);
/** Inline content: a flow element written on one line (`<ReadMore>Read [this](/x)</ReadMore>`) holds it directly. */
const phrasing = new Set(['text', 'emphasis', 'strong', 'delete', 'inlineCode', 'link', 'linkReference', 'image', 'imageReference', 'break', 'footnoteReference', 'mdxJsxTextElement']);

/** A flow element's children as blocks: runs of inline content become paragraphs. */
function asBlocks(children: RootContent[]): RootContent[] {
  const out: RootContent[] = [];
  let run: RootContent[] = [];
  const flush = () => {
    if (run.some((c) => c.type !== 'text' || c.value.trim())) out.push({ type: 'paragraph', children: run } as RootContent);
    run = [];
  };
  for (const child of children) {
    if (phrasing.has(child.type)) run.push(child);
    else {
      flush();
      out.push(child);
    }
  }
  flush();
  return out;
}

type JsxElement = Parent & { name: string | null; type: string; attributes?: { type: string; name?: string; value?: unknown }[] };

/** What a component's attributes show (src/lib/tool-components.ts), as Markdown nodes. */
function leadNodes(element: JsxElement): RootContent[] {
  const lead = element.name ? componentLead(element.name, (key) => {
    const value = element.attributes?.find((a) => a.type === 'mdxJsxAttribute' && a.name === key)?.value;
    if (typeof value === 'string') return value;
    const expression = (value as { type?: string; value?: unknown } | undefined)?.type === 'mdxJsxAttributeValueExpression' ? (value as { value: unknown }).value : undefined;
    return typeof expression === 'string' ? expressionText(expression) : undefined;
  }) : undefined;
  if (!lead) return [];
  if ('bold' in lead) return [{ type: 'paragraph', children: [{ type: 'strong', children: [{ type: 'text', value: lead.bold }] }] } as RootContent];
  if ('field' in lead) {
    const { name, type, defaultValue } = lead.field;
    const code = (value: string) => ({ type: 'inlineCode', value });
    const children = [{ type: 'strong', children: [code(name)] }, ...(type ? [{ type: 'text', value: ' ' }, code(type)] : []), ...(defaultValue ? [{ type: 'text', value: ' (default ' }, code(defaultValue), { type: 'text', value: ')' }] : [])];
    return [{ type: 'paragraph', children } as RootContent];
  }
  const { title, href, description } = lead.link;
  const link = { type: 'link', url: href, children: [{ type: 'text', value: title }] };
  return [{ type: 'paragraph', children: description ? [link, { type: 'text', value: `: ${description}` }] : [link] } as RootContent];
}

function flattenJsx(node: Parent): void {
  const out: RootContent[] = [];
  for (const child of node.children as RootContent[]) {
    if (dropped.has(child.type)) continue;
    if (jsxElement.has(child.type)) {
      const element = child as unknown as JsxElement;
      flattenJsx(element);
      // <summary> reads as a bold lead-in once the <details> box is gone.
      if (element.name === 'summary' && element.children.length > 0) {
        out.push({ type: 'paragraph', children: [{ type: 'strong', children: element.children as never }] } as RootContent);
      } else if (element.type === 'mdxJsxFlowElement') {
        out.push(...leadNodes(element), ...asBlocks(element.children as RootContent[]));
      } else {
        out.push(...(element.children as RootContent[]));
      }
      continue;
    }
    if ('children' in child) flattenJsx(child as Parent);
    out.push(child);
  }
  // Dropped expressions leave dangling spaces that remark would escape as &#x20;.
  const last = out[out.length - 1];
  if ((node.type === 'paragraph' || node.type === 'heading') && last?.type === 'text') last.value = last.value.trimEnd();
  node.children = out as never;
}

export function mdxToMarkdown(source: string): string {
  // Parsed by Sätteri, the native parser Astro compiles MDX with: the same tree as
  // remark-mdx gives, ≈3× faster (the performance docs page); printed by remark-stringify.
  const tree = mdxToMdast(source, { features: { gfm: true }, position: false }) as unknown as Root;
  flattenJsx(tree);
  return String(mdxProcessor.stringify(tree));
}

export interface TwinInput {
  title: string;
  description?: string;
  body: string;
  isMdx: boolean;
  /** Absolute URL of the site's llms.txt: a one-line pointer to it follows the title. */
  llmsUrl?: string;
}

function markdownTwin({ title, description, body, isMdx, llmsUrl }: TwinInput): string {
  const text = (isMdx ? mdxToMarkdown(body) : body).trim();
  const head = [`# ${title}`];
  if (description) head.push(`> ${description.replace(/\s*\n\s*/g, ' ')}`);
  if (llmsUrl) head.push(`${TWIN_INDEX_POINTER}${llmsUrl}`);
  return `${head.join('\n\n')}\n\n${text}\n`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export interface Heading {
  depth: number;
  slug: string;
  text: string;
}

/** Headings of the twin (outside code fences), slugged as Astro slugs them. */
const inlineParser = unified().use(remarkParse);

/** Headings longer than this are not parsed (inlineText). */
const PARSED_HEADING_CHARS = 1000;

/** Characters that can start inline Markdown syntax: without any, the text is what the reader sees. */
const inlineSyntax = /[`*_[\]<>!\\&]/;

/**
 * The text a reader sees of inline Markdown (`TRUST_PROXY`, **bold**, [link](x)), as Astro slugs it. With `keepCode`,
 * a code span stays one (a page title taken from its heading: `Using \`Environment\` Instances`, shown with its code
 * as a frontmatter title is, src/lib/title-html.ts).
 */
export function inlineText(source: string, keepCode = false, definitions = ''): string {
  // Most headings are plain words: no parser then (a parse costs ≈2 ms, most of it set-up).
  if (!inlineSyntax.test(source)) return keepCode ? source : smartDashes(source);
  // A heading of more than a line's worth: the gateway's reader, whose time follows the length (the Markdown parser
  // rescans an unclosed `<!--` from each of them, so a line of thousands takes seconds).
  if (source.length > PARSED_HEADING_CHARS) return readerText(source);
  const parts: string[] = [];
  const walk = (node: { type: string; value?: string; children?: unknown[] }) => {
    if (node.type === 'inlineCode' && node.value && keepCode) parts.push(codeSpan(node.value));
    // a heading's text as the renderer's smart punctuation shows it; a title is shown as written (title-html.ts)
    else if (node.type === 'text' && node.value) parts.push(keepCode ? node.value : smartDashes(node.value));
    else if (node.type === 'inlineCode' && node.value) parts.push(node.value);
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  // Parsed as a heading, so "1. Step" stays text instead of becoming a list; with the page's link reference
  // definitions where it may use them (`[RawServer][RawServerGeneric]` reads "RawServer", as on the page).
  const root = inlineParser.parse(definitions && source.includes(']') ? `# ${source}\n\n${definitions}` : `# ${source}`);
  if (root.children[0]) walk(root.children[0] as never);
  return parts.join('');
}

/** The labels a heading may use as reference links: the text of each bracket pair. */
const bracketText = /\[([^[\]\n]+)\]/g;

/** A list item's marker before an ATX heading: the heading is the item's first block. */
const LIST_ITEM_HEADING = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?=#{1,6}(?:[ \t]|$))/;

function headingsOf(markdown: string): Heading[] {
  const slugger = new GithubSlugger();
  const found: { depth: number; source: string }[] = [];
  const lines = markdown.split('\n');
  // the page's reference definitions outside code, by label: a heading is parsed with the ones it uses
  const definitions = referenceDefinitions(lines);
  let titleSeen = false;
  const fence = fenceTracker();
  for (const quoted of lines) {
    // a heading inside a callout (a block quote here) is a heading of the HTML page too
    const line = unquoted(quoted);
    const inCode = fence.open();
    fence.read(line);
    if (inCode || fence.open()) continue;
    // so is one that opens a list item (`- ###### set-cookie`)
    const heading = atxHeading(line.includes('#') ? line.replace(LIST_ITEM_HEADING, '') : line);
    if (!heading) continue;
    // the twin's first `# ` line is its title (the layout's <h1>, no id of the page's); a later one is a heading of the page
    if (heading.depth === 1 && !titleSeen) {
      titleSeen = true;
      continue;
    }
    found.push({ depth: heading.depth, source: heading.text });
  }
  return found.map(({ depth, source }) => {
    const used = definitions.size && source.includes(']') ? [...new Set(Array.from(source.matchAll(bracketText), (m) => definitions.get(labelKey(m[1]!))))].filter(Boolean) : [];
    const text = inlineText(source, false, used.join('\n'));
    return { depth, slug: slugger.slug(text), text };
  });
}

/** A page's twin with what the build manifest records about it: its hash and headings. */
export interface PageTwin {
  /** What the page's `.md` URL serves, byte for byte. */
  markdown: string;
  /** `sha256-<hex>` of the twin's bytes. */
  hash: string;
  headings: Heading[];
}

export function pageTwin(input: TwinInput): PageTwin {
  const markdown = markdownTwin(input);
  return { markdown, hash: `sha256-${sha256(markdown)}`, headings: headingsOf(markdown) };
}
