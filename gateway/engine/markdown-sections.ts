/**
 * A page's Markdown twin cut into sections (one per heading, with the heading's anchor as the site slugs it) and each
 * section into blocks (paragraph, list, code fence, table, quote), so an answer can quote whole blocks: a code block
 * keeps its fence and language, a list stays a list.
 *
 * Built for the twins the build writes (CommonMark + GFM, `# Title` first, `> description` after it). A line scan, not
 * a full Markdown parser: fences are tracked exactly (the only construct whose inside must never be re-read), other
 * blocks are split at blank lines, and a list keeps its items together across blank lines while the next line is
 * still an item or indented under one. Anchors use github-slugger on the heading's visible text, as the build does.
 * It also tells what a block is to an answer: the page's description, a label (a tab's or a callout's name), a lead-in
 * announcing the next block, an option's list of fields (Type, Default).
 */
import GithubSlugger from 'github-slugger';
import { type LabelDefined, definitionAt, inlineText, labelKey, unquoted } from './inline-markdown.ts';

export type BlockKind = 'paragraph' | 'list' | 'code' | 'table' | 'quote' | 'html';

export interface Block {
  kind: BlockKind;
  /** The block's Markdown, as in the twin (a code block with its fences). */
  markdown: string;
  /** Language of a code block's fence ('' when none). */
  lang?: string;
  /** The page's description, quoted under the title of a twin: it counts for its section, quoted only when nothing else is. */
  description?: boolean;
}

export interface Section {
  /** Heading text as readers see it; '' for the text before the first heading. */
  heading: string;
  depth: number;
  /** Slug of the heading ('' for the intro). */
  anchor: string;
  blocks: Block[];
}

/**
 * A paragraph that only labels the block after it: a bold name, with a code span and a default after it, as the build
 * writes another tool's tabs, callouts and reference fields (`**npm**`, `**Note**`, `` **`--tag`** `string` ``).
 */
const LABEL_PARAGRAPH = /^\*\*[^*\n]{1,120}\*\*(?: `[^`\n]{1,80}`)?(?: \(default `[^`\n]{1,80}`\))?$/;
export function isLabel(block: Block): boolean {
  return block.kind === 'paragraph' && LABEL_PARAGRAPH.test(block.markdown);
}

/** A paragraph or list that announces the block after it ("Or `async/await`:", "1. Example with a fake `class`:"). */
export function isLeadIn(block: Block): boolean {
  return (block.kind === 'paragraph' || block.kind === 'list') && /:\s*$/.test(block.markdown);
}

/** A block that says nothing without the one after it (a label or a lead-in): a passage does not end on it. */
export function announcesNext(block: Block): boolean {
  return isLabel(block) || isLeadIn(block);
}

const LIST_ITEM_LINE = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;
/** A field of an option: `- **Type:** boolean` (VitePress), or a usual field's name written plain (npm's `* Default: null`). */
const FIELD_ITEM_LINE = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\*\*[^*\n]+:\*\*|(?:Type|Default|Required|Since|Aliases?|Environment variable|CLI):\s)/;
/** An item that is a bold word alone: a flag among an option's fields (`- **Deprecated**`, `- **Experimental**`). */
const FLAG_ITEM_LINE = /^\s*(?:[-*+]|\d{1,9}[.)])\s+\*\*[^*\n]+\*\*\s*$/;

/**
 * A list of `**Label:** value` (or `Type: value`) fields, and perhaps flags: the Type, Default and CLI lines (and a
 * Deprecated) that open an option's section.
 */
export function isFieldList(block: Block): boolean {
  if (block.kind !== 'list') return false;
  const items = block.markdown.split('\n').filter((line) => LIST_ITEM_LINE.test(line));
  return items.some((line) => FIELD_ITEM_LINE.test(line)) && items.every((line) => FIELD_ITEM_LINE.test(line) || FLAG_ITEM_LINE.test(line));
}

/**
 * The line a twin carries after its title: a pointer to llms.txt for an agent that landed on one page
 * (src/lib/markdown-twin.ts writes it). Not the page's content: a section does not hold it.
 */
