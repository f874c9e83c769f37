/**
 * Page text at query time: the words of a page by position (for excerpts) and the positions of the words a query
 * matched, read from the segment's stored texts.
 *
 * Why no per-word table: a word's byte is found by scanning forward from the nearest word checkpoint (segment.ts
 * wordCheckpoints), and a word's term by tokenizing it again (memoized per worker) — only the first
 * FULL_EXCERPT_RANKS hits of a query need this, and per-word tables would double the index. A loaded index reads a
 * page's bytes from the segment file (pread) and keeps the recent ones.
 */
import { sectionTerm, toPlainText } from '../text.ts';
import type { ColdArray } from './cold-array.ts';
import type { MatchSets } from './match-set.ts';
import { type SegmentData, WORD_CHECKPOINT_INTERVAL, pageWordCount } from './segment.ts';
import { BoundedMemo } from '../lru.ts';

/** Bytes of a page's text: `bytes[b - base]` is byte b of the segment's texts (all of them in memory, or the page's). */
interface PageBytes { bytes: Uint8Array; buffer: Buffer; base: number }
const wholeTexts = new WeakMap<ColdArray<Uint8Array>, PageBytes>();
const pageTexts = new WeakMap<ColdArray<Uint8Array>, BoundedMemo<number, PageBytes>>();
/** Pages read from a segment file kept per worker (the top hits of recent queries; ≈5 KB each). */
const PAGE_TEXT_MEMO_MAX = 256;
const TERM_MEMO_MAX = 100_000;
/** ASCII bytes that are word characters ([0-9A-Za-z_]): see MatchedWords.in. */
const WORD_BYTE = Uint8Array.from({ length: 128 }, (_, x) => (/[0-9A-Za-z_]/.test(String.fromCharCode(x)) ? 1 : 0));

function pageBytes(s: SegmentData, i: number): PageBytes {
  const texts = s.texts;
  const memory = texts.memory;
  if (memory) {
    let t = wholeTexts.get(texts);
    if (!t) wholeTexts.set(texts, (t = { bytes: memory, buffer: Buffer.from(memory.buffer, memory.byteOffset, memory.byteLength), base: 0 }));
    return t;
  }
  let memo = pageTexts.get(texts);
  if (!memo) pageTexts.set(texts, (memo = new BoundedMemo(PAGE_TEXT_MEMO_MAX)));
  let t = memo.get(i);
  if (!t) {
    const base = s.pageFirstByte[i]!;
    const buffer = Buffer.allocUnsafe(s.pageFirstByte[i + 1]! - base);
    texts.read(base, base + buffer.length, buffer, 0);
    t = memo.remember(i, { bytes: buffer, buffer, base });
  }
  return t;
}

/** Byte offset of word p (page-relative, < the page's word count) of page i: a scan from the nearest checkpoint. */
function wordByte(s: SegmentData, i: number, p: number): number {
  const p0 = s.pageFirstWord[i]!;
  const g = p0 + p;
  let w = g - (g % WORD_CHECKPOINT_INTERVAL);
  let b: number;
  if (w < p0) {
    w = p0;
    b = s.pageFirstByte[i]!;
  } else b = s.wordCheckpoints[w / WORD_CHECKPOINT_INTERVAL]!;
  const { bytes: c, base } = pageBytes(s, i);
  let r = b - base;
  const n = c.length;
  if (s.zeroWidthSeparated[i]) {
    for (; w < g; w++) {
      while (r < n && !(c[r] === 0xe2 && c[r + 1] === 0x80 && c[r + 2] === 0x8b)) r++;
      r += 3;
    }
  } else {
    for (; w < g; w++) {
      while (r < n && c[r] !== 0x20) r++;
      r++;
    }
  }
  return r + base;
}

/** The stored text of words [from, to) of page i, separators included (a trailing one when to < word count). */
function rawWords(s: SegmentData, i: number, from: number, to: number): string {
  const b0 = wordByte(s, i, from);
  const b1 = to < pageWordCount(s, i) ? wordByte(s, i, to) : s.pageFirstByte[i + 1]!;
  const { buffer, base } = pageBytes(s, i);
  return buffer.toString('utf8', b0 - base, b1 - base);
}

/** Words [from, to) of page i as plain text. */
export function plainWords(s: SegmentData, i: number, from: number, to: number): string {
  const raw = rawWords(s, i, from, to);
  return toPlainText(s.zeroWidthSeparated[i] ? raw.replaceAll('\u200B', '') : raw);
}

/**
 * Positions of matched words a section counts more times (ascending): of joined terms, and of the query's own words;
 * `headings`: whether the set weighs heading matches apart (MatchSets.headingWeights).
 */
export interface EmphasizedWords { joined: number[]; exact: number[]; headings: boolean }

/** Positions of matched words in a page: per worker, with memos of word → section term and first characters. */
export class MatchedWords {
  private readonly matchSets: MatchSets;
  private readonly termMemo = new BoundedMemo<string, string>(TERM_MEMO_MAX);
  /** prefilter's tables, the entries set in them (first characters < 128, pairs 128 + index), and their terms. */
  private readonly firstTable = new Uint8Array(128);
  private readonly pairTable = new Uint8Array(128 * 128);
  private readonly tableEntries: number[] = [];
  private prefilterTerms: Set<string> | undefined;

