// Outermost middleware: sets up the request state, turns every outcome (value,
// Problem, unexpected error) into one Response, and adds the headers every
// response carries: CORS, rate limits, the versioning policy link, deprecation,
// the Idempotency-Key echo.
import { HTTPError, type H3Event, type Middleware } from 'h3';
import { clientIp } from '../../limits/client-ip.ts';
import { ProblemError, problemResponse, slugForStatus } from '../problem.ts';
import { routeMeta, setState, type RequestState } from '../request-state.ts';
import type { DocsRuntime } from '../runtime.ts';
import { corsHeaders } from './cors.ts';

const POLICY_LINK = '</api-policy.md>; rel="deprecation"';

function toProblem(err: unknown, event: H3Event): ProblemError {
  if (err instanceof ProblemError) return err;
  if (HTTPError.isError(err) && err.status < 500) return new ProblemError(slugForStatus(err.status), err.message);
  const aborted = event.req.signal?.aborted || (err as Error)?.name === 'AbortError';
  if (!aborted) console.error(`[docs] ${event.req.method} ${event.url.pathname}:`, err);
  return new ProblemError('internal-server-error', 'An unexpected error occurred; retry with exponential backoff.');
}

function withHeaders(res: Response, add: (h: Headers) => void): Response {
  try {
    add(res.headers);
    return res;
  } catch {
    // Immutable headers (a fetched Response): copy once.
    const copy = new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers });
    add(copy.headers);
    return copy;
  }
}

function finalize(res: Response, st: RequestState): Response {
  return withHeaders(res, (h) => {
    for (const [k, v] of corsHeaders) h.set(k, v);
    h.set('x-content-type-options', 'nosniff');
    for (const [k, v] of st.headers) h.set(k, v);
    const limit = st.limit;
    if (limit) {
      const { limit: max, remaining, resetSeconds } = limit;
      const policy = `${max};w=${st.windowSeconds}`;
      h.set('ratelimit-limit', String(max));
      h.set('ratelimit-remaining', String(remaining));
      h.set('ratelimit-reset', String(resetSeconds));
      h.set('ratelimit-policy', policy);
      h.set('x-ratelimit-limit', String(max));
      h.set('x-ratelimit-remaining', String(remaining));
      h.set('x-ratelimit-reset', String(resetSeconds));
    }
    // The versioning policy is advertised on every response (spec: Versioning 5);
    // deprecation headers only on a deprecated API endpoint.
    const links = [h.get('link'), POLICY_LINK];
    const d = st.meta.kind !== 'static' ? st.deprecation : undefined;
    if (d) {
      h.set('deprecation', d.deprecation);
      h.set('sunset', d.sunset);
      if (d.notes) links.push(`<${d.notes}>; rel="deprecation"`);
      links.push(`<${d.replacement}>; rel="successor-version"`);
    }
    h.set('link', links.filter(Boolean).join(', '));
    if (st.idempotencyKey !== undefined) h.set('idempotency-key', st.idempotencyKey);
  });
}

export function pipeline(rt: DocsRuntime): Middleware {
  const windowSeconds = rt.config.rateLimit.windowSeconds;
  return async (event, next) => {
    const st: RequestState = {
      meta: routeMeta(event),
      ip: clientIp(rt.config.trustProxy, event.req.ip, event.req.headers.get('x-forwarded-for')),
      headers: new Headers(),
      windowSeconds,
    };
    setState(event, st);
    let res: Response;
    try {
      const out = await next();
      res = out instanceof Response ? out : problemResponse(rt.siteUrl, new ProblemError('not-found'), event.url.pathname);
    } catch (err) {
      res = problemResponse(rt.siteUrl, toProblem(err, event), event.url.pathname);
    }
    return finalize(res, st);
  };
}
