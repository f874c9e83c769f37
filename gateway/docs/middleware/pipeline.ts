// Outermost middleware: sets up the request state, turns every outcome (value,
// Problem, unexpected error) into one Response, and adds the headers every
// response carries: CORS, rate limits, the versioning policy link, deprecation,
// the Idempotency-Key echo; on HTML pages, the security headers (http/security-headers.ts).
import { HTTPError, type H3Event, type Middleware } from 'h3';
import { errorHeaders, withHeaders, type SetHeader } from '../../http/fast-response.ts';
import { isHtml } from '../../http/security-headers.ts';
import { clientIp } from '../../limits/client-ip.ts';
import { ProblemError, problemResponse, slugForStatus } from '../problem.ts';
import { routeMeta, setState, withRequestState, type RequestState } from '../request-state.ts';
import type { DocsRuntime } from '../runtime.ts';
import { corsHeaders } from './cors.ts';

const POLICY_LINK = '</api-policy.md>; rel="deprecation"';

function toProblem(err: unknown, event: H3Event): ProblemError {
  if (err instanceof ProblemError) return err;
  // a refusal from a shared module (body reader, MCP wiring) or h3 itself: its headers and extra members (`body`) kept
  if (HTTPError.isError(err) && err.status < 500) return new ProblemError(slugForStatus(err.status), err.message, { headers: errorHeaders(err), extra: err.body });
  const aborted = event.req.signal?.aborted || (err as Error)?.name === 'AbortError';
  if (!aborted) console.error(`[docs] ${event.req.method} ${event.url.pathname}:`, err);
  return new ProblemError('internal-server-error', 'An unexpected error occurred; retry with exponential backoff.');
}

/** Adds the headers every response carries through `set`; `link` is the response's own Link header, if any. */
function addCommonHeaders(set: SetHeader, link: string | null | undefined, st: RequestState): void {
  for (const [k, v] of corsHeaders) set(k, v);
  set('x-content-type-options', 'nosniff');
  const limit = st.limit;
  if (limit) {
    const { limit: max, remaining, resetSeconds } = limit;
    set('ratelimit-limit', String(max));
    set('ratelimit-remaining', String(remaining));
    set('ratelimit-reset', String(resetSeconds));
    set('ratelimit-policy', `${max};w=${st.windowSeconds}`);
    set('x-ratelimit-limit', String(max));
    set('x-ratelimit-remaining', String(remaining));
    set('x-ratelimit-reset', String(resetSeconds));
  }
  // The versioning policy is advertised on every response (spec: Versioning 5);
  // deprecation headers only on a deprecated API endpoint.
  let links = link ? `${link}, ${POLICY_LINK}` : POLICY_LINK;
  const d = st.meta.kind !== 'static' ? st.deprecation : undefined;
  if (d) {
    set('deprecation', d.deprecation);
    set('sunset', d.sunset);
    if (d.notes) links += `, <${d.notes}>; rel="deprecation"`;
    links += `, <${d.replacement}>; rel="successor-version"`;
  }
  set('link', links);
  if (st.idempotencyKey !== undefined) set('idempotency-key', st.idempotencyKey);
}

function finalize(res: Response, st: RequestState): Response {
  return withHeaders(res, (set, get) => {
    addCommonHeaders(set, get('link'), st);
    if (isHtml(get('content-type'))) for (const [k, v] of Object.entries(st.build.htmlHeaders)) set(k, v);
  });
}

export function pipeline(rt: DocsRuntime): Middleware {
  const windowSeconds = rt.config.rateLimit.windowSeconds;
  return async (event, next) => {
    const st: RequestState = {
      meta: routeMeta(event),
      ip: clientIp(rt.config.trustProxy, event.req.ip, event.req.headers.get('x-forwarded-for')),
      // the whole request, streams included, reads the build current now (runtime.ts)
      build: rt.currentBuild(),
      windowSeconds,
    };
    setState(event, st);
    let res: Response;
    try {
      const out = await withRequestState(st, next);
      res = out instanceof Response ? out : problemResponse(st.build.siteUrl, new ProblemError('not-found'), event.url.pathname);
    } catch (err) {
      res = problemResponse(st.build.siteUrl, toProblem(err, event), event.url.pathname);
    }
    return finalize(res, st);
  };
}
