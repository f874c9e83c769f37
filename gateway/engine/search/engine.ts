/**
 * The search engine's API (SearchEngine: search, searchBody, stats, close) over the query workers, with the cache of
 * query results in front of them. Server-side search over the site's Pagefind bundle (`<siteDir>/pagefind/`).
 *
 * Startup: check `pagefind-entry.json` (a clear error, nothing else touched when missing), load build-manifest.json
 * (buildId), load or build the index segments (index-cache.ts) and install them — SharedArrayBuffers, shared not
 * copied, with the files kept open for what queries read on demand — into every query worker (worker-pool.ts).
 *
 * Query flow:
 *   1. main thread: validate options, canonicalize the query (text.ts queryTerms: normalized, stemmed, stopwords
 *      dropped, sorted terms);
 *   2. cache lookup keyed by (buildId, tag, match, terms): an entry holds the ranking (typed arrays; for a limited
 *      request only its first 2 × (offset+limit) ranks, top-k.ts, so the next page is ranked too, and the exact total,
 *      until a request beyond them ranks a longer prefix) plus
 *      what was rendered of it as SearchHits (search(), for /ask, MCP, the assistant); the serialized response
 *      bodies per slice (searchBody(), for GET /api/search) are entries of their own in the same cache, with their
 *      own recency (bodyKey); a slice already rendered is answered from memory (the same frozen hits array, or the
 *      same Buffer, for the same slice);
 *   3. miss: one round trip to the least-busy worker ranks the matching pages (a limited request: a bounded heap of
 *      2 × (offset+limit), every match still counted) and renders the requested slice (an index of at most
 *      IN_THREAD_MAX_PAGES pages, the assistant's portfolio, has no workers: the same protocol answers on this
 *      thread, in-thread-pool.ts);
 *      concurrent identical misses share one in-flight request;
 *   4. a later page of a cached ranking (cursor pagination) is rendered by a worker: hits in chunks of 250 (each reply
 *      is deserialized on the main thread), bodies whole (bytes, transferred: no copy, no parsing).
 * Why: nothing query-related runs on the main thread besides the cache and the slicing (and the queries of a tiny
 * index), so a broad query never stalls the event loop, and a repeated query costs a memory lookup.
 */
import { join } from 'node:path';
import { Lru } from '../lru.ts';
import { loadManifest } from '../manifest.ts';
import { checkBundles } from '../pagefind-bundle.ts';
import { queryJoinWords, queryTerms } from '../text.ts';
import { type Prefetch, defaultBuildParallelism, fingerprintOf, loadOrBuildSegments, prefetchPrebuilt } from './index-cache.ts';
import { checkSegmentFile, closeSegmentFile } from './index-file.ts';
import { CONTENT_TYPES, type ContentType, type SearchHit } from './segment.ts';
import type { Correction } from './term-dictionary.ts';
import { WorkerPool, defaultWorkerCount } from './worker-pool.ts';
import { InThreadPool } from './in-thread-pool.ts';

export interface SearchOptions {
  tag?: ContentType;
  offset?: number;
  limit?: number;
  signal?: AbortSignal;
  /**
   * 'all' (default, the search API): pages containing every query term. 'any': pages containing at least one, ranked
   * down by the share of terms they miss — for natural-language questions (/ask, the assistant's retrieval).
   */
  match?: 'all' | 'any';
}

export interface SearchEngine {
  /** Deterministic for a given (query, tag, build): same order every time. Returns the slice [offset, offset+limit) and the total. */
  search(query: string, opts?: SearchOptions): Promise<{ total: number; hits: SearchHit[]; corrections: Corrections; termPages: TermPages }>;
  /**
   * The same slice as `search`, as the search API's response body: the JSON array of SearchResults (id, url, type,
   * title, content, score — exactly JSON.stringify of those objects), built in a worker and cached per slice, so a
   * repeated query costs the main thread a memory write. `count` is the number of results in it.
   */
  searchBody(query: string, opts?: SearchOptions): Promise<{ total: number; count: number; body: Buffer<ArrayBuffer> }>;
  readonly buildId: string;
  /** Number of indexed pages. */
  readonly pageCount: number;
  /** Counters for health/bench output. */
  stats(): SearchStats;
  close(): Promise<void>;
}

/**
 * What the query's misspelt terms stand for: each query term the index does not hold (text.ts queryTerms form) →
 * the index words it matched instead, nearest first (term-dictionary.ts). Empty when every term is in the index.
 */
export type Corrections = ReadonlyMap<string, readonly Correction[]>;

