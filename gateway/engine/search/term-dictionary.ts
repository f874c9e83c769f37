/**
 * The vocabulary: a query term's expansions in the segments' term dictionaries (sorted term lists). A query term
 * matches its exact form plus up to `maxExpansions` prefix expansions, the most frequent first, each with a
 * similarity weight and its term id in every segment. A term no segment holds exactly also matches its typo
 * neighbours (typo-index.ts: one edit from 4 characters, two from 9) as expansions of the same shape, weighted below
 * every exact and prefix match (TYPO_SIMILARITY), so a query whose terms all exist ranks exactly as without them. So
 * does a rare term (on at most RARE_TERM_PAGES pages) whose neighbour is common (RARE_NEIGHBOUR_RATIO times as many
 * pages): the docs' own misspelling of a word, or a real word the reader did not mean, does not hide the common one.
 * A term's related words (synonyms.ts: `limit` → `max`) join its expansions too, with their own exact and prefix
 * expansions weighted by RELATED_WEIGHT. Apart from expansions, joinedTerms finds the compound query terms form
 * (`describe skip`: `describeskip`, the term of `describe.skip`), for the match set (match-set.ts).
 *
 * Why the typo index is read from the segment: it is built with the segment (segment-builder.ts, at build time) and
 * shared like the rest of it, so the first fuzzy query costs what later ones do — a few dozen binary searches.
 *
 * Why a threshold algorithm: compound identifiers give a common prefix thousands of expansions ('request…': ≈2,700
 * per segment), and decoding every one to rank them costs ms per query; the expansions are visited by weight and the
 * walk stops once the top is known. Expansions are memoized per worker: a query's ranking and its match sets, and
 * repeated terms, share them.
 */
import type { List, SegmentData } from './segment.ts';
import { inflectionSlips, isTypoTarget, namedTerm, typoMatches, type TypoIndexData } from './typo-index.ts';
import { BoundedMemo } from '../lru.ts';
import { RELATED_WEIGHT, relatedTerms } from '../synonyms.ts';
import { stem } from '../text.ts';

/** A term's expansion: its text, similarity to the query term (1 exact), and its id per segment (-1 absent). */
export interface Expansion { term: string; similarity: number; ids: Int32Array }

/** A word of the index that a misspelt query term stands for, and how close it is (TYPO_SIMILARITY by edits). */
export interface Correction { term: string; similarity: number }

/** Corrections of one query term handed on (to the answerer): the nearest, then the most frequent, first. */
const MAX_CORRECTIONS = 3;

const MEMO_MAX = 20_000;
/**
 * What a compound's index term holds between two stemmed query words (joinedTerms): nothing (`vi` `spyon`), or the
 * ending the stemmer took from the first (text.ts stem): `describ` `e` `skip`, `optimizedep` `s` `includ`, `css`
 * `modul` `es` `classnamestrategy`, `experimental` `importdur` `ations` `threshold`.
 */
const JOINERS = ['', 'e', 's', 'es', 'ation', 'ations'] as const;
/** At most this many query terms joined into one (`import meta hot accept`: `import.meta.hot.accept`). */
const JOINED_MAX_PARTS = 4;
const EMPTY_RANGE = [0, 0] as const;
/** Similarity of a typo expansion by edit distance: well below an exact match, one edit above two. */
const TYPO_SIMILARITY = [1, 0.5, 0.3] as const;
/** A term on at most this many pages is rare: its typo neighbours on RARE_NEIGHBOUR_RATIO times as many pages join it. */
const RARE_TERM_PAGES = 3;
const RARE_NEIGHBOUR_RATIO = 20;
/**
 * A rare term this short keeps to itself: a 4-character word has many real neighbours one edit away (`mock`, `lock`,
 * `rock`), so only a term the index does not hold at all (a typo) gets them.
 */
const RARE_TYPO_MIN_LENGTH = 5;


function typoIndexOf(segment: SegmentData): TypoIndexData {
  return { hashes: segment.typoHashes, termIds: segment.typoTermIds };
}
/**
 * Prefixes with at most this many expansions (all segments) are scanned; beyond, the threshold algorithm, until it
 * has seen more than 1/THRESHOLD_SHARE of them (a seen word costs ≈ a binary search per segment, a scanned one a
 * decode: then the scan is cheaper).
 */
const SCAN_MAX = 512;
const THRESHOLD_SHARE = 12;

