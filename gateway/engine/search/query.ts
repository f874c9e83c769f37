/**
 * The query: canonical terms (text.ts queryTerms) → matching pages → scores → ranking, over every segment.
 *
 * Matching: a query term matches its expansions (term-dictionary.ts) in page texts and titles; match 'all' keeps the
 * pages holding every term, 'any' those holding at least one (for natural-language questions), scored down by the
 * share of terms they miss. Scoring: BM25 (k1 1.2, b 0.75) over heading-weighted term frequencies, the expansions of
 * one query term folded into one BM25 term (similarity-weighted frequencies add up; df is their union); pages whose
 * title holds every term rank above all others (shorter titles first); ties by url (top-k.ts).
 *
 * Why per-worker scratch arrays the size of the index, stamped per query: a query touches a few thousand pages of
 * tens of thousands, and allocating or clearing per-page arrays per query would cost more than the scoring.
 */
import { type RankingKeys, TOP_K_MAX, selectTop, sortAll } from './top-k.ts';
import type { Documents } from './documents.ts';
import { CONTENT_TYPES, type ContentType } from './segment.ts';
import type { TermDictionary } from './term-dictionary.ts';

/** Ranked result of a query over the whole index. */
export interface Ranking {
  /** Matching pages (exact even when `docs` is only the top-k prefix of the ranking). */
  total: number;
  /** Global page ids, best first. */
  docs: Int32Array;
  /** Normalized 0..1, non-increasing. */
  scores: Float64Array;
  /** 1 when the page title holds every query term. */
  titleMatch: Uint8Array;
}

export type MatchMode = 'all' | 'any';

const K1 = 1.2;
const B = 0.75;

export class QueryScorer {
  private readonly documents: Documents;
  private readonly dictionary: TermDictionary;
  /** Per page: BM25 sum; query terms matched (anywhere, in the title) and the last term counted for each. */
  private readonly bm25: Float64Array;
  private readonly matched: Uint8Array;
  private readonly lastMatched: Int8Array;
  private readonly titleMatched: Uint8Array;
  private readonly lastTitleMatched: Int8Array;
  /** Per page: the query that last touched it (its scratch values are stale otherwise), and the touched pages. */
  private readonly queryStamp: Int32Array;
  private readonly touched: Int32Array;
  private readonly candidates: Int32Array;
  private readonly finalScores: Float64Array;
  /** Per page, per query term: summed expansion frequencies, the term that last set it, and the pages it holds. */
  private readonly termFrequency: Float64Array;
  private readonly termStamp: Int32Array;
  private readonly termPages: Int32Array;
  private queryNumber = 0;
  private termNumber = 0;

  constructor(documents: Documents, dictionary: TermDictionary) {
    this.documents = documents;
    this.dictionary = dictionary;
    const n = documents.count;
    this.bm25 = new Float64Array(n);
    this.matched = new Uint8Array(n);
    this.lastMatched = new Int8Array(n);
    this.titleMatched = new Uint8Array(n);
    this.lastTitleMatched = new Int8Array(n);
    this.queryStamp = new Int32Array(n);
    this.touched = new Int32Array(n);
    this.candidates = new Int32Array(n);
    this.finalScores = new Float64Array(n);
    this.termFrequency = new Float64Array(n);
    this.termStamp = new Int32Array(n);
    this.termPages = new Int32Array(n);
  }