const NO_CORRECTIONS: Corrections = new Map();

/**
 * How common each query term is in the whole site: the pages whose body holds it (Ranking.termPages; text.ts
 * queryTerms form; 0 for a word the index does not hold), out of `pageCount`. The answerer weighs a question's words by
 * it (passages.ts).
 */
export interface TermPages {
  readonly byTerm: ReadonlyMap<string, number>;
  readonly pageCount: number;
}

const NO_TERM_PAGES: TermPages = Object.freeze({ byTerm: new Map(), pageCount: 0 });

export interface SearchStats {
  pages: number;
  workers: number;
  /** Rankings cached (`entries`), bytes of rankings and answers, and the lookups of rankings that hit or missed. */
  cache: { entries: number; bytes: number; hits: number; misses: number };
  queries: number;
  workerRequests: number;
  startupMs: number;
  /** Segments built at startup (0 when the index was loaded from the index cache). */
  segmentsBuilt: number;
}

export interface CreateSearchEngineOptions {
  siteDir: string;
  /**
   * Query worker threads (default: available parallelism clamped to 2..4); 0: queries answered on the calling thread,
   * for an index of at most IN_THREAD_MAX_PAGES pages (in-thread-pool.ts).
   */
  workers?: number;
  /** Max cached query results (default 2000). 0 disables the cache. */
  cacheSize?: number;
  /** Max estimated bytes of cached results (default 64 MiB). */
  cacheBytes?: number;
  /**
   * Where built index segments are kept between starts (keyed by a fingerprint of the bundle, the manifest and the
   * engine code): a restart on an unchanged build loads them instead of re-indexing. Default: a private directory
   * under the OS temp dir; `false`: build into a temp dir and delete it after loading.
   */
  indexCacheDir?: string | false;
  /**
   * A read-only prebuilt index (the build output's `<distDir>/search-index`, see prepareSearchIndex): loaded when it
   * holds the index of this bundle (same fingerprint), never written; otherwise indexCacheDir applies as usual.
   */
  prebuiltIndexDir?: string;
  /**
   * The build id of the site's manifest when the caller has loaded it already (or is loading it: a promise), so the
   * manifest is not parsed twice; default: read from `<siteDir>/build-manifest.json`.
   */
  buildId?: string | PromiseLike<string>;
}

export const DEFAULT_CACHE_SIZE = 2000;
/**
 * The most pages an index answered on the event loop may hold. The assistant's 5-page portfolio answers any query in
 * 0.1–0.6 ms there (1.5 ms the first time); the 224-page Vitest docs already take 6–13 ms for an unlimited query
 * (every match's excerpt), so anything bigger gets query workers.
 */
export const IN_THREAD_MAX_PAGES = 50;
/** Hits materialized per worker round trip (bounds the main thread's deserialization work per message). */
const MATERIALIZE_CHUNK = 250;
/**
 * Cached rankings, hits and serialized bodies (an unlimited common-term body is ≈2 MB at 10,000 pages). 32 MiB: the
 * bodies are Buffers outside the V8 heap, so this bounds the gateway's memory (RSS), not GC work; by simulation of the
 * bench's query mix 32 MiB serves ≈45% of requests from memory, 128 MiB ≈70% (README, Performance).
 */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * A limited request ranks this many times its offset + limit: the next page (the cursor a paginating client follows)
 * is then already ranked and costs a render, not a second pass over every posting. The bounded heap of 2k costs
 * about what one of k does; the postings traversal is the query's cost either way.
 */
const RANK_AHEAD = 2;

/**
 * The cache key of a serialized slice [offset, end) of a query's ranking. A body is an entry of its own, not a part of
 * its ranking's entry: /ask, MCP and the assistant read a ranking's hits and never its bodies, and as a part of the
 * ranking's entry a body of megabytes stayed as long as those kept reading the hits.
 */
function bodyKey(rankingKey: string, offset: number, end: number): string {
  return `${rankingKey}\u0002${offset}:${end}`;
}

interface Entry {
  /** Every match; docs/scores/titleMatch may hold only a prefix of the ranking (see ranked). */
  total: number;
  docs: Int32Array;
  scores: Float64Array;
  titleMatch: Uint8Array;
  hits: (SearchHit | undefined)[];
  /** Frozen slices handed out, by "offset:end" (stable identity for repeated identical requests). */
  slices: Map<string, SearchHit[]>;
  corrections: Corrections;
  /** Ranking.termPages of the query's terms; as TermPages once a caller asked for them (termPagesOf). */
  termCounts: Int32Array;
  termPages?: TermPages;
  /** A longer prefix of the ranking being fetched (a request beyond the one held), up to rank `to`. */
  extension?: { to: number; done: Promise<void> };
  bytes: number;
}

