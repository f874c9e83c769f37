// What other docs tools write in Markdown, brought to what this site renders: one
// line-by-line pass over a page's source, used for both outputs so they agree.
// - `html` mode feeds the Markdown processor (src/lib/docs-loader.ts): containers and
//   GitHub alerts become callouts written as raw HTML around the Markdown inside them
//   (blank lines keep that Markdown parsed as Markdown); `::: code-group` stays for the
//   reading plugin (src/markdown/reading-plugin.ts), which renders the tabs.
// - `twin` mode gives the Markdown twin: callouts become block quotes with a bold
//   label, a code group becomes plain fenced blocks each after its bold label.
// Both modes: links go through the caller (rewritten to the new URLs), code includes
// (`<<< ./x.ts`, `<!--@include: ./x.md-->`) are read from the tree, `<script>` and
// `<style>` blocks are dropped, components become their text or our badge, and each
// kind of conversion is counted for the build's one-line-per-kind warnings.
// Lines inside fenced code are never touched, except in a `twoslash` sample: it loses the
// set-up lines and annotations its page hides (`// ---cut---`, `// @errors`, `// ^?`).
import { existsSync, statSync } from 'node:fs';
import { extname, posix, relative, resolve } from 'node:path';
import { authoredId, authoredIdLine, withoutAuthoredId } from '../markdown/heading-ids.ts';
import { TAG_EXPRESSION, TAG_VALUE, componentLead, expressionText, leadMarkdown } from './tool-components.ts';
import { closesFence, fenceOpen, lineSyntax } from './markdown-lines.ts';
import { escapeHtml, titleHtml } from './title-html.ts';
import { fileStamp, insideTree, readContentFile } from './content-links.ts';
import { linesOf } from './foreign-mdx.ts';
import { atxHeading, missingCodeNote } from '../../gateway/engine/markdown-sections.ts';

export type SourceMode = 'html' | 'twin';

export interface SourceContext {
  mode: SourceMode;
  contentDir: string;
  /** Rewrites a link target written in `file` at `line`. */
  link(target: string, file: string, line: number): string;
  /** Counts one conversion of a kind (a build warning names each kind once). */
  note(kind: string): void;
}

export const calloutKinds: Readonly<Record<string, string>> = {
  tip: 'Tip',
  info: 'Info',
  note: 'Note',
  important: 'Important',
  warning: 'Warning',
  caution: 'Caution',
  danger: 'Danger',
  details: 'Details',
};