  /**
   * The ranking of canonical query terms with an optional type filter. topK: only the first topK ranks are returned
   * (`total` still counts every match) — the same pages, order and scores as the full ranking's prefix.
   */
  rank(terms: string[], type?: ContentType, match: MatchMode = 'all', topK?: number): Ranking {
    const empty: Ranking = { total: 0, docs: new Int32Array(0), scores: new Float64Array(0), titleMatch: new Uint8Array(0) };
    const nT = terms.length;
    const documents = this.documents;
    if (nT === 0 || documents.count === 0) return empty;
    const typeFilter = type === undefined ? -1 : CONTENT_TYPES.indexOf(type);
    const stamp = ++this.queryNumber;
    const { bm25, matched, lastMatched, titleMatched, lastTitleMatched, queryStamp, touched, termFrequency, termStamp, termPages } = this;
    const lengths = documents.lengths;
    let nTouched = 0;
    const N = documents.count;
    const averageLength = documents.averageLength;
    const touch = (d: number) => {
      if (queryStamp[d] !== stamp) {
        queryStamp[d] = stamp;
        bm25[d] = 0;
        matched[d] = 0;
        lastMatched[d] = -1;
        titleMatched[d] = 0;
        lastTitleMatched[d] = -1;
        touched[nTouched++] = d;
      }
    };
    const segments = documents.segments;
    for (let ti = 0; ti < nT; ti++) {
      const expansions = this.dictionary.expansions(terms[ti]!);
      if (expansions.length === 0) {
        if (match === 'all') return empty; // every term must match: one without any match means no results
        continue;
      }
      const termNumber = ++this.termNumber;
      let nt = 0;
      for (const v of expansions) {
        for (let k = 0; k < segments.length; k++) {
          const id = v.ids[k]!;
          if (id < 0) continue;
          const s = segments[k]!;
          const base = documents.segmentBase[k]!;
          const { bodyPostingsStart, bodyPostingPages, bodyPostingFrequencies, titlePostingsStart, titlePostingPages } = s;
          for (let e = bodyPostingsStart[id]!, end = bodyPostingsStart[id + 1]!; e < end; e++) {
            const d = base + bodyPostingPages[e]!;
            if (termStamp[d] !== termNumber) {
              termStamp[d] = termNumber;
              termFrequency[d] = 0;
              termPages[nt++] = d;
            }
            termFrequency[d]! += v.similarity * (bodyPostingFrequencies[e]! * 0.5);
          }
          for (let e = titlePostingsStart[id]!, end = titlePostingsStart[id + 1]!; e < end; e++) {
            const d = base + titlePostingPages[e]!;
            touch(d);
            if (lastTitleMatched[d] !== ti) {
              lastTitleMatched[d] = ti;
              titleMatched[d]!++;
            }
            if (lastMatched[d] !== ti) {
              lastMatched[d] = ti;
              matched[d]!++;
            }
          }
        }
      }
      const w = Math.log(1 + (N - nt + 0.5) / (nt + 0.5)) * (K1 + 1);
      for (let j = 0; j < nt; j++) {
        const d = termPages[j]!;
        touch(d);
        const f = termFrequency[d]!;
        bm25[d]! += (w * f) / (f + K1 * (1 - B + (B * lengths[d]!) / averageLength));
        if (lastMatched[d] !== ti) {
          lastMatched[d] = ti;
          matched[d]!++;
        }
      }
    }
    const candidates = this.candidates;
    let nc = 0;
    let maxBody = 0;
    const fin = this.finalScores;
    const need = match === 'all' ? nT : 1;
    for (let k = 0; k < nTouched; k++) {
      const d = touched[k]!;
      if (matched[d]! < need) continue;
      if (typeFilter >= 0 && documents.types[d] !== typeFilter) continue;
      candidates[nc++] = d;
      if (titleMatched[d] !== nT) {
        const coverage = matched[d]! / nT;
        const s = bm25[d]! * (1 + (0.5 * titleMatched[d]!) / nT) * coverage * coverage;
        fin[d] = s;
        if (s > maxBody) maxBody = s;
      }
    }
    // title tier: above every other page; shorter titles (the query is more of the title) first
    let max = 0;
    for (let k = 0; k < nc; k++) {
      const d = candidates[k]!;
      if (titleMatched[d] === nT) fin[d] = (bm25[d]! + maxBody) * (1 + nT / Math.max(nT, documents.titleTerms(d)));
      if (fin[d]! > max) max = fin[d]!;
    }
    const keys: RankingKeys = {
      scores: fin, titleMatches: titleMatched, termCount: nT, urlRank: documents.urlRank, byUrlRank: documents.byUrlRank, urlRankBits: documents.urlRankBits,
    };
    const nOut = topK !== undefined && topK < nc ? Math.max(0, Math.floor(topK)) : nc;
    const docs = nOut === nc ? sortAll(keys, candidates, nc) : nOut <= TOP_K_MAX ? selectTop(keys, candidates, nc, nOut) : sortAll(keys, candidates, nc).slice(0, nOut);
    const scores = new Float64Array(nOut);
    const titleMatch = new Uint8Array(nOut);
    for (let r = 0; r < nOut; r++) {
      const d = docs[r]!;
      scores[r] = max > 0 ? Math.round((fin[d]! / max) * 1e6) / 1e6 : 1;
      titleMatch[r] = titleMatched[d] === nT ? 1 : 0;
    }
    // a title match with a zero body score can tie the best body score: keep scores non-increasing anyway
    for (let r = 1; r < nOut; r++) if (scores[r]! > scores[r - 1]!) scores[r] = scores[r - 1]!;
    return { total: nc, docs, scores, titleMatch };
  }
}