function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function hitBytes(h: SearchHit): number {
  return 160 + 2 * (h.id.length + h.url.length + h.title.length + h.content.length + h.section.length + h.path.length);
}

function checkInt(name: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new RangeError(`search: ${name} must be an integer >= ${min}`);
  return v;
}

/** A private cache directory (0700, owned by us) or undefined when that cannot be guaranteed. */

/**
 * Loads `<siteDir>/build-manifest.json` (buildId) and indexes `<siteDir>/pagefind/` (or loads the cached index of
 * the same bundle), then starts the query workers. Throws a clear Error when the bundle or the manifest is missing or
 * invalid.
 */
export async function createSearchEngine(opts: CreateSearchEngineOptions): Promise<SearchEngine> {
  const t0 = performance.now();
  const bundles = checkBundles(opts.siteDir); // before anything touches the bundle
  const nWorkers = opts.workers === undefined ? defaultWorkerCount() : checkInt('workers', opts.workers, 0);
  // rankings (with their hits) and serialized bodies share one memory bound but not their recency (bodyKey)
  const cache = new Lru<Entry | Buffer<ArrayBuffer>>(opts.cacheSize ?? DEFAULT_CACHE_SIZE, opts.cacheBytes ?? DEFAULT_CACHE_BYTES);

  let pool: WorkerPool | InThreadPool | undefined;
  let prefetched: Prefetch | undefined;
  let nPages = 0;
  let built = 0;
  let buildId: string;
  try {
    // Workers first: each takes ≈300 ms to boot (module loading), in its own thread, while this thread reads the
    // manifest and the index files.
    pool = nWorkers === 0 ? new InThreadPool() : new WorkerPool(nWorkers);
    prefetched = prefetchPrebuilt(opts.prebuiltIndexDir);
    buildId = opts.buildId === undefined ? (await loadManifest(opts.siteDir)).buildId : await opts.buildId;
    const fingerprint = fingerprintOf(bundles.map((b) => b.entry), buildId);
    // Build the segments (index-cache.ts segmentCount) in child processes (their transient memory is returned to the
    // OS when they exit), open the segment files (hot parts read into SharedArrayBuffers, the files kept open for the
    // cold arrays) and install them, shared, into every query worker.
    const r = await loadOrBuildSegments(opts.siteDir, fingerprint, defaultBuildParallelism(), { cacheDir: opts.indexCacheDir, prebuiltDir: opts.prebuiltIndexDir, prefetched });
    built = r.built;
    pool.files = r.segments; // closed with the pool
    for (const f of r.segments) nPages += checkSegmentFile(f).pageCount;
    if (nWorkers === 0 && nPages > IN_THREAD_MAX_PAGES) throw new Error(`${nPages} pages are too many to answer queries on the event loop (at most ${IN_THREAD_MAX_PAGES}): give it query workers`);
    await Promise.all(Array.from({ length: pool.size }, (_, k) => pool!.send<number>(k, { op: 'install', files: r.segments })));
  } catch (err) {
    if (!pool?.files) prefetched?.segments.then((segs) => segs.forEach(closeSegmentFile), () => {});
    await pool?.close();
    if (buildId! === undefined) throw err; // the manifest: its own clear message
    throw new Error(`Search index could not be built from ${join(opts.siteDir, 'pagefind')}: ${(err as Error).message}`, { cause: err });
  }
  const startupMs = performance.now() - t0;
  const workers = pool;

  const inflight = new Map<string, Promise<Entry>>();
  const pendingBodies = new Map<string, Promise<Buffer<ArrayBuffer>>>();
  /** Stores the serialized slice of a query's ranking: an entry of its own, counted in bytes only. */
  const keepBody = (key: string, body: Buffer<ArrayBuffer>) => cache.set(key, body, 64 + body.byteLength, false);
  let closed = false;
  let queries = 0;

  const materialize = async (key: string, entry: Entry, q: Query, ranks: number[]): Promise<void> => {
    const items = ranks.map((r) => [entry.docs[r]!, entry.scores[r]!, entry.titleMatch[r]!, r]);
    const hits = await workers.run<SearchHit[]>({ op: 'materialize', terms: q.terms, joinWords: q.joinWords, items });
    ranks.forEach((r, j) => {
      if (!entry.hits[r]) {
        entry.hits[r] = Object.freeze(hits[j]!);
        entry.bytes += hitBytes(hits[j]!);
      }
    });
    cache.resize(key, entry.bytes);
  };

  interface Query { terms: string[]; joinWords: string[]; key: string; tag?: ContentType; match: 'all' | 'any'; offset: number; limit?: number }

  /** Validates the options and canonicalizes the query; undefined when it has no terms (no results). */
  const prepare = (query: string, o: SearchOptions): Query | undefined => {
    if (closed) throw new Error('search engine is closed');
    o.signal?.throwIfAborted();
    if (typeof query !== 'string') throw new TypeError('search: query must be a string');
    const tag = o.tag;
    if (tag !== undefined && !CONTENT_TYPES.includes(tag)) throw new RangeError(`search: unknown tag ${JSON.stringify(tag)}`);
    const offset = o.offset === undefined ? 0 : checkInt('offset', o.offset, 0);
    const limit = o.limit === undefined ? undefined : checkInt('limit', o.limit, 0);
    const match = o.match ?? 'all';
    if (match !== 'all' && match !== 'any') throw new RangeError(`search: match must be 'all' or 'any'`);
    queries++;
    const terms = queryTerms(query);
    if (terms.length === 0) return undefined;
    const joinWords = queryJoinWords(query);
    const key = `${buildId}\u0001${tag ?? '*'}\u0001${match}\u0001${terms.join(' ')}${joinWords.length ? `\u0001${joinWords.join(' ')}` : ''}`;
    return { terms, joinWords, key, tag, match, offset, limit };
  };

  /** The cached ranking of a query, or one worker round trip that ranks it and renders the requested slice. */
  const entryFor = async (q: Query, body: boolean, signal: AbortSignal | undefined): Promise<Entry> => {
    const cached = cache.get(q.key) as Entry | undefined;
    if (cached) return cached;
    let p = inflight.get(q.key);
    if (!p) {
      p = (async () => {
        // a body is rendered whole by the worker (bytes, transferred); hits are materialized in chunks
        const want = body ? q.limit : Math.min(q.limit ?? MATERIALIZE_CHUNK, MATERIALIZE_CHUNK);
        const r = await workers.run<{ total: number; docs: Int32Array; scores: Float64Array; titleMatch: Uint8Array; termPages: Int32Array; hits: [number, SearchHit][]; body?: Uint8Array<ArrayBuffer>; corrections: [string, Correction[]][] }>({
          op: 'search', terms: q.terms, joinWords: q.joinWords, tag: q.tag, match: q.match, offset: q.offset, limit: want, body, topK: q.limit === undefined ? undefined : RANK_AHEAD * (q.offset + q.limit),
        });
        const corrections: Corrections = r.corrections.length ? new Map(r.corrections.map(([t, c]) => [t, Object.freeze(c.map((x) => Object.freeze(x)))])) : NO_CORRECTIONS;
        const e: Entry = { total: r.total, docs: r.docs, scores: r.scores, titleMatch: r.titleMatch, hits: [], slices: new Map(), corrections, termCounts: r.termPages, bytes: 64 + r.docs.length * 13 };
        for (const [rank, h] of r.hits) {
          e.hits[rank] = Object.freeze(h);
          e.bytes += hitBytes(h);
        }
        cache.set(q.key, e, e.bytes);
        if (r.body) {
          const end = q.limit === undefined ? e.total : Math.min(e.total, q.offset + q.limit);
          if (q.offset < end) keepBody(bodyKey(q.key, q.offset, end), Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength));
        }
        return e;
      })().finally(() => inflight.delete(q.key));
      inflight.set(q.key, p);
    }
    return abortable(p, signal);
  };

  /**
   * Makes sure the entry's ranking reaches rank `end` (exclusive). An entry holds a prefix of the ranking (a limited
   * request ranks RANK_AHEAD × (offset + limit)); a request beyond it ranks again, a prefix at least twice as long (a
   * cursor walk re-ranks a logarithmic number of times, not once per page) and at most every match.
   */
  const ranked = async (q: Query, entry: Entry, end: number, signal: AbortSignal | undefined): Promise<void> => {
    while (end > entry.docs.length) {
      const before = entry.docs.length;
      if (!entry.extension || entry.extension.to < end) {
        const to = Math.min(entry.total, Math.max(end, 2 * before));
        const done = (async () => {
          const r = await workers.run<{ total: number; docs: Int32Array; scores: Float64Array; titleMatch: Uint8Array }>({
            op: 'search', terms: q.terms, joinWords: q.joinWords, tag: q.tag, match: q.match, offset: 0, limit: 0, topK: to,
          });
          if (r.docs.length <= entry.docs.length) return;
          entry.bytes += (r.docs.length - entry.docs.length) * 13;
          entry.docs = r.docs;
          entry.scores = r.scores;
          entry.titleMatch = r.titleMatch;
          cache.resize(q.key, entry.bytes);
        })().finally(() => {
          if (entry.extension?.done === done) entry.extension = undefined;
        });
        entry.extension = { to, done };
      }
      await abortable(entry.extension.done, signal);
      if (entry.docs.length === before) throw new Error('search: the ranking did not reach the requested rank');
    }
  };

  const EMPTY_BODY = Buffer.from('[]');

  const termPagesOf = (q: Query, entry: Entry): TermPages =>
    (entry.termPages ??= Object.freeze({ byTerm: new Map(q.terms.map((t, k) => [t, entry.termCounts[k]!])), pageCount: nPages }));

  const engine: SearchEngine = {
    buildId,
    pageCount: nPages,
    async search(query, o = {}) {
      const q = prepare(query, o);
      if (!q) return { total: 0, hits: [], corrections: NO_CORRECTIONS, termPages: NO_TERM_PAGES };
      const { key, terms, offset, limit } = q;
      const entry = await entryFor(q, false, o.signal);
      const end = limit === undefined ? entry.total : Math.min(entry.total, offset + limit);
      if (offset >= end) return { total: entry.total, hits: [], corrections: entry.corrections, termPages: termPagesOf(q, entry) };
      await ranked(q, entry, end, o.signal);
      const missing: number[] = [];
      for (let r = offset; r < end; r++) if (!entry.hits[r]) missing.push(r);
      // in chunks: each reply is deserialized on the main thread, so no single message may be huge
      for (let k = 0; k < missing.length; k += MATERIALIZE_CHUNK) {
        await abortable(materialize(key, entry, q, missing.slice(k, k + MATERIALIZE_CHUNK)), o.signal);
      }
      // the same frozen array for the same cached slice: callers may key a WeakMap on it (e.g. serialized bodies)
      const sk = `${offset}:${end}`;
      let hits = entry.slices.get(sk);
      if (!hits) {
        hits = Object.freeze(entry.hits.slice(offset, end)) as SearchHit[];
        if (entry.slices.size >= 8) entry.slices.delete(entry.slices.keys().next().value!);
        entry.slices.set(sk, hits);
        entry.bytes += 64 + 8 * hits.length;
        cache.resize(key, entry.bytes);
      }
      return { total: entry.total, hits, corrections: entry.corrections, termPages: termPagesOf(q, entry) };
    },
    async searchBody(query, o = {}) {
      const q = prepare(query, o);
      if (!q) return { total: 0, count: 0, body: EMPTY_BODY };
      const { key, terms, offset, limit } = q;
      const entry = await entryFor(q, true, o.signal);
      const end = limit === undefined ? entry.total : Math.min(entry.total, offset + limit);
      if (offset >= end) return { total: entry.total, count: 0, body: EMPTY_BODY };
      const bk = bodyKey(key, offset, end);
      // the ranking's lookup (entryFor) is what hits and misses count
      let body = cache.get(bk, false) as Buffer<ArrayBuffer> | undefined;
      if (!body) {
        await ranked(q, entry, end, o.signal);
        let p = pendingBodies.get(bk);
        if (!p) {
          p = (async () => {
            const u8 = await workers.run<Uint8Array<ArrayBuffer>>({
              op: 'body', terms, joinWords: q.joinWords, docs: entry.docs.slice(offset, end), scores: entry.scores.slice(offset, end), titleMatch: entry.titleMatch.slice(offset, end), from: offset,
            });
            const b = Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
            keepBody(bk, b);
            return b;
          })().finally(() => pendingBodies.delete(bk));
          pendingBodies.set(bk, p);
        }
        body = await abortable(p, o.signal);
      }
      return { total: entry.total, count: end - offset, body };
    },
    stats() {
      return {
        pages: nPages,
        segmentsBuilt: built,
        workers: workers.threads,
        cache: { entries: cache.size, bytes: cache.bytes, hits: cache.hits, misses: cache.misses },
        queries,
        workerRequests: workers.requests,
        startupMs: Math.round(startupMs),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      cache.clear();
      await workers.close();
    },
  };
  return engine;
}

