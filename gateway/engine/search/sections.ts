/**
 * Choosing a hit's section: the intro or the anchor section of a page that matches the query best (sectionScore:
 * the section whose heading holds the query's words before one whose body repeats them), and whether heading words
 * matched (a heading hit). The hit's url, type and excerpt follow from that choice (hits.ts).
 *
 * Why section postings instead of the page's words: the choice is a lookup over the query's term ids (a binary
 * search per id in the term's ascending section list), so a hit in the long tail of an unlimited ranking costs no
 * page text at all. For a long tail, one pass over the query's section postings accumulates every section's counts
 * when that is cheaper than a search per hit and id. A loaded index reads the postings from the segment file.
 * Why the page's words all the same for the few query-excerpt hits of a broad query: their pages' texts are read
 * for the excerpts anyway, while its postings (every expansion of every term) are hundreds of KB to read for them.
 */
import type { Documents } from './documents.ts';
import { EXACT_HEADING_WEIGHT, JOINED_WEIGHT, type MatchSets } from './match-set.ts';
import type { EmphasizedWords } from './page-text.ts';
import { type AnchorInfo, SECTION_BODY_BITS, SECTION_BODY_MAX, SECTION_HEADING_MAX, type SegmentData } from './segment.ts';

/** A match set's section postings in one segment: id q of the set has entries [from[q], to[q]) of sections/counts. */
interface SectionPostings { sections: Int32Array; counts: Uint16Array; from: Int32Array; to: Int32Array; n: number }
/**
 * A section's score: each match of a query word in its heading weighs HEADING_MATCH_WEIGHT, its body's matches count
 * up to BODY_MATCHES_COUNTED (a joined term's matches count JOINED_WEIGHT times each, and in a heading the word as
 * typed EXACT_HEADING_WEIGHT times beside its longer expansions: match-set.ts). A heading naming
 * a query word says what the section is about, while a body repeating the query's commonest word says little more
 * after a few times: "glob import" asks for Vite's "Glob Import" section, not
 * the "Named Imports" subsection under it whose code says `import.meta.glob` again and again. Measured on the headings
 * of the Vitest, Vite, Bun and npm docs (content/docs/getting-started/search-engine.md).
 */
const HEADING_MATCH_WEIGHT = 6;
const BODY_MATCHES_COUNTED = 6;

function sectionScore(body: number, head: number): number {
  return Math.min(body, BODY_MATCHES_COUNTED) + HEADING_MATCH_WEIGHT * head;
}

/**
 * Adds `weight` per position (ascending) to the body or heading count of the section it falls in (section j + 1 for
 * anchor j); with `body` undefined, only the positions in headings count.
 */
function countWords(anchors: AnchorInfo[], positions: readonly number[], weight: number, body: Int32Array | undefined, head: Int32Array): void {
  const nA = anchors.length;
  let a = -1;
  let headingEnd = 0;
  for (let m = 0; m < positions.length; m++) {
    const p = positions[m]!;
    if (a + 1 < nA && anchors[a + 1]!.loc <= p) {
      while (a + 1 < nA && anchors[a + 1]!.loc <= p) a++;
      headingEnd = anchors[a]!.loc + anchors[a]!.words;
    }
    if (p < headingEnd) head[a + 1]! += weight;
    else if (body) body[a + 1]! += weight;
  }
}

const EMPTY_I32 = new Int32Array(0);
const EMPTY_U16 = new Uint16Array(0);
/** Section postings entries of a query (one segment) past which query-excerpt hits read their pages' words (byWords). */
export const WORDS_OVER_POSTINGS = 16_384;
/** chooseByWords: a section's count may pass a stored count's clamp, so only the section postings decide. */
export const UNDECIDED = -3;

export class SectionChooser {
  private readonly documents: Documents;
  private readonly matchSets: MatchSets;
  /** Set by choose(): 1 when heading words of the chosen section matched. */
  headingHit = 0;
  /** Per segment: the section postings of the last match set asked for. */
  private readonly postings: (SectionPostings & { set: Uint8Array | undefined })[] = [];
  /** Section postings entries per match set (byWords). */
  private readonly postingsSizes = new WeakMap<Uint8Array, number>();
  private bodyCounts = new Int32Array(64);
  private headingCounts = new Int32Array(64);
  /** Per segment, per section [body, heading] match counts of the current accumulate … release span. */
  private accumulated: Uint32Array[] | undefined;
  private readonly accumulators: Uint32Array[] = [];
  private readonly wordsOverPostings: number;

  constructor(documents: Documents, matchSets: MatchSets, wordsOverPostings = WORDS_OVER_POSTINGS) {
    this.documents = documents;
    this.matchSets = matchSets;
    this.wordsOverPostings = wordsOverPostings;
  }