export class TermDictionary {
  private readonly segments: SegmentData[];
  private readonly maxExpansions: number;
  /** Per query term: every expansion, and the typo neighbours among them before prefix duplicates were dropped. */
  private readonly memo = new BoundedMemo<string, { all: Expansion[]; neighbours: Expansion[] }>(MEMO_MAX);
  private readonly joinedMemo = new BoundedMemo<string, Expansion[]>(MEMO_MAX);
  private readonly joinerMemo = new BoundedMemo<string, string[]>(MEMO_MAX);
  /** Per term: per segment, the run [lo, hi) of the words beginning with it (expansions and joinedTerms). */
  private readonly prefixRanges = new BoundedMemo<string, (readonly [number, number])[]>(MEMO_MAX);

  constructor(segments: SegmentData[], maxExpansions: number) {
    this.segments = segments;
    this.maxExpansions = maxExpansions;
  }

  /** The exact term (when present) and up to maxExpansions prefix expansions, most frequent first. */
  expansions(term: string): Expansion[] {
    return this.memoized(term).all;
  }

  private memoized(term: string): { all: Expansion[]; neighbours: Expansion[] } {
    let entry = this.memo.get(term);
    if (entry === undefined) {
      let out = this.compute(term);
      const have = new Set(out.map((e) => e.term));
      const neighbours = this.typoNeighbours(term, out);
      // neighbours that are not prefix expansions already (`middlewar` expands to `middleware` both ways)
      const typos = neighbours.filter((e) => !have.has(e.term));
      for (const e of typos) have.add(e.term);
      if (typos.length) out = [...out, ...typos];
      const related = relatedTerms(term);
      if (related.length) out = [...out, ...this.relatedExpansions(related, have)];
      entry = this.memo.remember(term, { all: out, neighbours });
    }
    return entry;
  }

  /**
   * The index terms two or more of `terms` form joined, in any order (JOINERS between them: `describ` `e` `skip` is
   * `describeskip`, the term of `describe.skip`; `bun` `cron` `pars` is `buncronpars`, of `Bun.cron.parse`), with
   * their ids per segment (-1 absent). A candidate is looked up within the run of words that begin with the words
   * joined so far, and one that begins no word is not extended: a query pays a binary search per term and segment, a
   * few steps per pair, and little more for longer names. The last word is also tried with the ending the stemmer took
   * from it, as a compound the stemmer did not touch keeps it (`S3Client.write`: `s3clientwrite`, not `s3clientwrit`).
   * `joinWords`, the stopwords of the query (text.ts queryJoinWords), join too, beside at least one of `queryTerms`
   * (`describ` `for` is `describefor`, of `describe.for`). The runs of single terms are memoized, the result per
   * term list.
   */
  joinedTerms(queryTerms: readonly string[], joinWords: readonly string[] = []): readonly Expansion[] {
    const key = joinWords.length ? `${queryTerms.join(' ')}\u0001${joinWords.join(' ')}` : queryTerms.join(' ');
    let out = this.joinedMemo.get(key);
    if (out !== undefined) return out;
    const terms = joinWords.length ? [...queryTerms, ...joinWords] : queryTerms;
    /** The bits of `terms` that are query terms: a name joins at least one (not stopwords alone). */
    const termBits = (1 << queryTerms.length) - 1;
    const found: Expansion[] = [];
    /** Which of `terms` each found name joins (bit per term). */
    const wordsOf = new Map<string, number>();
    const S = this.segments.length;
    const keep = (term: string, ids: Int32Array, joined: number) => {
      if (found.some((e) => e.term === term)) return;
      found.push({ term, similarity: 1, ids });
      wordsOf.set(term, joined);
    };
    const extend = (text: string, last: string, used: number, parts: number, ranges: readonly (readonly [number, number])[]) => {
      const joiners = this.joinersAfter(last);
      // the run of words beginning with a candidate is needed only when a further term can extend it
      const extensible = parts + 1 < Math.min(JOINED_MAX_PARTS, terms.length);
      for (let u = 0; u < terms.length; u++) {
        if (used & (1 << u)) continue;
        for (const joiner of joiners) {
          const candidate = text + joiner + terms[u]!;
          let begins = false;
          let ids: Int32Array | undefined;
          const next = ranges.map(([lo, hi], k): readonly [number, number] => {
            if (lo === hi) return EMPTY_RANGE;
            const words = this.segments[k]!.terms;
            const from = lowerBound(words, candidate, lo, hi);
            if (from < hi && words.at(from) === candidate) {
              ids ??= new Int32Array(S).fill(-1);
              ids[k] = from;
            }
            if (!extensible) return EMPTY_RANGE;
            const to = prefixEnd(words, candidate, from);
            if (from === to) return EMPTY_RANGE;
            begins = true;
            return [from, to];
          });
          const joinedWords = used | (1 << u);
          // a name joins at least one query term, not stopwords alone
          if ((joinedWords & termBits) !== 0) {
            if (ids) keep(candidate, ids, joinedWords);
            // the last word with the ending the stemmer took, which a compound the stemmer left whole keeps
            // (`bun` `json5` `pars`: `bunjson5parse`, the term of `Bun.JSON5.parse()`), and the compound stemmed as a
            // whole, as the index stems it (`server` `ws`: `serverw`, the term of `server.ws`)
            for (const whole of this.wholeForms(candidate, terms[u]!)) {
              let wholeIds: Int32Array | undefined;
              ranges.forEach(([lo, hi], k) => {
                const words = this.segments[k]!.terms;
                const at = lowerBound(words, whole, lo, hi);
                if (at < hi && words.at(at) === whole) (wholeIds ??= new Int32Array(S).fill(-1))[k] = at;
              });
              if (wholeIds) keep(whole, wholeIds, joinedWords);
            }
          }
          if (begins) extend(candidate, terms[u]!, joinedWords, parts + 1, next);
        }
      }
    };
    terms.forEach((first, t) => {
      const ranges = this.prefixRangesOf(first);
      if (ranges.some(([lo, hi]) => lo < hi)) extend(first, first, 1 << t, 1, ranges);
    });
    // a name the query names in full, not the shorter one it begins with (`import.meta.hot.accept`, not
    // `import.meta.hot`, whose heading would count as much), nor one joining fewer of its words
    // (`S3Client prototype write`: `S3Client.prototype.write`, not `S3Client.write`)
    const joinsMore = (longer: Expansion, e: Expansion) => {
      const a = wordsOf.get(longer.term)!;
      const b = wordsOf.get(e.term)!;
      return a !== b && (a & b) === b;
    };
    out = found.filter((e) => !found.some((longer) => (longer.term.length > e.term.length && longer.term.startsWith(e.term)) || joinsMore(longer, e)));
    return this.joinedMemo.remember(key, out);
  }

