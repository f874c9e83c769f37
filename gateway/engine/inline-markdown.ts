/**
 * Inline Markdown read without a parser: code spans paired as CommonMark pairs them, and the visible text of a heading,
 * from which its anchor is slugged. The gateway cuts every twin it answers from into sections, each linked by the
 * anchor the HTML page gives its heading, so the text has to be the one the site's Markdown renderer shows: a code
 * span's text as written (`Map<K, V>` keeps its `<K, V>`), a backslash escape as its character (`Foo\<T\>` is
 * `Foo<T>`, no tag), a reference link (`[RawServer][RawServerGeneric]`) as its text, only real tags taken out.
 * Every step reads a line once (no pattern reads past the next `[`, `<` or backtick run), so a heading of thousands
 * of them costs time in proportion to its length. The build's titles (src/lib/title-html.ts) pair code spans here too.
 */

import { decodeEntities } from './text.ts';

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
/** Escaped characters stand in a private-use range while the patterns below run, so none of them reads one as syntax. */
const HIDDEN = 0xe000;
const HIDDEN_CHARACTER = /[\ue021-\ue07e]/g;
/** A code span stands as \ue100<its index>\ue101 meanwhile: links and emphasis around code are read whole. */
const CODE_PLACEHOLDER = /\ue100(\d+)\ue101/g;

/** Whether the page defines a link reference label (`[label]: url`); the visible text of `[text][label]` depends on it. */
export type LabelDefined = (label: string) => boolean;
const NONE_DEFINED: LabelDefined = () => false;

/** A label as CommonMark matches it: case and runs of white space do not count. */
export const labelKey = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The visible text of inline Markdown (a heading's), as the site's renderer shows it and slugs it: code spans as
 * written, links and images by their text (a reference link only when its label is defined), real tags out, emphasis
 * markers out, entities decoded. The space a tag or image leaves at either end stays: the renderer's id keeps it.
 */
export function inlineText(source: string, defined: LabelDefined = NONE_DEFINED): string {
  const codes: string[] = [];
  const text = source.includes('`')
    ? codeSpanParts(source)
        .map((part) => (part.code ? `\ue100${codes.push(part.text) - 1}\ue101` : part.text))
        .join('')
    : source;
  return decodeEntities(
    text
      .replace(ESCAPE, (_, character: string) => String.fromCharCode(HIDDEN + character.charCodeAt(0)))
      .replace(/!\[[^[\]]*\]\([^()[]*\)/g, '')
      .replace(/\[([^[\]]*)\]\([^()[]*\)/g, '$1')
      .replace(/\[([^[\]]*)\]\[([^[\]]*)\]/g, (whole, label: string, reference: string) => (defined(labelKey(reference || label)) ? label : whole))
      .replace(/<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^<>\s]*)>/g, '$1')
      .replace(/<\/?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?\/?>|<!--[^<>]*-->/g, '')
      .replace(/(\*\*|__)(.*?)\1/g, '$2')
      .replace(/(^|\W)[*_]([^*_]+)[*_](?=\W|$)/g, '$1$2'),
  )
    .replace(HIDDEN_CHARACTER, (hidden) => String.fromCharCode(hidden.charCodeAt(0) - HIDDEN))
    .replace(CODE_PLACEHOLDER, (_, index: string) => codes[Number(index)]!);
}