export const TWIN_INDEX_POINTER = 'Index of every page of this site, as Markdown: ';

/**
 * What a page says where a code include's file is missing (`<<< ./x.ts`, src/lib/source-markdown.ts writes it): the
 * build's note to the reader, not the page's content, so a section does not hold it either.
 */
export function missingCodeNote(path: string): string {
  return `*Code from \`${path}\` is not in the content folder.*`;
}
/** A line that is only that note, wherever it stands: at the margin, in a quote (a callout), indented in a list item. */
const MISSING_CODE_NOTE = ((): RegExp => {
  const [before, after] = missingCodeNote('\u0000').split('\u0000').map((part) => part!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^[ \\t>]*${before}.*${after}$`);
})();

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** The marker and info string of the fence `line` opens (a backtick fence's info string holds no backtick), else undefined. */
function fenceOpening(line: string): { marker: string; info: string } | undefined {
  const open = FENCE.exec(line);
  return open && !(open[1]![0] === '`' && open[2]!.includes('`')) ? { marker: open[1]!, info: open[2]! } : undefined;
}

/** Whether `line` closes the fence `marker` opened: a run of its character at least as long, and nothing after it. */
function closesFence(marker: string, line: string): boolean {
  const close = FENCE.exec(line);
  return !!close && close[1]!.startsWith(marker) && close[2]!.trim() === '';
}

/**
 * Whether the lines read so far leave a code fence open, whatever their indentation (lines of a list item or a quote's
 * inside): for cutting a block between lines, never inside its code.
 */
export function fenceTracker(): { open: () => boolean; read: (line: string) => void } {
  let marker: string | undefined;
  return {
    open: () => marker !== undefined,
    read: (line) => {
      const bare = line.trimStart();
      if (marker === undefined) marker = fenceOpening(bare)?.marker;
      else if (closesFence(marker, bare)) marker = undefined;
    },
  };
}

const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])\s/;

/**
 * An ATX heading line (`## Text`, up to three spaces before it): its depth and text, without the closing `#`s
 * CommonMark allows after a space (`## Text ##`); `C#` keeps its `#`. A scan rather than the usual lazy pattern
 * (`(.+?)\s*#*\s*$`), which rescans a long run of spaces from each of its positions, and reads `C#` as `C`.
 */
export function atxHeading(line: string): { depth: number; text: string } | undefined {
  let start = 0;
  while (start < 3 && line[start] === ' ') start++;
  let depth = 0;
  while (depth < 7 && line[start + depth] === '#') depth++;
  const after = line.slice(start + depth);
  if (depth === 0 || depth > 6 || !/^\s/.test(after)) return undefined;
  const text = after.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  const closed = end > 0 && end < text.length && /\s/.test(text[end - 1]!);
  return text ? { depth, text: closed ? text.slice(0, end).trimEnd() : text } : undefined;
}

/**
 * The link reference definitions a page makes outside code (inside block quotes too), by label (labelKey): each
 * definition's lines without their quote markers, the first of a label kept. The gateway reads which labels are
 * defined (the text of a heading's `[text][label]`, inlineText); the build parses a heading with the ones it uses.
 */
export function referenceDefinitions(lines: readonly string[]): Map<string, string> {
  const definitions = new Map<string, string>();
  const fence = fenceTracker();
  for (let i = 0; i < lines.length; i++) {
    const definition = fence.open() ? undefined : definitionAt(lines, i);
    fence.read(unquoted(lines[i]!));
    if (!definition) continue;
    const key = labelKey(definition.label);
    if (!definitions.has(key)) definitions.set(key, lines.slice(i, i + definition.lines).map(unquoted).join('\n'));
  }
  return definitions;
}

function kindOf(firstLine: string): BlockKind {
  if (LIST_ITEM.test(firstLine)) return 'list';
  if (/^ {0,3}>/.test(firstLine)) return 'quote';
  if (/^ {0,3}\|/.test(firstLine)) return 'table';
  if (/^ {0,3}<[a-zA-Z/!]/.test(firstLine)) return 'html';
  return 'paragraph';
}

/**
 * Sections of a Markdown twin. The page's `# Title` line is dropped (the title is known), and so are the twin's pointer
 * to llms.txt in the intro (TWIN_INDEX_POINTER) and the build's notes of missing code (missingCodeNote); the rest is
 * kept, the description quoted before the pointer marked as such.
 */
export function markdownSections(markdown: string): Section[] {
  const slugger = new GithubSlugger();
  const sections: Section[] = [{ heading: '', depth: 1, anchor: '', blocks: [] }];
  let lines: string[] = [];
  let fence: { marker: string; lang: string; lines: string[] } | null = null;
  let titleSeen = false;

  const current = () => sections[sections.length - 1]!;
  const flush = () => {
    if (lines.some((line) => MISSING_CODE_NOTE.test(line))) lines = lines.filter((line) => !MISSING_CODE_NOTE.test(line));
    // trailing blank lines, and quote lines left empty by a note taken out of a callout
    while (lines.length && /^[ \t>]*$/.test(lines[lines.length - 1]!)) lines.pop();
    const pointer = sections.length === 1 && lines.length === 1 && lines[0]!.startsWith(TWIN_INDEX_POINTER);
    if (lines.length && !pointer) current().blocks.push({ kind: kindOf(lines[0]!), markdown: lines.join('\n') });
    // the twin writes the description as the one quote between the title and the pointer
    const intro = sections[0]!.blocks;
    if (pointer && intro.length === 1 && intro[0]!.kind === 'quote') intro[0]!.description = true;
    lines = [];
  };

  const all = markdown.replace(/\r\n?/g, '\n').replace(/^---\n[\s\S]*?\n---\n/, '').split('\n');
  const definitions = referenceDefinitions(all);
  const defined: LabelDefined = (label) => definitions.has(label);
  for (let i = 0; i < all.length; i++) {
    const line = all[i]!;
    if (fence) {
      fence.lines.push(line);
      if (closesFence(fence.marker, line)) {
        current().blocks.push({ kind: 'code', markdown: fence.lines.join('\n'), lang: fence.lang });
        fence = null;
      }
      continue;
    }
    const opening = fenceOpening(line);
    if (opening !== undefined) {
      const { marker, info } = opening;
      // a fence inside a list item stays part of the list
      if (lines.length && current() && kindOf(lines[0]!) === 'list' && /^\s+/.test(line)) {
        lines.push(line);
        const indent = /^\s*/.exec(line)![0];
        for (i++; i < all.length; i++) {
          lines.push(all[i]!);
          if (closesFence(marker, all[i]!.slice(Math.min(indent.length, /^\s*/.exec(all[i]!)![0].length)))) break;
        }
        continue;
      }
      flush();
      fence = { marker, lang: info.trim().split(/[\s{[]/)[0] ?? '', lines: [line] };
      continue;
    }
    const heading = atxHeading(line);
    if (heading) {
      flush();
      const { depth } = heading;
      if (depth === 1 && !titleSeen) {
        titleSeen = true;
        continue;
      }
      // the anchor from the text as the renderer has it (a space a trailing tag leaves included), shown trimmed
      const text = inlineText(heading.text, defined);
      sections.push({ heading: text.trim(), depth, anchor: slugger.slug(text), blocks: [] });
      continue;
    }
    if (line.trim() === '') {
      // a list continues over a blank line when the next line is an item or indented under one
      const next = all[i + 1] ?? '';
      if (lines.length && kindOf(lines[0]!) === 'list' && (LIST_ITEM.test(next) || /^\s{2,}\S/.test(next))) {
        lines.push(line);
        continue;
      }
      flush();
      continue;
    }
    // a new kind of block right after another without a blank line (a list after its lead-in paragraph)
    if (lines.length && kindOf(lines[0]!) === 'paragraph' && LIST_ITEM.test(line)) flush();
    lines.push(line);
  }
  if (fence) current().blocks.push({ kind: 'code', markdown: [...fence.lines, fence.marker].join('\n'), lang: fence.lang });
  flush();
  return sections.filter((s) => s.blocks.length > 0 || s.heading !== '');
}
