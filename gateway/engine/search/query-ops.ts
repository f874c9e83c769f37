/**
 * The query protocol of a search index (request → reply), one function for every place an index answers: a query
 * worker thread (worker.ts) and the in-thread pool of a small index (in-thread-pool.ts).
 *   install     { files: SegmentFile[] }  → page count (segments' hot parts, shared between all workers, and open files)
 *   search      { terms, joinWords?, tag, match, offset, limit, body?, topK? } → { total, docs, scores, titleMatch, hits: [rank, SearchHit][], body?, corrections, termPages }
 *               (with `body`: the slice as the search API's JSON array, UTF-8 bytes — transferred, not copied — and
 *               no hits; with `topK`: docs/scores/titleMatch are only the first topK ranks — the full ranking's
 *               prefix, selected with a bounded heap, no sort of every match — while `total` always counts every match;
 *               corrections: [term, Correction[]][] for the misspelt terms, term-dictionary.ts; termPages: the pages
 *               holding each term, Ranking.termPages, for the answerer's word weights)
 *   materialize { terms, joinWords?, items: [doc, score, titleMatch, rank][] } → SearchHit[]
 *   body        { terms, joinWords?, docs, scores, titleMatch, from } → Uint8Array (the JSON array of ranks from.., transferred)
 * Every reply's arrays are its own (fresh allocations), so a worker can transfer them and a caller in the same thread
 * can keep them.
 */
import { type SegmentFile, segmentFromFile } from './index-file.ts';
import { SearchIndex } from './search-index.ts';
import { type ContentType, FULL_EXCERPT_RANKS, type SearchHit } from './segment.ts';

export type QueryRequest =
  | { op: 'install'; files: SegmentFile[] }
  | { op: 'search'; terms: string[]; joinWords?: string[]; tag?: ContentType; match?: 'all' | 'any'; offset: number; limit?: number; body?: boolean; topK?: number }
  | { op: 'materialize'; terms: string[]; joinWords?: string[]; items: [number, number, number, number][] }
  | { op: 'body'; terms: string[]; joinWords?: string[]; docs: Int32Array; scores: Float64Array; titleMatch: Uint8Array; from: number };

/** What answers queries: the index once installed. */
export interface QueryState { index?: SearchIndex }

/** A reply and the buffers a worker may transfer with it. */
export interface QueryReply { result: unknown; transfer: ArrayBuffer[] }

function need(state: QueryState): SearchIndex {
  if (!state.index) throw new Error('search worker: index not installed');
  return state.index;
}

/** Answers one request; throws what the caller reports as the request's error. */
export function answerQuery(state: QueryState, req: QueryRequest): QueryReply {
  switch (req.op) {
    case 'install': {
      state.index = new SearchIndex(req.files.map(segmentFromFile));
      return { result: state.index.nDocs, transfer: [] };
    }
    case 'search': {
      const idx = need(state);
      const r = idx.rank(req.terms, req.tag, req.match ?? 'all', req.topK, req.joinWords);
      const total = r.total;
      const end = req.limit === undefined ? total : Math.min(total, req.offset + req.limit);
      const hits: [number, SearchHit][] = [];
      let body: Uint8Array | undefined;
      if (req.body) {
        const sets = end > req.offset ? idx.matchSets(req.terms, req.joinWords) : [];
        const from = Math.min(req.offset, end);
        body = idx.resultsBytes(r.docs.subarray(from, end), r.scores.subarray(from, end), r.titleMatch.subarray(from, end), from, sets);
      } else if (end > req.offset) {
        const sets = idx.matchSets(req.terms, req.joinWords);
        for (let k = req.offset; k < end; k++) hits.push([k, idx.hit(r.docs[k]!, r.scores[k]!, r.titleMatch[k] === 1, sets, k < FULL_EXCERPT_RANKS)]);
      }
      const transfer = [r.docs.buffer, r.scores.buffer, r.titleMatch.buffer, r.termPages.buffer] as ArrayBuffer[];
      if (body) transfer.push(body.buffer as ArrayBuffer);
      const corrections = idx.corrections(req.terms);
      return { result: { total, docs: r.docs, scores: r.scores, titleMatch: r.titleMatch, termPages: r.termPages, hits, body, corrections }, transfer };
    }
    case 'materialize': {
      const idx = need(state);
      const sets = idx.matchSets(req.terms, req.joinWords);
      return { result: req.items.map(([doc, score, tm, rank]) => idx.hit(doc, score, tm === 1, sets, rank < FULL_EXCERPT_RANKS)), transfer: [] };
    }
    case 'body': {
      const idx = need(state);
      const sets = req.docs.length > 0 ? idx.matchSets(req.terms, req.joinWords) : [];
      const body = idx.resultsBytes(req.docs, req.scores, req.titleMatch, req.from, sets);
      return { result: body, transfer: [body.buffer as ArrayBuffer] };
    }
    default:
      throw new Error(`search worker: unknown op ${(req as { op: string }).op}`);
  }
}
