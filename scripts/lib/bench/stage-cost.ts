// CPU cost of the stages of an uncached limited search inside a query worker, as the search API sends it (match
// 'any', the limits of the bench's limited phase), measured in one thread with the index loaded from a build output:
// rank (the top-k), the query's match sets, the result bytes of the slice. CPU time rather than wall time, so a busy
// machine skews it less; the last of [rounds] rounds is reported (the first reads the cold arrays from disk).
//
//   node scripts/lib/bench/stage-cost.ts <distDir> <corpusContentDir> [rounds]   (e.g. bench/corpus/dist bench/corpus/content 2)
import type { ContentType } from '../../../gateway/engine/search/segment.ts';
import { queryTerms } from '../../../gateway/engine/text.ts';
import { benchIndex, mean, percentile } from './bench-index.ts';
import { limitedQueries } from './load.ts';

const { index, querySet, extra } = benchIndex('stage-cost.ts');
const rounds = Math.max(1, Number(extra ?? 1));

interface Request { terms: string[]; tag?: ContentType; limit: number; kind: string }
const requests: Request[] = [];
for (const q of limitedQueries(querySet.queries, 'agent-docs:limits')) {
  const terms = queryTerms(q.query);
  if (terms.length > 0) requests.push({ terms, tag: q.tag, limit: q.limit!, kind: q.kind });
}
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const byKind = new Map<string, { n: number; rank: number; sets: number; bytes: number; total: number }>();
const all: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const r of requests) {
    const t0 = cpuMs();
    const ranking = index.rank(r.terms, r.tag, 'any', r.limit);
    const t1 = cpuMs();
    const end = Math.min(ranking.total, r.limit);
    const sets = end > 0 ? index.matchSets(r.terms) : [];
    const t2 = cpuMs();
    if (end > 0) index.resultsBytes(ranking.docs.subarray(0, end), ranking.scores.subarray(0, end), ranking.titleMatch.subarray(0, end), 0, sets);
    const t3 = cpuMs();
    if (round < rounds - 1) continue;
    const k = byKind.get(r.kind) ?? { n: 0, rank: 0, sets: 0, bytes: 0, total: 0 };
    k.n++;
    k.rank += t1 - t0;
    k.sets += t2 - t1;
    k.bytes += t3 - t2;
    k.total += ranking.total;
    byKind.set(r.kind, k);
    all.push(t3 - t0);
  }
}
console.log(`${all.length} limited requests (first pages), CPU ms per request: mean ${mean(all)}  p50 ${percentile(all, 0.5)}  p99 ${percentile(all, 0.99)}  max ${percentile(all, 1)}`);
for (const [kind, v] of byKind) {
  console.log(`  ${kind.padEnd(10)} n ${String(v.n).padStart(4)}  rank ${(v.rank / v.n).toFixed(2)}  match sets ${(v.sets / v.n).toFixed(2)}  result bytes ${(v.bytes / v.n).toFixed(2)}  (mean total ${(v.total / v.n).toFixed(0)})`);
}
