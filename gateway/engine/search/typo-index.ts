/**
 * Typo tolerance for the vocabulary: which index terms lie within a small Damerau–Levenshtein distance of a query
 * term. A query term of 4–8 characters may be one edit away (insert, delete, substitute, or swap two neighbours), one
 * of 9 or more two edits; shorter terms never match by typo (too many near neighbours: "tst" → "test", "set", "ts").
 *
 * Why a deletion index (SymSpell): two terms within distance d share a string obtained by deleting at most d
 * characters from each. Every index term's deletions are hashed once, when the index is built, into one sorted array;
 * a query term's own deletions (≈ 10 for 8 characters at distance 1, ≈ 55 for 10 at distance 2) are then looked up by
 * binary search, and only the few candidates found are checked with the real distance. A fuzzy query costs a few
 * dozen binary searches instead of a scan of the vocabulary, and the index is two flat arrays that live in the
 * segment file and its SharedArrayBuffer like the rest of the segment: built once with the segment, never on a request.
 */

import type { List } from './segment.ts';

/**
 * The edits a query term of this length may carry: 0 below 4 characters, 1 up to 8, 2 from 9. Stemming shortens
 * words (`fields` → `field`, a mistyped `fiels` → `fiel`), so 4 characters get one edit; the term dictionary looks
 * for neighbours of a term that short only when the index does not hold it at all (term-dictionary.ts).
 */
export function maxTypoDistance(length: number): 0 | 1 | 2 {
  return length >= 9 ? 2 : length >= 4 ? 1 : 0;
}

/** Index terms get the deletions a query term within reach needs: 1 from 4 characters, 2 from 7 (a query of 9+ is at most 2 longer). */
function indexDeletionDepth(length: number): 0 | 1 | 2 {
  return length >= 7 ? 2 : length >= 4 ? 1 : 0;
}

/** Terms longer than this are identifiers and URLs, not words a reader mistypes. */
const MAX_TERM_LENGTH = 24;