  /**
   * The section postings of a match set's term ids in segment k. In memory: the segment's arrays themselves. From
   * the segment file: the ids' ranges read into per-segment buffers (adjacent ranges — a prefix's expansions — in one
   * read), kept until another set of that segment asks.
   */
  private sectionPostings(s: SegmentData, k: number, set: Uint8Array): SectionPostings {
    let p = this.postings[k];
    if (p?.set === set) return p;
    const ids = this.matchSets.ids(set);
    const n = ids.length;
    const start = s.sectionPostingsStart;
    if (!p || p.from.length < n) {
      const cap = Math.max(n, 2 * (p?.from.length ?? 8));
      p = this.postings[k] = { set: undefined, sections: p?.sections ?? EMPTY_I32, counts: p?.counts ?? EMPTY_U16, from: new Int32Array(cap), to: new Int32Array(cap), n: 0 };
    }
    p.set = undefined; // until filled: a throw leaves no half-read buffers behind
    const sectionsInMemory = s.sectionPostingSections.memory;
    const countsInMemory = s.sectionPostingCounts.memory;
    if (sectionsInMemory && countsInMemory) {
      p.sections = sectionsInMemory;
      p.counts = countsInMemory;
      for (let q = 0; q < n; q++) {
        p.from[q] = start[ids[q]!]!;
        p.to[q] = start[ids[q]! + 1]!;
      }
    } else {
      let total = 0;
      for (let q = 0; q < n; q++) total += start[ids[q]! + 1]! - start[ids[q]!]!;
      if (p.sections.length < total) {
        const cap = Math.max(total, 1024);
        p.sections = new Int32Array(cap);
        p.counts = new Uint16Array(cap);
      }
      let at = 0;
      for (let q = 0; q < n; ) {
        // a run of ids whose ranges touch (consecutive term ids): one read
        const a = start[ids[q]!]!;
        let r = q;
        while (r + 1 < n && start[ids[r + 1]!]! === start[ids[r]! + 1]!) r++;
        const b = start[ids[r]! + 1]!;
        if (b > a) {
          s.sectionPostingSections.read(a, b, p.sections, at);
          s.sectionPostingCounts.read(a, b, p.counts, at);
        }
        for (; q <= r; q++) {
          p.from[q] = at + start[ids[q]!]! - a;
          p.to[q] = at + start[ids[q]! + 1]! - a;
        }
        at += b - a;
      }
    }
    p.n = n;
    p.set = set;
    return p;
  }

  /**
   * For a long tail of `hits` hits: the match counts of every section of every segment in one pass over the query's
   * section postings (cost ∝ postings), when that is cheaper than a binary search per hit and term id. Until
   * release(), choose() reads them.
   */
  accumulate(sets: Uint8Array[], hits: number): void {
    if (this.accumulated) for (const a of this.accumulators) a.fill(0); // a previous span threw before release
    this.accumulated = undefined;
    if (hits < 64) return;
    const segments = this.documents.segments;
    let postings = 0;
    let perHit = 0;
    segments.forEach((s, k) => {
      perHit += this.matchSets.ids(sets[k]!).length;
      postings += this.postingsLength(s, sets[k]!);
    });
    if (postings > hits * (perHit / segments.length) * 16) return;
    this.accumulated = segments.map((s, k) => {
      const nSec = s.pageFirstSection[s.pageCount]!;
      // body, heading per section (interleaved); kept per worker, zeroed again by release
      let acc = this.accumulators[k];
      if (!acc || acc.length < 2 * nSec) acc = this.accumulators[k] = new Uint32Array(2 * nSec);
      const { sections, counts, from, to, n } = this.sectionPostings(s, k, sets[k]!);
      const weights = this.matchSets.weights(sets[k]!);
      const headingWeights = this.matchSets.headingWeights(sets[k]!) ?? weights;
      for (let q = 0; q < n; q++) {
        const weight = weights ? weights[q]! : 1;
        const headingWeight = headingWeights ? headingWeights[q]! : 1;
        for (let e = from[q]!, end = to[q]!; e < end; e++) {
          const c = counts[e]!;
          const at = 2 * sections[e]!;
          acc[at]! += weight * (c & SECTION_BODY_MAX);
          acc[at + 1]! += headingWeight * (c >>> SECTION_BODY_BITS);
        }
      }
      return acc;
    });
  }

  /** Zeroes what accumulate added (only the query's postings: no pass over every section). */
  release(sets: Uint8Array[]): void {
    const accs = this.accumulated;
    this.accumulated = undefined;
    if (!accs) return;
    this.documents.segments.forEach((s, k) => {
      const acc = accs[k]!;
      const { sections, from, to, n } = this.sectionPostings(s, k, sets[k]!);
      for (let q = 0; q < n; q++) {
        for (let e = from[q]!, end = to[q]!; e < end; e++) {
          const at = 2 * sections[e]!;
          acc[at] = 0;
          acc[at + 1] = 0;
        }
      }
    });
  }

  /**
   * Whether a query-excerpt hit in segment k should choose its section by its page's words (chooseByWords) rather
   * than the section postings: when the set's postings are not read yet and are long. Reading them costs ∝ their
   * length, once per query; scanning a page's words costs ≈ its length, once per hit.
   */
  byWords(s: SegmentData, k: number, set: Uint8Array): boolean {
    if (this.postings[k]?.set === set) return false;
    return this.postingsLength(s, set) > this.wordsOverPostings;
  }