// `\[` too: a Starlight title as an MDX page's twin prints it (`:::note\[Title]`)
const containerOpen = /^(\s*)(:{3,})\s*([A-Za-z][\w-]*)(?:\\?\[([^\]]*)\])?\s*(.*?)\s*$/;
const containerClose = /^\s*:{3,}\s*$/;
const codeInclude = /^(\s*)<<<\s+([^\s{]+)(?:\{([^}]*)\})?(?:\s+\[([^\]]*)\])?\s*$/;
const markdownInclude = /^\s*<!--\s*@include:\s*(.+?)\s*-->\s*$/;
/** An included file's text without its frontmatter (Markdown includes and MDX partials alike). */
const withoutFrontmatter = (text: string): string => text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
/** `import Flags from '/snippets/flags.mdx'`: an MDX partial (SourceConverter.withPartials). */
const partialImport = /^import\s+([A-Za-z_$][\w$]*)\s+from\s*(['"])([^'"]+\.mdx?)\2/;
/** A line that is only a self-closing component: `<Flags />`. */
const selfClosingUse = /^\s*<([A-Za-z_$][\w$]*)\s*\/>\s*$/;
const githubAlert = /^(\s*)>\s*\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$/i;
const blockTag = /^\s*<(script|style)\b/i;
const htmlBlockStart = /^\s{0,3}<[a-z][\w-]*[\s>]/;
/** A Vue directive in an HTML tag (`v-for="…"`, `:href="…"`, `@click="…"`): the tag renders the source tool's data. */
const vueDirective = /<[a-z][\w-]*\s(?:[^<>"']|"[^"]*"|'[^']*')*?\s(?:v-(?:if|else-if|else|for|show|html|text|model|bind|on)\b|[:@][a-zA-Z][\w.-]*=)/;
const componentTag = new RegExp(String.raw`<\/?([A-Z][A-Za-z0-9]*)\b((?:[^<>"'{}]|${TAG_VALUE})*?)(\/?)>`, 'g');
/** A line that is only one component's tag. */
const wholeComponentTag = new RegExp(String.raw`^\s*<\/?[A-Z][A-Za-z0-9]*\b(?:[^<>"'{}]|${TAG_VALUE})*>\s*$`);
const badgeComponents = new Set(['Badge', 'Version', 'Experimental', 'Deprecated']);
/**
 * Containers (callouts, code groups, GitHub alerts) nested deeper than this stay text: each level quotes or wraps every
 * line inside it, so a page of a few thousand nested openings would grow quadratically, past what a string can hold.
 */
const MAX_NESTING = 32;

/** A fence's info string that asks for twoslash (`ts twoslash [vite.config.ts]`), and the word with its space. */
const twoslashInfo = /(^|\s)twoslash(?=\s|$)\s*/;
const twoslashCut = /^\s*\/\/\s*---cut(?:-before)?---\s*$/;
const twoslashCutAfter = /^\s*\/\/\s*---cut-after---\s*$/;
/** `// @noErrors`, `// @errors: 2339`, `// @filename: a.ts`, compiler options: one word; `// @ts-expect-error` and `// @vitest-environment` are the sample's own code. */
const twoslashOption = /^\s*\/\/\s*@[A-Za-z]+(?::.*)?$/;
/** `// ^?` (show the type), `// ^|` (completions), `// ^^^` (highlight). */
const twoslashMarker = /^\s*\/\/\s*\^+[?|]?(?:\s.*)?$/;

/**
 * A twoslash sample as its page shows it (VitePress type-checks these at build time and hides the set-up): the lines
 * up to the last `// ---cut---` and from `// ---cut-after---` dropped, with the option and marker lines.
 */
function twoslashSample(lines: readonly string[]): string[] {
  let start = 0;
  lines.forEach((line, k) => {
    if (twoslashCut.test(line)) start = k + 1;
  });
  let end = lines.findIndex((line, k) => k >= start && twoslashCutAfter.test(line));
  if (end < 0) end = lines.length;
  return lines.slice(start, end).filter((line) => !twoslashOption.test(line) && !twoslashMarker.test(line));
}

/** The index of the line that closes the fence opened at `start` by `marker`, or lines.length when none does. */
function closingFence(lines: readonly string[], start: number, marker: string): number {
  for (let k = start + 1; k < lines.length; k++) if (closesFence(lines[k]!, marker)) return k;
  return lines.length;
}

/**
 * Whether `text` holds a template expression, `{{` … `}}` with no `}` between (VitePress's Vue interpolation). A scan
 * from one `}` to the next, in linear time: the regular expression `\{\{[^}]*\}\}` backtracks over a long run of
 * braces in quadratic time.
 */
function hasTemplateExpression(text: string): boolean {
  let from = 0;
  for (let close = text.indexOf('}'); close !== -1; close = text.indexOf('}', close + 1)) {
    if (text[close + 1] === '}' && text.slice(from, close).includes('{{')) return true;
    from = close + 1;
  }
  return false;
}

/** A line without its whole MDX comments (`{/* … *\/}`), in linear time: a lazy pattern rescans the line from every `{/*`. */
function withoutMdxComments(line: string): string {
  let out = '';
  let from = 0;
  for (let open = line.indexOf('{/*'); open !== -1; open = line.indexOf('{/*', from)) {
    const close = line.indexOf('*/}', open + 3);
    if (close === -1) break;
    out += line.slice(from, open);
    from = close + 3;
  }
  return out + line.slice(from);
}

/** An `export const|let|var|function` line that ends its statement: something follows the keyword, and it does not end in `{ , ( [`. */
function isWholeDeclaration(line: string): boolean {
  const keyword = /^export\s+(?:const|let|var|function)\b/.exec(line);
  if (!keyword) return false;
  const rest = line.slice(keyword[0].length).trimEnd();
  return rest.length > 0 && !'{,(['.includes(rest.at(-1)!);
}

/** The colons of a container's opening or closing line. */
function colonCount(line: string): number {
  return /^\s*(:*)/.exec(line)![1]!.length;
}

function attribute(attrs: string, name: string): string | undefined {
  const m = new RegExp(String.raw`(?:^|\s)${name}=(?:"([^"]*)"|'([^']*)'|(${TAG_EXPRESSION}))`).exec(attrs);
  return m ? m[1] ?? m[2] ?? expressionText(m[3]!.slice(1, -1)) : undefined;
}

/** The lines a `#region name` … `#endregion name` pair encloses (VitePress region includes). */
function region(text: string, name: string): string | undefined {
  const lines = text.split('\n');
  // the name as written, never as a pattern: `<<< ./x.ts#a(` names no region rather than failing the build
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const opening = new RegExp(`#region\\s+${escaped}\\b`);
  const closing = new RegExp(`#endregion\\s+${escaped}\\b`);
  const start = lines.findIndex((l) => opening.test(l));
  if (start === -1) return undefined;
  const end = lines.findIndex((l, i) => i > start && closing.test(l));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** A leading `# Heading` line (the page's title in most docs tools) and the text without it. */
export function takeLeadingHeading(text: string): { heading?: string; rest: string } {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const heading = atxHeading(lines[first] ?? '');
  if (heading?.depth !== 1) return { rest: text };
  lines[first] = '';
  return { heading: withoutAuthoredId(heading.text), rest: lines.join('\n') };
}

/** A badge component with its content, for String.split (odd parts are badges): `<Version>4.1</Version>`, `<Experimental />`. */
const badgeNames = [...badgeComponents].join('|');
const badgeSplit = new RegExp(`(<(?:${badgeNames})\\b(?:[^<>"']|"[^"]*"|'[^']*')*?(?:/>|>[^<]*</(?:${badgeNames})\\s*>))`);

/** A page title without its badges (`# Custom Pool <Badge type="danger">advanced</Badge>`): they mark the page, not name it. */
export function withoutBadges(title: string): string {
  return title.includes('<') ? title.split(badgeSplit).filter((_, k) => k % 2 === 0).join('') : title;
}

/**
 * The HTML page keeps an id the author gave after a heading or alone on a line (`{#options}`, its braces as character
 * references so MDX reads it as text): the reading plugin turns it into an anchor beside the id the heading gets from
 * its text, so the author's links to it land there (src/markdown/reading-plugin.ts). The twin drops it.
 */
function anchorMarker(text: string, mode: 'html' | 'twin'): string {
  const id = authoredId.exec(text)?.[1];
  return mode === 'html' && id ? ` &#123;#${id}&#125;` : '';
}

export class SourceConverter {
  private readonly ctx: SourceContext;
  /** The files of the tree this converter has read (includes), relative to the content dir, each with its stamp (fileStamp) from just before it was read. */
  readonly read: Map<string, string> = new Map();
  constructor(ctx: SourceContext) {
    this.ctx = ctx;
  }

  /** A file inside the content dir, or undefined (never reads outside the tree). */
  private readFile(fromFile: string, path: string): { file: string; text: string } | undefined {
    const file = path.startsWith('@/') ? posix.normalize(path.slice(2)) : posix.join(posix.dirname(fromFile), path);
    const abs = resolve(this.ctx.contentDir, file);
    if (relative(this.ctx.contentDir, abs).startsWith('..') || !existsSync(abs) || !statSync(abs).isFile() || !insideTree(this.ctx.contentDir, abs)) return undefined;
    const found = relative(this.ctx.contentDir, abs).split('\\').join('/');
    this.read.set(found, fileStamp(this.ctx.contentDir, found));
    return { file: found, text: readContentFile(abs) };
  }

  /**
   * An MDX page of another tool with its partials inlined: a line that is only `<Name />`, where the page imports Name
   * from a Markdown or MDX file of the tree (Mintlify's `import Flags from '/snippets/flags.mdx'`, a root-relative path
   * being the content folder's; Docusaurus's `./_flags.mdx`), gives way to that file's text without its frontmatter,
   * its own partials inlined too (five deep at most). The text is the page's from then on: its links are read as the
   * page's. Code fences are passed over.
   */
  withPartials(source: string, file: string, depth = 0): string {
    if (!source.includes('import') || depth >= 5) return source;
    const lines = [...linesOf(source)];
    const partials = new Map<string, string>();
    for (const [line, prose] of lines) {
      const partial = prose && line.startsWith('import') ? partialImport.exec(line) : null;
      if (partial) partials.set(partial[1]!, partial[3]!);
    }
    if (partials.size === 0) return source;
    return lines
      .map(([line, prose]) => {
        const path = prose && line.includes('/>') ? partials.get(selfClosingUse.exec(line)?.[1] ?? '') : undefined;
        if (path === undefined) return line;
        const found = this.readFile(file, path.startsWith('/') ? `@${path}` : path);
        this.ctx.note(found ? 'MDX partials inlined' : 'MDX partials not found (left out)');
        return found ? this.withPartials(withoutFrontmatter(found.text), found.file, depth + 1) : '';
      })
      .join('\n');
  }

  /**
   * Converts one page body (`file` relative to the content dir; `firstLine` numbers its first line; `depth` counts the
   * Markdown includes it sits in, `nesting` the containers).
   */
  convert(body: string, file: string, firstLine = 1, depth = 0, nesting = 0): string {
    const { mode } = this.ctx;
    const out: string[] = [];
    // twin mode: the open callouts, each adding "> " to the lines inside it
    const quotes: string[] = [];
    // each open container: its closing tag in html mode ('' for plain ones), whether it quotes in twin mode, and how
    // many colons opened it. As markdown-it-container (VitePress) reads them, containers do not nest by count: a line of
    // only colons closes the first container still open that has at most as many, and every container opened inside
    // it with it (`::: warning` … `::: code-group` … `:::` closes both); an outer container nests with more colons.
    const closers: { tag: string; quote: boolean; markers: number }[] = [];
    /** The open container a line of `markers` colons closes (its index in closers), or -1. */
    const closedBy = (markers: number) => closers.findIndex((c) => c.markers <= markers);
    let fence: string | null = null;
    let skipUntil: RegExp | null = null;
    let inTag = false;
    const lines = body.split('\n');

    const emit = (line: string) => {
      if (quotes.length === 0) return void out.push(line);
      const indent = quotes[0]!;
      const rest = line.startsWith(indent) ? line.slice(indent.length) : line.trimStart();
      out.push(`${indent}${'> '.repeat(quotes.length)}${rest}`.trimEnd());
    };

    // an MDX page of another tool, read as Markdown (src/lib/foreign-mdx.ts): its ESM lines and comments go
    const mdx = mode === 'html' && depth === 0 && file.endsWith('.mdx');
    let statement = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const lineNo = firstLine + i;
      if (statement && !line.trim()) statement = false; // MDX ends an ESM block at a blank line
      if (mdx && !fence && (statement || /^(?:import|export)\b/.test(line))) {
        // a statement continues until its specifier (`from '…'`, `import '…'`) or a `;`
        statement = !/(?:\bfrom\s*|^import\s*)(['"])[^'"]*\1|;\s*$/.test(line) && !isWholeDeclaration(line);
        continue;
      }
      if (mdx && !fence && line.includes('{/*')) {
        const rest = withoutMdxComments(line);
        if (rest.includes('{/*')) {
          skipUntil = /\*\/\}/;
          if (rest.slice(0, rest.indexOf('{/*')).trim()) emit(this.inline(rest.slice(0, rest.indexOf('{/*')), file, lineNo));
          continue;
        }
        if (!rest.trim()) continue;
        lines[i] = rest;
        i--;
        continue;
      }
      if (fence) {
        emit(line);
        if (closesFence(line, fence)) fence = null;
        continue;
      }
      if (skipUntil) {
        if (skipUntil.test(line)) skipUntil = null;
        continue;
      }
      if (inTag) {
        // the rest of a component's opening tag spread over several lines
        if (/>\s*$/.test(line)) inTag = false;
        continue;
      }
      // Cheap substring checks first: most lines are prose and match none of the patterns below.
      const hasTag = line.includes('<');
      const block = hasTag ? blockTag.exec(line) : null;
      if (block) {
        const name = block[1]!.toLowerCase();
        this.ctx.note(`<${name}> blocks dropped (they belong to the source tool)`);
        const end = new RegExp(`</${name}\\s*>`, 'i');
        if (!end.test(line)) skipUntil = end;
        continue;
      }
      if (hasTag && htmlBlockStart.test(line) && (i === 0 || !lines[i - 1]!.trim())) {
        let end = i;
        while (end < lines.length && lines[end]!.trim()) end++;
        if (lines.slice(i, end).some((l) => (l.includes('v-') || l.includes(':') || l.includes('@')) && vueDirective.test(l))) {
          this.ctx.note('HTML blocks with Vue directives dropped (they render the source tool\'s data)');
          i = end - 1;
          continue;
        }
      }
      const open = line.includes('``') || line.includes('~~') ? fenceOpen.exec(line) : null;
      if (open && twoslashInfo.test(open[3]!)) {
        const close = closingFence(lines, i, open[2]!);
        emit(`${open[1]}${open[2]}${open[3]!.replace(twoslashInfo, '$1').trimEnd()}`);
        for (const l of twoslashSample(lines.slice(i + 1, close))) emit(l);
        if (close < lines.length) emit(lines[close]!);
        this.ctx.note('twoslash annotations dropped (cut lines, compiler options, query markers)');
        i = close;
        continue;
      }
      if (open) {
        fence = open[2]!;
        emit(line);
        continue;
      }
      const include = hasTag && line.includes('<<<') ? codeInclude.exec(line) : null;
      if (include) {
        for (const l of this.codeInclude(file, include)) emit(l);
        continue;
      }
      const mdInclude = hasTag && line.includes('@include') ? markdownInclude.exec(line) : null;
      if (mdInclude) {
        const found = depth < 5 ? this.readFile(file, mdInclude[1]!.replace(/\{[^}]*\}$/, '')) : undefined;
        this.ctx.note(found ? 'Markdown includes inlined' : 'Markdown includes not found (left out)');
        if (found) {
          const text = lineSyntax(withoutFrontmatter(found.text));
          for (const l of this.convert(text, found.file, 1, depth + 1).split('\n')) emit(l);
        }
        continue;
      }
      const colons = line.includes(':::');
      const container = colons ? containerOpen.exec(line) : null;
      if (container && nesting + closers.length >= MAX_NESTING) {
        this.ctx.note(`containers nested more than ${MAX_NESTING} deep kept as text`);
        emit(line);
        continue;
      }
      if (container) {
        const indent = container[1]!;
        const kind = container[3]!.toLowerCase();
        const written = (container[4] ?? container[5] ?? '').trim();
        const title = withoutAuthoredId(written);
        const anchorId = authoredId.exec(written)?.[1];
        const anchor = anchorId ? ` id="${anchorId}"` : '';
        if (kind === 'code-group') {
          const end = this.closingLine(lines, i, container[2]!.length);
          const inner = this.convert(lines.slice(i + 1, end).join('\n'), file, lineNo + 1, depth, nesting + closers.length + 1);
          for (const l of this.codeGroup(inner, indent)) emit(l);
          // the line that ends the group also closes a container it sits in: left for that container
          i = end < lines.length && closedBy(colonCount(lines[end]!)) >= 0 ? end - 1 : end;
          continue;
        }
        if (!(kind in calloutKinds)) {
          this.ctx.note(`::: ${kind} containers shown as plain content`);
          closers.push({ tag: '', quote: false, markers: container[2]!.length });
          continue;
        }
        const label = title && title.toLowerCase() !== kind ? title : calloutKinds[kind]!;
        if (mode === 'html') {
          const details = kind === 'details';
          out.push('', details ? `${indent}<details class="callout callout-details">` : `${indent}<div class="callout callout-${kind}" role="note">`);
          // a badge in the title (`::: warning WARNING <Version>3.2.0</Version>`) shows as one, as in a heading
          const html = label.split(badgeSplit).map((part, k) => (k % 2 ? this.text(part, file, lineNo) : titleHtml(part))).join('');
          out.push(details ? `${indent}<summary${anchor}>${html}</summary>` : `${indent}<p class="callout-title"${anchor}>${html}</p>`, '');
          closers.push({ tag: details ? '</details>' : '</div>', quote: false, markers: container[2]!.length });
        } else {
          emit('');
          quotes.push(indent);
          closers.push({ tag: '', quote: true, markers: container[2]!.length });
          emit(`${indent}**${this.inline(label, file, lineNo)}**`);
          emit(indent);
        }
        continue;
      }
      const closes = colons && closers.length > 0 && containerClose.test(line) ? closedBy(colonCount(line)) : -1;
      if (closes >= 0) {
        while (closers.length > closes) {
          const closer = closers.pop()!;
          if (mode === 'html') out.push('', closer.tag ? `${indentOf(line)}${closer.tag}` : '', '');
          else {
            if (closer.quote) quotes.pop();
            emit('');
          }
        }
        continue;
      }
      const alert = mode === 'html' && line.includes('[!') && nesting + closers.length < MAX_NESTING ? githubAlert.exec(line) : null;
      if (alert) {
        const indent = alert[1]!;
        let end = i + 1;
        while (end < lines.length && lines[end]!.startsWith(`${indent}>`)) end++;
        const inner = lines.slice(i + 1, end).map((l) => l.slice(indent.length).replace(/^> ?/, ''));
        const kind = alert[2]!.toLowerCase();
        out.push('', `${indent}<div class="callout callout-${kind}" role="note">`, `${indent}<p class="callout-title">${calloutKinds[kind]}</p>`, '');
        out.push(...this.convert(inner.join('\n'), file, lineNo + 1, depth, nesting + closers.length + 1).split('\n').map((l) => (l ? `${indent}${l}` : l)));
        out.push('', `${indent}</div>`, '');
        i = end - 1;
        continue;
      }
      const tab = closers.length > 0 && line.includes('==') ? /^(\s*)==\s+(.+?)\s*$/.exec(line) : null;
      if (tab && closers.length > 0) {
        // a paragraph of its own, whatever the line before it
        emit('');
        emit(`${tab[1]}**${tab[2]}**`);
        emit('');
        continue;
      }
      if (line.includes('[[') && /^\s*\[\[toc\]\]\s*$/i.test(line)) {
        this.ctx.note('[[toc]] markers dropped (every page has its own table of contents)');
        continue;
      }
      let text = line;
      // a reference definition with its destination on an indented next line: one line, so its link is rewritten
      // (absolute in the twin) and checked like any other
      if (text.includes(']:') && openDefinition.test(text) && /^\s+\S/.test(lines[i + 1] ?? '')) text = `${text.trimEnd()} ${lines[++i]!.trim()}`;
      if (text.includes('{#') && /^\s*#{1,6}\s/.test(text) && withoutAuthoredId(text) !== text) {
        this.ctx.note('custom heading ids {#id} kept as anchors beside the ids headings get from their text');
        text = withoutAuthoredId(text) + anchorMarker(text, mode);
      } else if (text.includes('{#') && authoredIdLine.test(text)) {
        this.ctx.note('ids {#id} on a line of their own kept as anchors');
        text = anchorMarker(text, mode).trim();
        if (!text) continue;
      }
      // an opening tag of a component left open at the end of the line (attributes on the next lines)
      if (hasTag && /<[A-Z][A-Za-z0-9]*\b[^>]*$/.test(text.replace(/`[^`]*`/g, ''))) {
        this.ctx.note('components rendered as their text');
        text = text.replace(/<[A-Z][A-Za-z0-9]*\b[^>]*$/, '');
        inTag = true;
        if (!text.trim()) continue;
      }
      emit(this.inline(text, file, lineNo));
    }
    return out.join('\n');
  }

  /**
   * The index of the line that closes the container opened at `start` with `markers` colons: the first line of at
   * least as many colons alone, outside fences (markdown-it-container's rule), else the end.
   */
  private closingLine(lines: string[], start: number, markers: number): number {
    let fence: string | null = null;
    for (let i = start + 1; i < lines.length; i++) {
      const line = lines[i]!;
      if (fence) {
        if (closesFence(line, fence)) fence = null;
        continue;
      }
      const open = fenceOpen.exec(line);
      if (open) fence = open[2]!;
      else if (containerClose.test(line) && colonCount(line) >= markers) return i;
    }
    return lines.length;
  }

  /**
   * `::: code-group`. In html mode the marker lines stay, each a paragraph of its own, around
   * the converted fences: the reading plugin (src/markdown/reading-plugin.ts) renders the tabs,
   * for Markdown and MDX pages alike. In the twin each fence follows its bold `[label]`.
   */
  private codeGroup(inner: string, indent: string): string[] {
    if (this.ctx.mode === 'html') return ['', `${indent}::: code-group`, '', ...inner.split('\n'), '', `${indent}:::`, ''];
    const blocks: { label: string; lines: string[] }[] = [];
    const loose: string[] = [];
    let fence: string | null = null;
    for (const line of inner.split('\n')) {
      if (fence) {
        blocks[blocks.length - 1]!.lines.push(line);
        if (closesFence(line, fence)) fence = null;
        continue;
      }
      const open = fenceOpen.exec(line);
      if (open) {
        fence = open[2]!;
        const label = /\[([^\]]+)\]/.exec(open[3]!)?.[1]?.trim();
        const info = open[3]!.replace(/\s*\[[^\]]+\]/, '');
        blocks.push({ label: label || info.trim().split(/\s/)[0] || `Tab ${blocks.length + 1}`, lines: [`${open[1]}${open[2]}${info}`] });
      } else if (line.trim()) loose.push(line);
    }
    const out: string[] = loose.length ? [...loose, ''] : [];
    for (const b of blocks) out.push(`${indent}**${b.label}**`, '', ...b.lines, '');
    return out;
  }

  private codeInclude(file: string, m: RegExpExecArray): string[] {
    const [, indent, rawPath, meta, label] = m as unknown as [string, string, string, string | undefined, string | undefined];
    const [path, regionName] = rawPath.split('#') as [string, string | undefined];
    const found = this.readFile(file, path);
    let code = found?.text;
    if (code !== undefined && regionName) code = region(code, regionName);
    if (code === undefined) {
      this.ctx.note('code includes not found (left out)');
      return [`${indent}${missingCodeNote(rawPath)}`];
    }
    this.ctx.note('code includes read from the tree');
    let lang = meta?.split(/[\s,]+/).find((w) => /^[a-z][\w#+-]*$/i.test(w)) ?? (extname(path).slice(1) || 'text');
    if (lang === 'ansi') {
      code = code.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
      lang = 'text';
    }
    const ticks = '`'.repeat(Math.max(2, ...(code.match(/`{3,}/g) ?? []).map((f) => f.length)) + 1);
    return [`${indent}${ticks}${lang}${label ? ` [${label}]` : ''}`, ...code.replace(/\n$/, '').split('\n').map((l) => `${indent}${l}`), `${indent}${ticks}`];
  }

  /** One line of text: links rewritten and components converted, outside inline code. */
  inline(line: string, file: string, lineNo: number): string {
    // a line that is one component's tag holds no code span: backticks in its attributes are the attribute's text
    // (`<Accordion title="Why `Bun.sql`?">`)
    if (!line.includes('`') || wholeComponentTag.test(line)) return this.text(line, file, lineNo);
    return line
      .split(/(`+[^`]*`+)/)
      .map((part, index) => (index % 2 === 1 ? part : this.text(part, file, lineNo)))
      .join('');
  }

  private text(part: string, file: string, lineNo: number): string {
    const { ctx } = this;
    const hasTag = part.includes('<');
    if (!hasTag && !part.includes('](') && !part.includes(']:') && !part.includes('{{')) return part;
    if (part.includes('{{') && hasTemplateExpression(part)) ctx.note('template expressions {{ … }} kept as text');
    let text = !hasTag ? part : part.replace(componentTag, (whole, name: string, attrs: string, selfClosing: string, at: number) => {
      const badge = badgeComponents.has(name);
      if (whole.startsWith('</')) return badge ? (ctx.mode === 'html' ? '</span>' : ')') : '';
      // a tab's label, a card's title, an aside's title lead their content (src/lib/tool-components.ts)
      const lead = componentLead(name, (key) => attribute(attrs, key));
      // `<Note>Restart your shell</Note>`: the lead and the text it leads stay two words
      if (lead) return `${leadMarkdown(lead)}${/^\S/.test(part.slice(at + whole.length)) ? ' ' : ''}`;
      ctx.note(badge ? `<${name}> shown as a badge` : 'components rendered as their text');
      if (!badge) return '';
      const type = attribute(attrs, 'type') ?? (name === 'Badge' ? 'info' : name.toLowerCase());
      const label = attribute(attrs, 'text') ?? (name === 'Experimental' || name === 'Deprecated' ? name : '');
      const closed = selfClosing === '/' || name === 'Experimental' || name === 'Deprecated';
      if (ctx.mode === 'twin') return closed ? (label ? `(${label})` : '') : `(${label}`;
      const open = `<span class="badge badge-${type.replace(/[^\w-]/g, '')}">${escapeHtml(label)}`;
      return closed ? (label ? `${open}</span>` : '') : open;
    });
    const rewrite = (target: string) => ctx.link(target, file, lineNo);
    // inline links and images: ](target "title"); a target may hold balanced parentheses, one level deep, as
    // CommonMark allows (`diagram (1).png`, `wiki/Foo_(bar)`), and each alternative starts on a character of its own
    if (text.includes('](')) text = text.replace(/\]\(\s*(<[^<>]*>|(?:[^\s()\]]|\([^\s()]*\))+)((?:\s+(?:"[^"]*"|'[^']*'))?\s*)\)/g, (_w, target: string, title: string) => {
      const angled = target.startsWith('<');
      const next = rewrite(angled ? target.slice(1, -1) : target);
      return `](${angled ? `<${next}>` : next}${title})`;
    });
    // reference definitions: [label]: target
    if (text.includes(']:')) text = text.replace(/^(\s{0,3}\[[^\]]+\]:\s*)(<[^>]*>|\S+)/, (_w, lead: string, target: string) =>
      `${lead}${rewrite(target.startsWith('<') ? target.slice(1, -1) : target)}`,
    );
    // raw HTML href/src
    if (!hasTag) return text;
    return text.replace(/(<(?:a|img|source|video|audio)\b[^<>]*?\s(?:href|src)=)(["'])([^"']*)\2/gi, (_w, lead: string, q: string, target: string) => `${lead}${q}${rewrite(target)}${q}`);
  }
}

/** A link reference definition whose destination is on the next line: `[label]:` alone. */
const openDefinition = /^\s{0,3}\[[^\]]+\]:\s*$/;

function indentOf(line: string): string {
  return /^\s*/.exec(line)![0];
}

/** A page's Markdown with its root-relative links made absolute on `siteUrl` (twins of the assistant site). */
export function absoluteLinks(markdown: string, siteUrl: string): string {
  return new SourceConverter({
    mode: 'twin',
    contentDir: '.',
    note: () => {},
    link: (target) => (target.startsWith('/') && !target.startsWith('//') ? `${siteUrl}${target}` : target),
  }).convert(markdown, '');
}