  /** Per segment, the run [lo, hi) of the words beginning with `term` (memoized). */
  private prefixRangesOf(term: string): readonly (readonly [number, number])[] {
    let ranges = this.prefixRanges.get(term);
    if (ranges === undefined) {
      ranges = this.prefixRanges.remember(term, this.segments.map((s) => {
        const lo = lowerBound(s.terms, term);
        return [lo, prefixEnd(s.terms, term, lo)] as const;
      }));
    }
    return ranges;
  }

  /** The other forms a compound ending in `last` may have in the index: `last` with an ending the stemmer took, or the compound stemmed. */
  private wholeForms(candidate: string, last: string): string[] {
    const out: string[] = [];
    for (const ending of this.joinersAfter(last)) if (ending !== '') out.push(candidate + ending);
    const stemmed = stem(candidate);
    if (stemmed !== candidate && !out.includes(stemmed)) out.push(stemmed);
    return out;
  }

  /** The JOINERS that may follow a stemmed word in a compound: an ending only after a word the stemmer takes it from. */
  private joinersAfter(word: string): readonly string[] {
    let joiners = this.joinerMemo.get(word);
    if (joiners === undefined) joiners = this.joinerMemo.remember(word, JOINERS.filter((joiner) => joiner === '' || stem(word + joiner) === word));
    return joiners;
  }

  /** The typo neighbours among the term's expansions (see typoNeighbours): empty for a term the index holds often enough. */
  typoNeighboursOf(term: string): readonly Expansion[] {
    return this.memoized(term).neighbours;
  }

  /**
   * What a misspelt query term stands for: the typo neighbours it matches (a term the index does not hold, or a rare
   * one with a common neighbour: `sever`, in the docs as the stem of "severe", beside `server`), at most
   * MAX_CORRECTIONS, the nearest and most frequent first. Empty for every other term.
   */
  corrections(term: string): Correction[] {
    return this.memoized(term)
      .neighbours.slice(0, MAX_CORRECTIONS)
      .map((e) => ({ term: e.term, similarity: e.similarity }));
  }

