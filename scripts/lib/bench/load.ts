// Load generation with autocannon (as a library) and the request mixes the
// benchmark replays: search and ask over the Zipf-weighted query set (with a
// cursor follow-up after limited searches), batch bodies, Markdown twins.
import autocannon, { type AutocannonRequest } from 'autocannon';
import { Rng, Zipf } from './random.ts';
import type { BenchQuery } from '../../gen-corpus.ts';
import type { BenchMetricsSnapshot } from './metrics-hook.ts';

export interface LoadResult {
  name: string;
  path: string;
  durationS: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** non-2xx responses + socket errors + timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
  /** Mean bytes read per response (headers included): what the client had to receive. */
  bytesPerResponse: number;
  /**
   * With `timeline`: the responses of each second of the phase and their p99, and the p99 of the phase's second half,
   * so a cold start's first seconds can be told from the rest.
   */
  timeline?: { bySecond: { requests: number; p99Ms: number }[]; secondHalfP99Ms: number };
  /** Filled by the caller: event-loop delay inside the gateway during this phase. */
  eventLoop?: { p99Ms: number; maxMs: number; meanMs: number; worstStall?: BenchMetricsSnapshot['worstStall'] };
  /** Filled by the caller: cores kept busy during this phase (CPU seconds per second) — gateway thread groups, and the load generator. */
  cpu?: { main: number; workers: number; v8: number; other: number; loadGen: number };
  /** Filled by the caller: the gateway's memory right after this phase. */
  memoryAfter?: BenchMetricsSnapshot['memory'];
  notes?: string;
}

export { freePort } from '../gateway-process.ts';

type Request = AutocannonRequest;

export async function runLoad(opts: {
  name: string;
  url: string;
  path: string;
  connections: number;
  durationS: number;
  requests?: Request[];
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Record every response's latency by the second it came in (LoadResult.timeline). */
  timeline?: boolean;
}): Promise<LoadResult> {
  const run = autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.durationS,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    requests: opts.requests,
    timeout: 10,
  });
  const started = performance.now();
  const samples: number[][] = [];
  if (opts.timeline) run.on('response', (_client, _status, _bytes, ms) => (samples[Math.floor((performance.now() - started) / 1000)] ??= []).push(ms));
  const result = await run;
  const codes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) codes[code] = count;
  const completed = result.latency.totalCount ?? result.requests.total;
  const durationS = result.duration;
  return {
    name: opts.name,
    path: opts.path,
    durationS,
    requests: completed,
    rps: Math.round(completed / durationS),
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.non2xx + result.errors + result.timeouts,
    statusCodes: codes,
    bytesPerResponse: completed > 0 ? Math.round((result.throughput?.total ?? 0) / completed) : 0,
    ...(opts.timeline ? { timeline: timelineOf(samples) } : {}),
  };
}

/** The 99th percentile of latencies (nearest rank), rounded to a tenth of a ms. */
function p99(values: number[]): number {
  if (!values.length) return 0;
  const sorted = Float64Array.from(values).sort();
  return Math.round(10 * sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)]!) / 10;
}

function timelineOf(samples: number[][]): NonNullable<LoadResult['timeline']> {
  const seconds = Array.from(samples, (s) => s ?? []);
  return {
    bySecond: seconds.map((s) => ({ requests: s.length, p99Ms: p99(s) })),
    secondHalfP99Ms: p99(seconds.slice(Math.floor(seconds.length / 2)).flat()),
  };
}

/** Draws queries by popularity rank (Zipf), deterministically. */
export class QueryStream {
  private readonly rng: Rng;
  private readonly zipf: Zipf;
  private readonly queries: BenchQuery[];
  readonly seen = new Set<number>();
  drawn = 0;

  constructor(queries: BenchQuery[], exponent: number, seed: string) {
    this.queries = queries;
    this.zipf = new Zipf(queries.length, exponent);
    this.rng = new Rng(seed);
  }

  next(): BenchQuery {
    const q = this.queries[this.zipf.sample(this.rng)]!;
    this.seen.add(q.rank);
    this.drawn++;
    return q;
  }
}

/** The query set with a limit on every query: mostly 10, else 1 to 100 (what agents and the MCP search tool send). */
export function limitedQueries(queries: BenchQuery[], seed: string): BenchQuery[] {
  const rng = new Rng(seed);
  return queries.map((q) => ({ ...q, limit: rng.chance(0.7) ? 10 : rng.pick([1, 3, 5, 20, 50, 100]) }));
}

export function searchPath(q: BenchQuery, cursor?: string): string {
  const p = new URLSearchParams({ query: q.query });
  if (q.tag) p.set('tag', q.tag);
  if (q.limit) p.set('limit', String(q.limit));
  if (cursor) p.set('cursor', cursor);
  return `/api/search?${p}`;
}

/**
 * Search mix: each connection sends a query; when that query had a `limit` and the
 * answer carried X-Next-Cursor, the connection's next request follows the cursor
 * (cursors come from real responses), otherwise it sends another query.
 */
export function searchRequests(stream: QueryStream, stats: { cursorPages: number }): Request[] {
  const header = (headers: Record<string, string>, name: string) => {
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
    return undefined;
  };
  return [
    {
      method: 'GET',
      setupRequest: (req, ctx) => {
        const q = stream.next();
        ctx.q = q;
        delete ctx.cursor;
        return { ...req, path: searchPath(q) };
      },
      onResponse: (status, _body, ctx, headers) => {
        const cursor = status === 200 ? header(headers, 'x-next-cursor') : undefined;
        if (cursor) ctx.cursor = cursor;
      },
    },
    {
      method: 'GET',
      setupRequest: (req, ctx) => {
        if (typeof ctx.cursor === 'string') {
          stats.cursorPages++;
          return { ...req, path: searchPath(ctx.q as BenchQuery, ctx.cursor) };
        }
        return { ...req, path: searchPath(stream.next()) };
      },
    },
  ];
}

export function askRequests(stream: QueryStream): Request[] {
  return [
    {
      method: 'GET',
      setupRequest: (req) => ({ ...req, path: `/ask?${new URLSearchParams({ query: stream.next().query, mode: 'list' })}` }),
    },
  ];
}

/** Cycles through a fixed list of prepared requests (shared across connections). */
export function rotating(make: (i: number) => Partial<AutocannonRequest>, count: number): Request[] {
  let i = 0;
  const prepared = Array.from({ length: count }, (_, k) => make(k));
  return [{ method: 'GET', setupRequest: (req) => ({ ...req, ...prepared[i++ % count] }) }];
}