  constructor(matchSets: MatchSets) {
    this.matchSets = matchSets;
  }

  /**
   * The prefilter tables of a query's matched terms: their ASCII first characters (128 entries) and their first two
   * characters where both are ASCII (128 × 128). One pair of tables per worker, set again when another query's terms
   * ask (a query's hits are rendered together), clearing only the entries the last terms set.
   */
  private prefilter(terms: Set<string>): void {
    if (this.prefilterTerms === terms) return;
    const { firstTable, pairTable, tableEntries } = this;
    for (const at of tableEntries) {
      if (at < 128) firstTable[at] = 0;
      else pairTable[at - 128] = 0;
    }
    tableEntries.length = 0;
    for (const t of terms) {
      const x = t.charCodeAt(0);
      if (!(x < 128)) continue;
      if (firstTable[x] === 0) {
        firstTable[x] = 1;
        tableEntries.push(x);
      }
      const y = t.charCodeAt(1);
      if (!(y < 128)) continue;
      const at = x * 128 + y;
      if (pairTable[at] === 0) {
        pairTable[at] = 1;
        tableEntries.push(128 + at);
      }
    }
    this.prefilterTerms = terms;
  }

  /** The term a section counts a word by, as the section postings do (text.ts sectionTerm). */
  private termOf(w: string): string {
    return this.termMemo.get(w) ?? this.termMemo.remember(w, sectionTerm(w));
  }

  /**
   * Lists for `in` to push the positions of words a section counts more times into, when the match set weighs any
   * apart (its joined terms, its query words in headings: MatchSets.joinedTerms, exactTerms); else undefined.
   */
  emphasized(set: Uint8Array): EmphasizedWords | undefined {
    const headings = this.matchSets.headingWeights(set) !== undefined;
    return headings || this.matchSets.joinedTerms(set) ? { joined: [], exact: [], headings } : undefined;
  }

  /**
   * Word positions (page-relative) in [from, to) of page i whose section term is in the match set; with `emphasized`,
   * the positions of the set's joined terms and of its query words are pushed there too.
   */
  in(s: SegmentData, i: number, set: Uint8Array, from: number, to: number, emphasized?: EmphasizedWords): number[] {
    const matched: number[] = [];
    const terms = this.matchSets.terms(set);
    const joinedTerms = emphasized && this.matchSets.joinedTerms(set);
    const exactTerms = emphasized && this.matchSets.exactTerms(set);
    from = Math.max(0, from);
    if (!terms || to <= from) return matched;
    if (!s.zeroWidthSeparated[i]) {
      // on the bytes: a word whose first byte is an ASCII word character has a section term starting with that
      // character (lower-cased), and when its second byte is one too, with those two (stemming keeps at least three
      // characters), so most words are skipped without building a string
      this.prefilter(terms);
      const first = this.firstTable;
      const pairs = this.pairTable;
      const { bytes: c, buffer, base } = pageBytes(s, i);
      const nW = pageWordCount(s, i);
      // positions relative to the bytes at hand (c[0] is byte `base` of the segment's texts)
      const end = (to < nW ? wordByte(s, i, to) : s.pageFirstByte[i + 1]!) - base;
      let b = wordByte(s, i, from) - base;
      for (let p = from; p < to && b <= end; p++) {
        let e = b;
        while (e < end && c[e] !== 0x20) e++;
        const x = c[b]!;
        let check = e > b && (x >= 0x80 || !WORD_BYTE[x] || first[x >= 65 && x <= 90 ? x | 0x20 : x] === 1);
        if (check && x < 0x80 && WORD_BYTE[x] && e > b + 1) {
          const y = c[b + 1]!;
          if (y < 0x80 && WORD_BYTE[y]) check = pairs[(x >= 65 && x <= 90 ? x | 0x20 : x) * 128 + (y >= 65 && y <= 90 ? y | 0x20 : y)] === 1;
        }
        if (check) {
          const t = this.termOf(buffer.toString('utf8', b, e));
          if (t !== '' && terms.has(t)) {
            matched.push(p);
            // a term both joined and typed (`test.each test each`) counts as joined, as its postings do
            if (joinedTerms?.has(t)) emphasized!.joined.push(p);
            else if (exactTerms?.has(t)) emphasized!.exact.push(p);
          }
        }
        b = e + 1;
      }
      return matched;
    }
    const words = rawWords(s, i, from, to).split('\u200B');
    for (let j = 0, n = Math.min(words.length, to - from); j < n; j++) {
      const t = this.termOf(words[j]!);
      if (t !== '' && terms.has(t)) {
        matched.push(from + j);
        if (joinedTerms?.has(t)) emphasized!.joined.push(from + j);
        else if (exactTerms?.has(t)) emphasized!.exact.push(from + j);
      }
    }
    return matched;
  }
}
