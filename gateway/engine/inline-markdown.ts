/**
 * Inline Markdown read without a parser: code spans paired as CommonMark pairs them, and the visible text of a heading,
 * from which its anchor is slugged. The gateway cuts every twin it answers from into sections, each linked by the
 * anchor the HTML page gives its heading, so the text has to be the one the site's Markdown renderer shows: a code
 * span's text as written (`Map<K, V>` keeps its `<K, V>`), a backslash escape as its character (`Foo\<T\>` is
 * `Foo<T>`, no tag), a reference link (`[RawServer][RawServerGeneric]`) as its text when the page defines the label,
 * only real tags taken out, entities decoded, `--` the dash smart punctuation makes of it. The page's reference
 * definitions are read here too (definitionAt), for the gateway and for the build's manifest, so both agree.
 * Every step reads a line once (no pattern reads past the next `[`, `<` or backtick run), so a heading of thousands
 * of them costs time in proportion to its length. The build's titles (src/lib/title-html.ts) pair code spans here too.
 */

import { decodeNamedCharacterReference } from 'decode-named-character-reference';

export interface InlinePart {
  /** A code span's text (its backticks and CommonMark's one padding space removed), or text around spans as written. */
  text: string;
  code: boolean;
}

/** The text cut into code spans and the text between them, in one pass over its backtick runs: a run closes at the next run of the same length, `\`` is a backtick, a run with no partner is text. */
export function codeSpanParts(source: string): InlinePart[] {
  const runs: { at: number; length: number }[] = [];
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\' && source[i + 1] === '`') {
      i++;
      continue;
    }
    if (source[i] !== '`') continue;
    let length = 1;
    while (source[i + length] === '`') length++;
    runs.push({ at: i, length });
    i += length - 1;
  }
  // for each run, the next run of the same length (found from the end, so the text is read once)
  const next = new Array<number>(runs.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    next[r] = lastOfLength.get(runs[r]!.length) ?? -1;
    lastOfLength.set(runs[r]!.length, r);
  }
  const parts: InlinePart[] = [];
  const text = (from: number, to: number) => {
    if (to > from) parts.push({ code: false, text: source.slice(from, to) });
  };
  let from = 0;
  for (let r = 0; r < runs.length; r++) {
    const open = runs[r]!;
    if (open.at < from || next[r]! < 0) continue; // inside a span already taken, or no partner: text
    const close = runs[next[r]!]!;
    text(from, open.at);
    let code = source.slice(open.at + open.length, close.at);
    if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
    parts.push({ code: true, text: code });
    from = close.at + close.length;
    r = next[r]!;
  }
  text(from, source.length);
  return parts;
}

/** A backslash before ASCII punctuation makes it a character of the text (CommonMark). */
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
/**
 * While the patterns below run, an escaped character stands as a private-use one (U+E021–E07E) and a code span as
 * U+E100 <its index> U+E101: none is read as syntax, and links and emphasis around code are read whole. Characters of
 * that range in the text itself are replaced first (the slug drops them, as it drops U+FFFD).
 */
const HIDDEN = 0xe000;
const RESERVED = /[\ue000-\ue1ff]/g;
const HAS_RESERVED = /[\ue000-\ue1ff]/;
const HIDDEN_CHARACTER = /[\ue021-\ue07e]/g;
const CODE_PLACEHOLDER = /\ue100(\d+)\ue101/g;
/** A character reference: named (the whole HTML5 table), decimal or hexadecimal. */
const CHARACTER_REFERENCE = /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/g;

/**
 * An inline link or image, `[text](url "title")`, its text the first group: one level of brackets in the text (a
 * badge `[![alt](img)](url)`, `[the [beta] guide](url)`), a `<url with spaces>` or a url with one level of parentheses
 * (`…/Foo_(bar)`), a title in double or single quotes or parentheses. Each part starts with its own character, so a
 * match never backtracks far. The answers' cut keeps links whole with it (passages.ts), readText reads a link by its
 * text, and inlineText a heading's.
 */
