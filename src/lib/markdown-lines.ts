// Markdown read line by line, as the build's converters (source-markdown.ts, foreign-mdx.ts)
// read it: where a code fence opens and closes, and setext headings written as ATX ones so
// that every line-based reader after them (titles, headings, twins' sections) finds them.

/** A fence's opening line: its indentation, its marker (three or more backticks or tildes), its info string. */
export const fenceOpen = /^(\s*)(`{3,}|~{3,})(.*)$/;

/** Whether `line` closes a fence opened by `marker` (the same character, at least as many, nothing after it). */
export function closesFence(line: string, marker: string): boolean {
  const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
  return close !== null && close[1]![0] === marker[0] && close[1]!.length >= marker.length;
}

/** A line that starts a block other than a paragraph: a heading, quote, list item, fence, HTML, table row, container or indented code. */
const blockStart = /^(?: {4}|\t| {0,3}(?:#{1,6}(?:\s|$)|>|[-*+](?:\s|$)|\d{1,9}[.)](?:\s|$)|`{3}|~{3}|<|\||:{3}))/;
/** Blocks after which the next line may open a paragraph: an ATX heading and a container's fence end on their line. */
const endsOnItsLine = /^ {0,3}(?:#{1,6}(?:\s|$)|:{3})/;
const setextUnderline = /^ {0,3}(=+|-+)[ \t]*$/;

/**
 * Setext headings (a paragraph underlined with `===` or `---`) written as ATX ones (`# Title`, `## Title`), which is
 * what the line-based readers of the build and the gateway (titles, headings, twins' sections) look for. The page
 * renders the same: CommonMark reads such an underline after a paragraph as a heading, never as a rule. Only a
 * paragraph of the page itself counts: one opened after a blank line, the start, a heading, a container's fence or a
 * closed code fence, not lines that continue a list item, a quote or HTML (`- item` / `  more` / `---` is a list and a
 * rule). A heading's lines after its first and its underline become blank lines, so every later line keeps its number
 * (the link check reports them).
 */
export function atxFromSetext(text: string): string {
  if (!text.includes('==') && !text.includes('--')) return text;
  const lines = text.split('\n');
  let fence: string | null = null;
  let paragraph = -1;
  let mayOpen = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence) {
      if (closesFence(line, fence)) {
        fence = null;
        mayOpen = true;
      }
      continue;
    }
    const open = fenceOpen.exec(line);
    if (open && open[1]!.length <= 3) {
      fence = open[2]!;
      paragraph = -1;
      continue;
    }
    if (line.trim() === '') {
      paragraph = -1;
      mayOpen = true;
      continue;
    }
    const underline = paragraph >= 0 ? setextUnderline.exec(line) : null;
    if (underline) {
      // a run of `#` at its end is text here, but would close an ATX heading: escaped
      const heading = lines.slice(paragraph, i).map((l) => l.trim()).join(' ').replace(/(^|\s)(#+)$/, (_m, space: string, marks: string) => `${space}${'\\#'.repeat(marks.length)}`);
      lines[paragraph] = `${underline[1]![0] === '=' ? '#' : '##'} ${heading}`;
      for (let k = paragraph + 1; k <= i; k++) lines[k] = '';
      paragraph = -1;
      mayOpen = true;
      continue;
    }
    if (blockStart.test(line)) {
      paragraph = -1;
      mayOpen = endsOnItsLine.test(line);
    } else if (paragraph < 0 && mayOpen) paragraph = i;
  }
  return lines.join('\n');
}

/** MkDocs (Material) admonition types, as this site's callout kinds (src/lib/source-markdown.ts calloutKinds). */
const admonitionKinds: Readonly<Record<string, string>> = {
  note: 'note', seealso: 'note', quote: 'note', cite: 'note',
  abstract: 'info', summary: 'info', tldr: 'info', info: 'info', todo: 'info', question: 'info', help: 'info', faq: 'info', example: 'info',
  tip: 'tip', hint: 'tip', success: 'tip', check: 'tip', done: 'tip',
  important: 'important',
  warning: 'warning', attention: 'warning',
  caution: 'caution',
  danger: 'danger', error: 'danger', failure: 'danger', fail: 'danger', missing: 'danger', bug: 'danger',
};

const admonitionOpen = /^( {0,3})(!!!|\?\?\?\+?)[ \t]+([A-Za-z][\w-]*)(?:[ \t]+"([^"]*)")?[ \t]*$/;