  /** The length of the section postings of a match set's terms in segment s (memoized per set). */
  private postingsLength(s: SegmentData, set: Uint8Array): number {
    let size = this.postingsSizes.get(set);
    if (size === undefined) {
      size = 0;
      const ids = this.matchSets.ids(set);
      const start = s.sectionPostingsStart;
      for (let q = 0; q < ids.length; q++) size += start[ids[q]! + 1]! - start[ids[q]!]!;
      this.postingsSizes.set(set, size);
    }
    return size;
  }

  /**
   * The section choose() gives, from the page's matched word positions (ascending, MatchedWords.in over the whole
   * page) instead of the section postings: the same counts, since both count each word by its primary term
   * (section-builder.ts), and the same order of comparison; the positions of joined terms (`emphasized.joined`,
   * ascending) count JOINED_WEIGHT times in all, and those of the query's own words in headings
   * (`emphasized.exact`) EXACT_HEADING_WEIGHT times, as their postings do. UNDECIDED when a section holds more matches
   * than a stored count keeps (SECTION_BODY_MAX, SECTION_HEADING_MAX), where the clamped per-term counts could choose
   * otherwise.
   */
  chooseByWords(anchors: AnchorInfo[], matched: number[], emphasized?: EmphasizedWords): number {
    const nS = anchors.length + 1;
    const { body, head } = this.counts(nS);
    countWords(anchors, matched, 1, body, head);
    for (let j = 0; j < nS; j++) if (body[j]! > SECTION_BODY_MAX || head[j]! > SECTION_HEADING_MAX) return UNDECIDED;
    if (emphasized?.joined.length) countWords(anchors, emphasized.joined, JOINED_WEIGHT - 1, body, head);
    if (emphasized?.headings) {
      countWords(anchors, emphasized.exact, EXACT_HEADING_WEIGHT - 1, undefined, head);
      countWords(anchors, emphasized.joined, JOINED_WEIGHT * (EXACT_HEADING_WEIGHT - 1), undefined, head);
    }
    return this.best(nS);
  }

  /** Per-section body and heading counts for nS sections, zeroed. */
  private counts(nS: number): { body: Int32Array; head: Int32Array } {
    let body = this.bodyCounts;
    let head = this.headingCounts;
    if (body.length < nS) {
      this.bodyCounts = body = new Int32Array(nS);
      this.headingCounts = head = new Int32Array(nS);
    } else {
      body.fill(0, 0, nS);
      head.fill(0, 0, nS);
    }
    return { body, head };
  }

  /** The section with the best sectionScore, the first on ties; sets headingHit. */
  private best(nS: number): number {
    const body = this.bodyCounts;
    const head = this.headingCounts;
    let best = -1;
    let bestScore = -1;
    let headingHit = 0;
    for (let j = 0; j < nS; j++) {
      const sc = sectionScore(body[j]!, head[j]!);
      if (sc > bestScore) {
        bestScore = sc;
        best = j - 1;
        headingHit = head[j]! > 0 ? 1 : 0;
      }
    }
    this.headingHit = headingHit;
    return best;
  }

  /** The section a non-title hit of page i of segment k lands in: -1 intro | a anchor a (headingHit set too). */
  choose(s: SegmentData, i: number, k: number, sets: Uint8Array[]): number {
    const sec0 = s.pageFirstSection[i]!;
    const nS = s.pageFirstSection[i + 1]! - sec0;
    const acc = this.accumulated?.[k];
    if (acc) {
      let best = -1;
      let bestScore = -1;
      let headingHit = 0;
      for (let j = 0, at = 2 * sec0; j < nS; j++, at += 2) {
        const h = acc[at + 1]!;
        const sc = sectionScore(acc[at]!, h);
        if (sc > bestScore) {
          bestScore = sc;
          best = j - 1;
          headingHit = h > 0 ? 1 : 0;
        }
      }
      this.headingHit = headingHit;
      return best;
    }
    const { sections, counts, from, to, n: nIds } = this.sectionPostings(s, k, sets[k]!);
    const weights = this.matchSets.weights(sets[k]!);
    const headingWeights = this.matchSets.headingWeights(sets[k]!) ?? weights;
    const { body, head } = this.counts(nS);
    const secEnd = sec0 + nS;
    for (let q = 0; q < nIds; q++) {
      let lo = from[q]!;
      let hi = to[q]!;
      if (lo === hi || sections[lo]! >= secEnd || sections[hi - 1]! < sec0) continue;
      while (lo < hi) {
        const m = (lo + hi) >>> 1;
        if (sections[m]! < sec0) lo = m + 1;
        else hi = m;
      }
      const weight = weights ? weights[q]! : 1;
      const headingWeight = headingWeights ? headingWeights[q]! : 1;
      for (let e = lo, end = to[q]!; e < end; e++) {
        const sec = sections[e]!;
        if (sec >= secEnd) break;
        const c = counts[e]!;
        body[sec - sec0]! += weight * (c & SECTION_BODY_MAX);
        head[sec - sec0]! += headingWeight * (c >>> SECTION_BODY_BITS);
      }
    }
    return this.best(nS);
  }
}