  /**
   * The typo neighbours a term matches, given its expansions (`own`, the exact term first when present): all of them
   * for a term no segment holds, the common ones for a rare term (see the module comment), none otherwise.
   */
  private typoNeighbours(term: string, own: readonly Expansion[]): Expansion[] {
    const exact = own[0]?.similarity === 1 ? this.pages(own[0].ids) : 0;
    if (exact > RARE_TERM_PAGES || (exact > 0 && term.length < RARE_TYPO_MIN_LENGTH)) return [];
    return this.typoExpansions(term, exact * RARE_NEIGHBOUR_RATIO);
  }

  /**
   * Expansions of a query term's related words (synonyms.ts): each word's own expansions (exact and prefix) weighted
   * by RELATED_WEIGHT, those the term has already left out.
   */
  private relatedExpansions(related: readonly string[], have: Set<string>): Expansion[] {
    const out: Expansion[] = [];
    for (const word of related) {
      for (const e of this.compute(word)) {
        if (have.has(e.term)) continue;
        have.add(e.term);
        out.push({ term: e.term, similarity: e.similarity * RELATED_WEIGHT, ids: e.ids });
      }
    }
    return out;
  }

  /**
   * The term's typo neighbours merged across segments, the nearest then the most frequent first, at most
   * maxExpansions of them.
   */
  private typoExpansions(term: string, minPages = 0): Expansion[] {
    const S = this.segments.length;
    const found = new Map<string, { distance: number; weight: number; ids: Int32Array }>();
    this.segments.forEach((segment, k) => {
      for (const match of typoMatches(typoIndexOf(segment), term, (id) => segment.terms.at(id)!)) {
        const text = segment.terms.at(match.termId)!;
        let entry = found.get(text);
        if (!entry) {
          entry = { distance: match.distance, weight: 0, ids: new Int32Array(S).fill(-1) };
          found.set(text, entry);
        }
        entry.ids[k] = match.termId;
        entry.weight += this.weight(k, match.termId);
      }
    });
    // a slip in an ending the stemmer would take off (`tesitng` for `testing`, indexed as `test`)
    for (const candidate of inflectionSlips(term, stem)) {
      if (found.get(candidate)?.distance === 1) continue;
      const ids = new Int32Array(S).fill(-1);
      let weight = 0;
      let named = false;
      this.segments.forEach((segment, k) => {
        const id = findIn(segment.terms, candidate, 0, segment.terms.length);
        if (id < 0) return;
        ids[k] = id;
        weight += this.weight(k, id);
        named ||= namedTerm(segment, id);
      });
      if (weight > 0 && isTypoTarget(candidate, weight, named)) found.set(candidate, { distance: 1, weight, ids });
    }
    return [...found.entries()]
      .filter(([, entry]) => entry.weight >= minPages)
      .sort((a, b) => a[1].distance - b[1].distance || b[1].weight - a[1].weight || (a[0] < b[0] ? -1 : 1))
      .slice(0, this.maxExpansions)
      .map(([text, entry]) => ({ term: text, similarity: TYPO_SIMILARITY[entry.distance]!, ids: entry.ids }));
  }

  /** Pages (body plus title postings) of a term with these ids per segment. */
  private pages(ids: Int32Array): number {
    let n = 0;
    for (let k = 0; k < ids.length; k++) if (ids[k]! >= 0) n += this.weight(k, ids[k]!);
    return n;
  }

  /** Body plus title document frequency of term id `id` in segment k: an expansion's weight. */
  private weight(k: number, id: number): number {
    const s = this.segments[k]!;
    return s.bodyPostingsStart[id + 1]! - s.bodyPostingsStart[id]! + s.titlePostingsStart[id + 1]! - s.titlePostingsStart[id]!;
  }