/**
 * MkDocs admonitions (`!!! note "Title"`, collapsible `??? note`, their body indented four spaces) written as the
 * containers the converter reads (`::: note Title` … `:::`), so they become callouts and `<details>` boxes instead of
 * a line of text over an indented code block. An admonition holding others gets more colons than they have, as
 * containers close by count. The closing line takes the blank line after the body when there is one, so later lines
 * keep their numbers. Fenced code outside admonitions is left alone.
 */
export function containersFromAdmonitions(text: string): string {
  if (!text.includes('!!!') && !text.includes('???') && !text.includes('===')) return text;
  return admonitions(text.split('\n')).lines.join('\n');
}

function admonitions(lines: readonly string[]): { lines: string[]; colons: number } {
  const out: string[] = [];
  let fence: string | null = null;
  let colons = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      out.push(line);
      continue;
    }
    const open = fenceOpen.exec(line);
    if (open) fence = open[2]!;
    const tab = open || !line.includes('===') ? null : tabOpen.exec(line);
    if (tab) {
      const group = tabGroup(lines, i, tab[1]!, out);
      colons = Math.max(colons, group.colons);
      i = group.end - 1;
      continue;
    }
    const admonition = open ? null : admonitionOpen.exec(line);
    if (!admonition) {
      out.push(line);
      continue;
    }
    const indent = admonition[1]!;
    const end = bodyEnd(lines, i, indent);
    const body = admonitions(dedented(lines.slice(i + 1, end), indent));
    const marker = ':'.repeat(Math.max(3, body.colons + 1));
    colons = Math.max(colons, marker.length);
    const collapsible = admonition[2]!.startsWith('?');
    const type = admonition[3]!.toLowerCase();
    const title = admonition[4] ?? (collapsible ? type.charAt(0).toUpperCase() + type.slice(1) : '');
    out.push(`${indent}${marker} ${collapsible ? 'details' : (admonitionKinds[type] ?? 'note')}${title.trim() ? ` ${title.trim()}` : ''}`, ...body.lines, `${indent}${marker}`);
    // the closing line took the blank line after the body, when there is one
    i = end < lines.length && lines[end]!.trim() === '' ? end : end - 1;
  }
  return { lines: out, colons };
}

/** A tab of MkDocs Material's content tabs: `=== "npm"` (`===!` and `===+` start a group of their own). */
const tabOpen = /^( {0,3})===[!+]?[ \t]+"([^"]*)"[ \t]*$/;

/** The body of the block opened at `start` (indented four spaces more than `indent`): its end, trailing blank lines left out. */
function bodyEnd(lines: readonly string[], start: number, indent: string): number {
  let end = start + 1;
  while (end < lines.length && (lines[end]!.trim() === '' || lines[end]!.startsWith(`${indent}    `) || lines[end]!.startsWith(`${indent}\t`))) end++;
  while (end > start + 1 && lines[end - 1]!.trim() === '') end--;
  return end;
}

/** A body's lines without the block's indentation. */
function dedented(lines: readonly string[], indent: string): string[] {
  return lines.map((l) => (l.trim() === '' ? '' : `${indent}${l.startsWith(`${indent}    `) ? l.slice(indent.length + 4) : l.slice(indent.length + 1)}`));
}

/**
 * Tabs that each hold one fenced code block and nothing else (install commands for npm, pnpm, yarn) as a code group,
 * its fences labelled with the tabs' labels (`sh [npm]`): the page shows real tabs, as the source site does. Undefined
 * for any other tabs.
 */
