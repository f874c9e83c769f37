// CPU cost of an uncached limited search inside a query worker, measured in one thread with the index loaded from a
// build output: rank + result bytes of the requested slice, once with the full sort of every match and once with the
// bounded heap of offset + limit (top-k.ts). CPU time rather than wall time, so a busy machine skews it less.
//
//   node scripts/lib/bench/top-k-cost.ts <distDir> <corpusContentDir>   (e.g. bench/corpus/dist bench/corpus/content)
//
// Requests: every limited query of the bench's query set (queries.json), its first page and its first cursor page.
import type { ContentType } from '../../../gateway/engine/search/segment.ts';
import { queryTerms } from '../../../gateway/engine/text.ts';
import { benchIndex, mean, percentile } from './bench-index.ts';

const { index, querySet } = benchIndex('top-k-cost.ts');

interface Request { terms: string[]; tag?: ContentType; offset: number; limit: number; kind: string }
const requests: Request[] = [];
for (const q of querySet.queries) {
  const terms = queryTerms(q.query);
  if (q.limit === undefined || terms.length === 0) continue;
  requests.push({ terms, tag: q.tag, offset: 0, limit: q.limit, kind: q.kind }, { terms, tag: q.tag, offset: q.limit, limit: q.limit, kind: q.kind });
}

/** CPU ms of one request, ranked with the heap (topK) or the full sort. */
function run(r: Request, topK: boolean): number {
  const started = process.cpuUsage();
  const ranking = index.rank(r.terms, r.tag, 'all', topK ? r.offset + r.limit : undefined);
  const end = Math.min(ranking.total, r.offset + r.limit);
  if (end > r.offset) {
    const sets = index.matchSets(r.terms);
    index.resultsBytes(ranking.docs.subarray(r.offset, end), ranking.scores.subarray(r.offset, end), ranking.titleMatch.subarray(r.offset, end), r.offset, sets);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

for (const r of requests) run(r, false), run(r, true); // memos and compiled code warm for both
const full: number[] = [];
const heap: number[] = [];
const byKind = new Map<string, { full: number; heap: number; n: number }>();
for (let round = 0; round < 2; round++) {
  requests.forEach((r, i) => {
    const sortFirst = (i + round) % 2 === 0; // alternate which runs first
    const a = sortFirst ? run(r, false) : 0;
    const b = run(r, true);
    const f = sortFirst ? a : run(r, false);
    full.push(f);
    heap.push(b);
    const k = byKind.get(r.kind) ?? { full: 0, heap: 0, n: 0 };
    k.full += f;
    k.heap += b;
    k.n++;
    byKind.set(r.kind, k);
  });
}
console.log(`${requests.length} limited requests (first and cursor page), CPU ms per request, 2 rounds`);
console.log(`full sort:  mean ${mean(full)}  p50 ${percentile(full, 0.5)}  p99 ${percentile(full, 0.99)}  max ${percentile(full, 1)}`);
console.log(`top-k heap: mean ${mean(heap)}  p50 ${percentile(heap, 0.5)}  p99 ${percentile(heap, 0.99)}  max ${percentile(heap, 1)}`);
for (const [kind, v] of byKind) console.log(`  ${kind}: full sort ${(v.full / v.n).toFixed(2)} ms, top-k ${(v.heap / v.n).toFixed(2)} ms (n ${v.n})`);