/**
 * Optimal-string-alignment distance (Damerau–Levenshtein with adjacent transpositions), or `max + 1` as soon as it is
 * known to exceed `max` (the length difference, or a row whose minimum is already past it).
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const width = b.length + 1;
  let twoBack = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, j) => j);
  let current = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) value = Math.min(value, twoBack[j - 2]! + 1);
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > max) return max + 1;
    [twoBack, previous, current] = [previous, current, twoBack];
  }
  return previous[b.length]!;
}

/** The term and every string made by deleting up to `depth` of its characters. */
export function deletions(term: string, depth: number): Set<string> {
  const out = new Set<string>([term]);
  let frontier = [term];
  for (let level = 0; level < depth; level++) {
    const next: string[] = [];
    for (const text of frontier) {
      for (let i = 0; i < text.length; i++) {
        const shorter = text.slice(0, i) + text.slice(i + 1);
        if (!out.has(shorter)) {
          out.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return out;
}

/** FNV-1a, 32 bits: deletion strings are stored as hashes; a collision only adds a candidate the distance check drops. */
function hash(text: string): number {
  return hashWithout(text, -1, -1);
}

/** The deletion index of one term list: hashes sorted ascending, and the term id of each hash at the same position. */
export interface TypoIndexData {
  hashes: Uint32Array;
  termIds: Uint32Array;
}

/** Term ids share a float64 with the hash (hash × 2^21 + id stays exact below 2^53), so one native numeric sort orders both. */
const ID_SPACE = 2 ** 21;

/** FNV-1a of `term` without the characters at positions `skipA` and `skipB` (-1: none): a deletion's hash, no string built. */
function hashWithout(term: string, skipA: number, skipB: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    if (i === skipA || i === skipB) continue;
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Builds the index over `terms` (term id = position in the list, below 2^21). `include` leaves terms out (for
 * example those too rare to be worth suggesting). The deletions are hashed by position (no string per deletion) into
 * one presized array, sorted natively; a deletion reached twice (`aab` → `ab`) is stored once.
 */
export function buildTypoIndex(terms: List<string> | readonly string[], include: (termId: number) => boolean = () => true): TypoIndexData {
  if (terms.length > ID_SPACE) throw new RangeError(`a typo index holds at most ${ID_SPACE} terms`);
  const kept: number[] = [];
  let size = 0;
  for (let id = 0; id < terms.length; id++) {
    const length = terms.at(id)!.length;
    const depth = length > MAX_TERM_LENGTH ? 0 : indexDeletionDepth(length);
    if (depth === 0 || !include(id)) continue;
    kept.push(id);
    size += 1 + length + (depth === 2 ? (length * (length - 1)) / 2 : 0);
  }
  const packed = new Float64Array(size);
  let at = 0;
  for (const id of kept) {
    const term = terms.at(id)!;
    const depth = indexDeletionDepth(term.length);
    packed[at++] = hashWithout(term, -1, -1) * ID_SPACE + id;
    for (let i = 0; i < term.length; i++) {
      packed[at++] = hashWithout(term, i, -1) * ID_SPACE + id;
      if (depth === 2) for (let j = i + 1; j < term.length; j++) packed[at++] = hashWithout(term, i, j) * ID_SPACE + id;
    }
  }
  packed.sort();
  let n = 0;
  for (let i = 0; i < packed.length; i++) if (i === 0 || packed[i] !== packed[i - 1]) packed[n++] = packed[i]!;
  const hashes = new Uint32Array(n);
  const termIds = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const h = Math.floor(packed[i]! / ID_SPACE);
    hashes[i] = h;
    termIds[i] = packed[i]! - h * ID_SPACE;
  }
  return { hashes, termIds };
}

/** Index terms a misspelling may aim at: words of letters (identifiers and numbers are copied, not typed). */
const TYPO_TARGET = /^[a-z]+$/;
const TYPO_TARGET_MIN_PAGES = 2;

/**
 * Whether an index term is a word a misspelling may stand for: a word of letters on at least TYPO_TARGET_MIN_PAGES
 * pages (body or title) — a word of one page's text is as often a typo, a name or a code as a word a reader means —
 * or `named`, in a title or an h2–h6 heading, which names what a page is about whatever the count: a small site's
 * `## Netlify` is on one page, and `netlfy` must still find it.
 */
export function isTypoTarget(term: string, pages: number, named: boolean): boolean {
  return TYPO_TARGET.test(term) && (named || pages >= TYPO_TARGET_MIN_PAGES);
}

/** Whether term `id` of a segment is in a page's title or section headings (its title or heading postings). */
export function namedTerm(segment: { titlePostingsStart: Int32Array; headingPostingsStart: Int32Array }, id: number): boolean {
  const { titlePostingsStart: title, headingPostingsStart: heading } = segment;
  return title[id + 1]! - title[id]! + heading[id + 1]! - heading[id]! > 0;
}

/**
 * The typo index of a segment's sorted term dictionary, built with the segment (at build time, in the index builder's
 * process) and stored in its file: its typo targets (isTypoTarget), counted on the segment's own pages.
 */
export function segmentTypoIndex(terms: List<string> | readonly string[], bodyPostingsStart: Int32Array, titlePostingsStart: Int32Array, headingPostingsStart: Int32Array): TypoIndexData {
  const postings = { titlePostingsStart, headingPostingsStart };
  const pages = (id: number) => bodyPostingsStart[id + 1]! - bodyPostingsStart[id]! + titlePostingsStart[id + 1]! - titlePostingsStart[id]!;
  return buildTypoIndex(terms, (id) => isTypoTarget(terms.at(id)!, pages(id), namedTerm(postings, id)));
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/**
 * A shorter term keeps to the deletion index: its one-edit variants are as often other words of the same family the
 * stemmer treats apart (`tune` stays `tune`, `tuned` is `tun`) as slips.
 */
const INFLECTION_SLIP_MIN_LENGTH = 5;

/**
 * What a slip in a word's ending hides from the deletion index: the index holds stems, and a slip in an ending the
 * stemmer takes off keeps it from being taken off (`tesitng` stays `tesitng` while `testing` is `test`, four edits
 * away). So the term's one-edit variants (insert, delete, substitute a letter, swap two neighbours) are stemmed, and
 * the stems they shorten to are candidates at one edit. Words of letters only, from 5 letters; a few hundred variants,
 * only for a term the index does not hold (or a rare one, term-dictionary.ts).
 */
export function inflectionSlips(term: string, stem: (word: string) => string): string[] {
  if (term.length < INFLECTION_SLIP_MIN_LENGTH || term.length > MAX_TERM_LENGTH || !TYPO_TARGET.test(term)) return [];
  const out = new Set<string>();
  const consider = (variant: string) => {
    const s = stem(variant);
    if (s !== variant && s !== term) out.add(s);
  };
  for (let i = 0; i <= term.length; i++) {
    const head = term.slice(0, i);
    const tail = term.slice(i);
    for (const c of LETTERS) consider(head + c + tail);
    if (i < term.length) {
      consider(head + tail.slice(1));
      for (const c of LETTERS) if (c !== tail[0]) consider(head + c + tail.slice(1));
      if (i + 1 < term.length) consider(head + tail[1] + tail[0] + tail.slice(2));
    }
  }
  return [...out];
}

function lowerBound(values: Uint32Array, target: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A term within reach of the query term, and how many edits away. */
export interface TypoMatch {
  termId: number;
  distance: number;
}

/**
 * Index terms within the query term's allowed distance (never the query term itself), nearest first, then by term id.
 * `termAt` reads a term's text by id (the segment's term dictionary).
 */
export function typoMatches(index: TypoIndexData, query: string, termAt: (termId: number) => string): TypoMatch[] {
  const max = maxTypoDistance(query.length);
  if (max === 0 || query.length > MAX_TERM_LENGTH) return [];
  const seen = new Set<number>();
  const out: TypoMatch[] = [];
  for (const key of deletions(query, max)) {
    const h = hash(key);
    for (let at = lowerBound(index.hashes, h); at < index.hashes.length && index.hashes[at] === h; at++) {
      const termId = index.termIds[at]!;
      if (seen.has(termId)) continue;
      seen.add(termId);
      const term = termAt(termId);
      if (term === query) continue;
      const distance = editDistance(query, term, max);
      if (distance <= max) out.push({ termId, distance });
    }
  }
  return out.sort((x, y) => x.distance - y.distance || x.termId - y.termId);
}
