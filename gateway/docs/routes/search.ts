// GET /api/search (and /api/v1/search): ranked hits, paginated by an opaque cursor.
import type { H3Event } from 'h3';
import { fastResponse } from '../../http/fast-response.ts';
import { apiLimits, contentTypes } from '../../contract/docs-api.ts';
import { requireMethod } from '../methods.ts';
import { enumParam, param } from '../params.ts';
import { MISSING_QUERY, ProblemError } from '../problem.ts';
import type { DocsRuntime } from '../runtime.ts';
import { searchBodyPage } from '../search.ts';

function limitParam(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(n >= 1 && n <= apiLimits.searchLimitMax)) {
    throw new ProblemError('invalid-parameter', `\`limit\` must be an integer from 1 to ${apiLimits.searchLimitMax} (got ${JSON.stringify(value)}).`);
  }
  return n;
}

export function searchRoute(rt: DocsRuntime) {
  return async (event: H3Event): Promise<Response> => {
    requireMethod(event, ['GET']);
    const query = param(event, 'query')?.trim();
    if (!query) throw new ProblemError('missing-query-parameter', MISSING_QUERY);
    const limit = limitParam(param(event, 'limit'));
    const tag = enumParam('tag', param(event, 'tag'), contentTypes);
    const cursor = param(event, 'cursor');
    if (cursor === '') throw new ProblemError('invalid-cursor', '`cursor` is empty; omit it for the first page.');

    const page = await searchBodyPage(rt, { query, tag, limit, cursor, signal: event.req.signal });
    const headers: Record<string, string> = { 'x-total-count': String(page.total) };
    if (page.nextCursor) {
      const next = new URLSearchParams({ query });
      if (limit !== undefined) next.set('limit', String(limit));
      if (tag) next.set('tag', tag);
      next.set('cursor', page.nextCursor);
      headers['x-next-cursor'] = page.nextCursor;
      headers.link = `<${event.url.pathname}?${next}>; rel="next"`;
    }
    // the engine's cached bytes (a worker serialized them): the same body and headers jsonResponse would give. srvx's
    // FastResponse (h3's own Response class; a Response, headers mutable) writes the Buffer to the socket as is,
    // where undici's Response would copy it (megabytes for an unlimited query) and stream the copy.
    return fastResponse(page.body, 200, { 'content-type': 'application/json', 'content-length': String(page.body.length), ...headers });
  };
}