  /**
   * Threshold algorithm over each segment's expansions by weight desc: a word not seen by round r weighs at most the
   * sum of the round-r weights, so once maxExpansions seen words weigh more, the top is known (ties with unseen words:
   * the exact scan).
   */
  private compute(term: string): Expansion[] {
    const segs = this.segments;
    const S = segs.length;
    const lo = new Int32Array(S);
    const hi = new Int32Array(S);
    let n = 0;
    this.prefixRangesOf(term).forEach(([from, to], k) => {
      lo[k] = from;
      hi[k] = to;
      n += to - from;
    });
    if (n <= SCAN_MAX) return this.scan(term, lo, hi);
    const byWeight = segs.map((_, k) => {
      const ids = new Int32Array(hi[k]! - lo[k]!);
      for (let j = 0; j < ids.length; j++) ids[j] = lo[k]! + j;
      const w = new Int32Array(ids.length);
      for (let j = 0; j < ids.length; j++) w[j] = this.weight(k, ids[j]!);
      return ids.sort((a, b) => w[b - lo[k]!]! - w[a - lo[k]!]! || a - b);
    });
    const seen = new Map<string, { w: number; ids: Int32Array }>();
    const rounds = Math.max(...byWeight.map((a) => a.length));
    let done = false;
    for (let r = 0; r < rounds && !done; r++) {
      if (seen.size * THRESHOLD_SHARE > n) return this.scan(term, lo, hi); // a flat tail: the scan is cheaper
      let threshold = 0;
      for (let k = 0; k < S; k++) {
        if (r >= byWeight[k]!.length) continue;
        const id = byWeight[k]![r]!;
        threshold += this.weight(k, id);
        const w = segs[k]!.terms.at(id)!;
        if (w === term || seen.has(w)) continue;
        const ids = new Int32Array(S).fill(-1);
        let total = 0;
        for (let k2 = 0; k2 < S; k2++) {
          const j = k2 === k ? id : findIn(segs[k2]!.terms, w, lo[k2]!, hi[k2]!);
          if (j >= 0) {
            ids[k2] = j;
            total += this.weight(k2, j);
          }
        }
        seen.set(w, { w: total, ids });
      }
      let above = 0;
      for (const e of seen.values()) if (e.w > threshold) above++;
      done = above >= this.maxExpansions;
    }
    const out: Expansion[] = [];
    const exactIds = new Int32Array(S).fill(-1);
    let hasExact = false;
    for (let k = 0; k < S; k++) {
      if (lo[k]! < hi[k]! && segs[k]!.terms.at(lo[k]!) === term) {
        exactIds[k] = lo[k]!;
        hasExact = true;
      }
    }
    if (hasExact) out.push({ term, similarity: 1, ids: exactIds });
    const prefixed = [...seen.entries()].sort((a, b) => b[1].w - a[1].w || (a[0] < b[0] ? -1 : 1)).slice(0, this.maxExpansions);
    for (const [w, e] of prefixed) out.push({ term: w, similarity: prefixSimilarity(term, w), ids: e.ids });
    return out;
  }

  /** Every expansion of the prefix decoded and merged across segments (few expansions, or a flat weight tail). */
  private scan(term: string, lo: Int32Array, hi: Int32Array): Expansion[] {
    const found = new Map<string, { weight: number; ids: Int32Array }>();
    const S = this.segments.length;
    this.segments.forEach((s, k) => {
      for (let j = lo[k]!; j < hi[k]!; j++) {
        const w = s.terms.at(j)!;
        let e = found.get(w);
        if (!e) {
          e = { weight: 0, ids: new Int32Array(S).fill(-1) };
          found.set(w, e);
        }
        e.ids[k] = j;
        e.weight += this.weight(k, j);
      }
    });
    const out: Expansion[] = [];
    const exact = found.get(term);
    if (exact) out.push({ term, similarity: 1, ids: exact.ids });
    const prefixed = [...found.entries()]
      .filter(([w]) => w !== term)
      .sort((a, b) => b[1].weight - a[1].weight || (a[0] < b[0] ? -1 : 1))
      .slice(0, this.maxExpansions);
    for (const [w, e] of prefixed) out.push({ term: w, similarity: prefixSimilarity(term, w), ids: e.ids });
    return out;
  }
}

/** A prefix expansion weighs between 0.2 and 0.8 by how much of it the query term is. */
function prefixSimilarity(term: string, expansion: string): number {
  return 0.2 + (0.6 * term.length) / expansion.length;
}

/** End of the run of words starting with `prefix` that begins at `from` (the dictionary is sorted). */
function prefixEnd(arr: List<string>, prefix: string, from: number): number {
  // galloping: most prefixes have few expansions
  let lo = from;
  let step = 1;
  while (lo < arr.length && arr.at(lo)!.startsWith(prefix)) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(lo, arr.length);
  lo = Math.max(from, lo - (step >> 1));
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (arr.at(m)!.startsWith(prefix)) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** Index of `x` in the sorted range [lo, hi) of arr, or -1. */
function findIn(arr: List<string>, x: string, lo: number, hi: number): number {
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    const w = arr.at(m)!;
    if (w === x) return m;
    if (w < x) lo = m + 1;
    else hi = m;
  }
  return -1;
}

/** The first index of the sorted range [lo, hi) of arr whose word is not below `x` (hi when none). */
function lowerBound(arr: List<string>, x: string, lo = 0, hi = arr.length): number {
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (arr.at(m)! < x) lo = m + 1;
    else hi = m;
  }
  return lo;
}
