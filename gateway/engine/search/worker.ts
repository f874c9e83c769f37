/**
 * Search worker thread. Protocol (request → reply, correlated by `id`):
 *   install     { files: SegmentFile[] }  → page count (segments' hot parts, shared between all workers, and open files)
 *   search      { terms, tag, match, offset, limit, body?, topK? } → { total, docs, scores, titleMatch, hits: [rank, SearchHit][], body?, corrections }
 *               (with `body`: the slice as the search API's JSON array, UTF-8 bytes — transferred, not copied — and
 *               no hits; with `topK`: docs/scores/titleMatch are only the first topK ranks — the full ranking's
 *               prefix, selected with a bounded heap, no sort of every match — while `total` always counts every match;
 *               corrections: [term, Correction[]][] for the terms the index does not hold, term-dictionary.ts)
 *   materialize { terms, items: [doc, score, titleMatch, rank][] } → SearchHit[]
 *   body        { terms, docs, scores, titleMatch, from } → Uint8Array (the JSON array of ranks from.., transferred)
 *   flushCompileCache {}              → true (writes this thread's part of Node's compile cache: the build's warm-up,
 *                                      gateway/compile-cache.ts; a terminated worker writes nothing)
 * Replies: { id, ok: true, result } | { id, ok: false, error: { message, stack } }.
 */
import { flushCompileCache } from 'node:module';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { type SegmentFile, segmentFromFile } from './index-file.ts';
import { SearchIndex } from './search-index.ts';
import { type ContentType, FULL_EXCERPT_RANKS, type SearchHit } from './segment.ts';

type Req =
  | { id: number; op: 'install'; files: SegmentFile[] }
  | { id: number; op: 'search'; terms: string[]; tag?: ContentType; match?: 'all' | 'any'; offset: number; limit?: number; body?: boolean; topK?: number }
  | { id: number; op: 'materialize'; terms: string[]; items: [number, number, number, number][] }
  | { id: number; op: 'body'; terms: string[]; docs: Int32Array; scores: Float64Array; titleMatch: Uint8Array; from: number }
  | { id: number; op: 'flushCompileCache' };

/** Niceness of a query thread (0 normal … 19 lowest). */
const QUERY_THREAD_NICE = 10;

let index: SearchIndex | undefined;

function need(): SearchIndex {
  if (!index) throw new Error('search worker: index not installed');
  return index;
}

// Below the event loop: on Linux a thread's nice value is its own, so this lowers only this query thread. With
// more busy threads than cores, the main thread (cached answers, static files, every other route) then gets the
// CPU first and a long query waits instead of stalling it. Best effort: not every platform allows it.
try {
  setPriority(QUERY_THREAD_NICE);
} catch {
  /* keep the default priority */
}

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');

port.on('message', (req: Req) => {
  try {
    switch (req.op) {
      case 'install': {
        index = new SearchIndex(req.files.map(segmentFromFile));
        port.postMessage({ id: req.id, ok: true, result: index.nDocs });
        return;
      }
      case 'search': {
        const idx = need();
        const r = idx.rank(req.terms, req.tag, req.match ?? 'all', req.topK);
        const total = r.total;
        const end = req.limit === undefined ? total : Math.min(total, req.offset + req.limit);
        const hits: [number, SearchHit][] = [];
        let body: Uint8Array | undefined;
        if (req.body) {
          const sets = end > req.offset ? idx.matchSets(req.terms) : [];
          const from = Math.min(req.offset, end);
          body = idx.resultsBytes(r.docs.subarray(from, end), r.scores.subarray(from, end), r.titleMatch.subarray(from, end), from, sets);
        } else if (end > req.offset) {
          const sets = idx.matchSets(req.terms);
          for (let k = req.offset; k < end; k++) hits.push([k, idx.hit(r.docs[k]!, r.scores[k]!, r.titleMatch[k] === 1, sets, k < FULL_EXCERPT_RANKS)]);
        }
        const transfer = [r.docs.buffer, r.scores.buffer, r.titleMatch.buffer] as ArrayBuffer[];
        if (body) transfer.push(body.buffer as ArrayBuffer);
        const corrections = idx.corrections(req.terms);
        port.postMessage({ id: req.id, ok: true, result: { total, docs: r.docs, scores: r.scores, titleMatch: r.titleMatch, hits, body, corrections } }, transfer);
        return;
      }
      case 'materialize': {
        const idx = need();
        const sets = idx.matchSets(req.terms);
        const hits = req.items.map(([doc, score, tm, rank]) => idx.hit(doc, score, tm === 1, sets, rank < FULL_EXCERPT_RANKS));
        port.postMessage({ id: req.id, ok: true, result: hits });
        return;
      }
      case 'body': {
        const idx = need();
        const sets = req.docs.length > 0 ? idx.matchSets(req.terms) : [];
        const body = idx.resultsBytes(req.docs, req.scores, req.titleMatch, req.from, sets);
        port.postMessage({ id: req.id, ok: true, result: body }, [body.buffer as ArrayBuffer]);
        return;
      }
      case 'flushCompileCache': {
        flushCompileCache();
        port.postMessage({ id: req.id, ok: true, result: true });
        return;
      }
      default:
        throw new Error(`search worker: unknown op ${(req as { op: string }).op}`);
    }
  } catch (err) {
    const e = err as Error;
    port.postMessage({ id: (req as { id: number }).id, ok: false, error: { message: e?.message ?? String(err), stack: e?.stack } });
  }
});
