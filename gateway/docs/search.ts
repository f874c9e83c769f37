// One page of search results with its cursor; shared by GET /api/search and the MCP tool.
import type { ContentTypeTag, SearchResultT } from '../contract/docs-api.ts';
import type { SearchHit } from '../engine/search.ts';
import { decodeCursor, encodeCursor, fingerprint } from './cursor.ts';
import { ProblemError } from './problem.ts';
import { requireEngine } from './ready.ts';
import type { DocsRuntime } from './runtime.ts';

export interface SearchPageInput {
  query: string;
  tag?: ContentTypeTag;
  /** Page size; undefined returns everything (unless the cursor carries one). */
  limit?: number;
  cursor?: string;
  signal?: AbortSignal;
}

export interface SearchPage {
  total: number;
  hits: SearchHit[];
  nextCursor?: string;
}

const cursorDetail = {
  malformed: '`cursor` is not a cursor issued by this API; pass it exactly as received in X-Next-Cursor.',
  tampered: '`cursor` was altered or truncated; pass it exactly as received in X-Next-Cursor.',
  foreign: '`cursor` belongs to another query, tag or build of the site; repeat the search without `cursor` to start over.',
} as const;

/** One page of search results as the API's JSON body (built and cached by the engine; see SearchEngine.searchBody). */
export interface SearchBodyPage {
  total: number;
  body: Buffer<ArrayBuffer>;
  nextCursor?: string;
}

/**
 * The search API ranks by coverage (the engine's 'any' match): every page holding at least one of the query's words
 * (or a typo neighbour or prefix expansion of one), those holding more of its meaningful words higher, so a question
 * typed into the search box ranks like /ask. X-Total-Count counts exactly those pages: the results a client gets by
 * following the cursors to the end.
 */
const SEARCH_MATCH = 'any';

function pageWindow(rt: DocsRuntime, input: SearchPageInput) {
  const engine = requireEngine(rt);
  const fp = fingerprint(input.query, input.tag, engine.buildId);
  let offset = 0;
  let limit = input.limit;
  if (input.cursor !== undefined) {
    const c = decodeCursor(input.cursor, fp);
    if (!c.ok) throw new ProblemError('invalid-cursor', cursorDetail[c.reason]);
    offset = c.offset;
    limit ??= c.limit;
  }
  const next = (count: number, total: number) => {
    const end = offset + count;
    return limit !== undefined && count > 0 && end < total ? encodeCursor(end, limit, fp) : undefined;
  };
  return { engine, offset, limit, next };
}

export async function searchPage(rt: DocsRuntime, input: SearchPageInput): Promise<SearchPage> {
  const { engine, offset, limit, next } = pageWindow(rt, input);
  const { total, hits } = await engine.search(input.query, { tag: input.tag, offset, limit, match: SEARCH_MATCH, signal: input.signal });
  return { total, hits, nextCursor: next(hits.length, total) };
}

/** The same page as searchPage, serialized: the body is `JSON.stringify(hits.map(toSearchResult))`, byte for byte. */
export async function searchBodyPage(rt: DocsRuntime, input: SearchPageInput): Promise<SearchBodyPage> {
  const { engine, offset, limit, next } = pageWindow(rt, input);
  const { total, count, body } = await engine.searchBody(input.query, { tag: input.tag, offset, limit, match: SEARCH_MATCH, signal: input.signal });
  return { total, body, nextCursor: next(count, total) };
}

export function toSearchResult(hit: SearchHit): SearchResultT {
  return { id: hit.id, url: hit.url, type: hit.type, title: hit.title, content: hit.content, score: hit.score };
}