function codeTabs(tabs: readonly { label: string; body: string[] }[], indent: string): string[] | undefined {
  const fences: string[][] = [];
  for (const t of tabs) {
    const first = t.body.findIndex((l) => l.trim() !== '');
    const last = t.body.findLastIndex((l) => l.trim() !== '');
    const body = first < 0 ? [] : t.body.slice(first, last + 1);
    const open = fenceOpen.exec(body[0] ?? '');
    if (!open || body.length < 2 || !closesFence(body[body.length - 1]!, open[2]!) || body.slice(1, -1).some((l) => closesFence(l, open[2]!))) return undefined;
    if (/[[\]]/.test(t.label)) return undefined;
    fences.push([`${open[1]}${open[2]}${open[3]!.trim() || 'text'} [${t.label}]`, ...body.slice(1)]);
  }
  return [`${indent}::: code-group`, ...fences.flatMap((f) => ['', ...f]), '', `${indent}:::`];
}

/**
 * MkDocs content tabs from `start` on, written as a `::: tabs` container with a `== Label` line before each tab's
 * content (the converter shows each label in bold before its content). The opening line takes a blank line before
 * the group and the closing one a blank line after it, when there are, so later lines keep their numbers. Returns
 * the index after the group and the colons of its container.
 */
function tabGroup(lines: readonly string[], start: number, indent: string, out: string[]): { end: number; colons: number } {
  const tabs: { label: string; body: string[] }[] = [];
  let i = start;
  let colons = 0;
  for (;;) {
    const tab = tabOpen.exec(lines[i] ?? '');
    if (!tab || tab[1] !== indent || (tabs.length > 0 && /^ *===[!+]/.test(lines[i]!))) break;
    const end = bodyEnd(lines, i, indent);
    const body = admonitions(dedented(lines.slice(i + 1, end), indent));
    colons = Math.max(colons, body.colons);
    tabs.push({ label: tab[2]!.trim() || `Tab ${tabs.length + 1}`, body: body.lines });
    // the next tab of the group may follow after blank lines
    let next = end;
    while (next < lines.length && lines[next]!.trim() === '') next++;
    if (!tabOpen.test(lines[next] ?? '')) {
      i = end;
      break;
    }
    tabs[tabs.length - 1]!.body.push(...lines.slice(end, next).map(() => ''));
    i = next;
  }
  const marker = ':'.repeat(Math.max(3, colons + 1));
  const codeGroup = codeTabs(tabs, indent);
  const code = codeGroup !== undefined;
  const group = codeGroup ?? [`${indent}${marker} tabs`, ...tabs.flatMap((t) => [`${indent}== ${t.label}`, ...t.body]), `${indent}${marker}`];
  // a blank line after the group takes the closing line, one before it the opening line
  // (a code group keeps the blank line before it: its twin's first label must not join the paragraph above)
  const after = i < lines.length && lines[i]!.trim() === '' ? i + 1 : i;
  const before = !code && out.length > 0 && out[out.length - 1]!.trim() === '';
  if (before) out.pop();
  let extra = group.length - (after - start) - (before ? 1 : 0);
  // more lines than the group had: blank lines before a label or a fence of the group go first (the converter starts
  // a label's paragraph and a group's blocks itself)
  for (let k = group.length - 2; k > 0 && extra > 0; k--) {
    const next = group[k + 1]!;
    if (group[k]!.trim() === '' && (next.startsWith(`${indent}== `) || (code && fenceOpen.test(next) && /\[[^\]]*\]\s*$/.test(next)))) {
      group.splice(k, 1);
      extra--;
    }
  }
  out.push(...group);
  // fewer: blank lines after it, so that later lines keep their numbers
  for (; extra < 0; extra++) out.push('');
  return { end: after, colons: code ? 3 : marker.length };
}

/** What the converters read other tools' Markdown through, line by line: MkDocs admonitions as containers, setext headings as ATX ones. */
export function lineSyntax(text: string): string {
  return atxFromSetext(containersFromAdmonitions(text));
}