export const INLINE_LINK = /!?\[((?:[^[\]\n]|\[[^[\]\n]*\])*)\]\((?:<[^<>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\)/g;

/** A link by its text, an image (whose alt the renderer's id leaves out) by nothing, a badge's image inside a link too. */
const linkText = (whole: string, label: string): string => (whole.startsWith('!') ? '' : label.includes('](') ? label.replace(INLINE_LINK, (inner: string, text: string) => (inner.startsWith('!') ? '' : text)) : label);

/** Whether the page defines a link reference label (`[label]: url`); the visible text of `[text][label]` depends on it. */
export type LabelDefined = (label: string) => boolean;
const NONE_DEFINED: LabelDefined = () => false;

/** A label as CommonMark matches it: case and runs of white space do not count. */
export const labelKey = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

/** A line without the `>` of the block quotes it is in. */
export const unquoted = (line: string) => (line.includes('>') ? line.replace(/^(?:[ \t]{0,3}>[ \t]?)+/, '') : line);

const DEFINITION_LINE = /^ {0,3}\[((?:[^\]\\\n]|\\.)+)\]:[ \t]*(\S*)/;

/**
 * The link reference definition that starts at line `i` (inside block quotes too): its label and how many lines it
 * spans, its URL on the same line or on the next non-blank one, as CommonMark reads it. The build and the gateway
 * both read a page's definitions here, so they agree on which `[text][label]` is a link.
 */
export function definitionAt(lines: readonly string[], i: number): { label: string; lines: 1 | 2 } | undefined {
  const line = lines[i]!;
  if (!line.includes(']:')) return undefined;
  const definition = DEFINITION_LINE.exec(unquoted(line));
  if (!definition) return undefined;
  if (definition[2]) return { label: definition[1]!, lines: 1 };
  return unquoted(lines[i + 1] ?? '').trim() ? { label: definition[1]!, lines: 2 } : undefined;
}

/**
 * The dashes the renderer's smart punctuation makes of a run of hyphens in text, as CommonMark's reference does it:
 * `--` an en dash, `---` an em dash, a longer run all dashes, em dashes first, no hyphen left over.
 */
export const smartDashes = (text: string) => (text.includes('--') ? text.replace(/-{2,}/g, smartDash) : text);
function smartDash(run: string): string {
  const n = run.length;
  const [em, en] = n % 3 === 0 ? [n / 3, 0] : n % 2 === 0 ? [0, n / 2] : n % 3 === 2 ? [(n - 2) / 3, 1] : [(n - 4) / 3, 2];
  return '\u2014'.repeat(em) + '\u2013'.repeat(en);
}

/** A character reference's character (one of the reserved range as U+FFFD, which the slug drops too); an unknown name stays as written. */
function decodeReference(whole: string, body: string): string {
  if (body[0] !== '#') {
    const named = decodeNamedCharacterReference(body);
    return named === false ? whole : named;
  }
  const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
  if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff) || (code >= 0xe000 && code <= 0xe1ff)) return '\ufffd';
  return String.fromCodePoint(code);
}

/**
 * The visible text of inline Markdown (a heading's), as the site's renderer shows it and slugs it: code spans as
 * written, links and images by their text (a reference link only when its label is defined), real tags out, emphasis
 * markers out, entities decoded, `--` and `---` as the dashes the renderer's smart punctuation makes of them. The space
 * a tag or image leaves at either end stays: the renderer's id keeps it.
 */
export function inlineText(source: string, defined: LabelDefined = NONE_DEFINED): string {
  const codes: string[] = [];
  const clean = HAS_RESERVED.test(source) ? source.replace(RESERVED, '\ufffd') : source;
  const text = clean.includes('`')
    ? codeSpanParts(clean)
        .map((part) => (part.code ? `\ue100${codes.push(part.text) - 1}\ue101` : part.text))
        .join('')
    : clean;
  // a label as written: escapes with their backslash, code spans with their backticks
  const written = (label: string) =>
    label.replace(HIDDEN_CHARACTER, (hidden) => `\\${String.fromCharCode(hidden.charCodeAt(0) - HIDDEN)}`).replace(CODE_PLACEHOLDER, (whole, index: string) => (codes[Number(index)] === undefined ? whole : `\`${codes[Number(index)]}\``));
  return text
    .replace(ESCAPE, (_, character: string) => String.fromCharCode(HIDDEN + character.charCodeAt(0)))
    .replace(INLINE_LINK, linkText)
    .replace(/\[([^[\]]*)\]\[([^[\]]*)\]/g, (whole, label: string, reference: string) => (defined(labelKey(written(reference || label))) ? label : whole))
    .replace(/<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^<>\s]*)>/g, '$1')
    .replace(/<\/?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?\/?>|<!--[^<>]*-->/g, '')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|\W)[*_]([^*_]+)[*_](?=\W|$)/g, '$1$2')
    .replace(/-{2,}/g, smartDash)
    .replace(CHARACTER_REFERENCE, decodeReference)
    .replace(HIDDEN_CHARACTER, (hidden) => String.fromCharCode(hidden.charCodeAt(0) - HIDDEN))
    .replace(CODE_PLACEHOLDER, (whole, index: string) => codes[Number(index)] ?? whole);
}
