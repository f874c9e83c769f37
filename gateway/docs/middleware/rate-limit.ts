// Fixed-window rate limit per client IP and endpoint. An /api/v1 alias counts
// against its endpoint; each static file is an endpoint of its own (`/x` and
// `/x.html` are one); preflights have their own budget.
import type { H3Event, Middleware } from 'h3';
import { ProblemError } from '../problem.ts';
import { state, type RouteMeta } from '../request-state.ts';
import type { DocsRuntime } from '../runtime.ts';

function budget(event: H3Event, meta: RouteMeta): string {
  if (event.req.method === 'OPTIONS') return 'preflight';
  if (meta.kind === 'api') return meta.endpoint ?? 'api';
  if (meta.kind === 'api-unknown') return 'api-unknown';
  const path = event.url.pathname.slice(0, 512).replace(/\/+$/, '').replace(/\.html$/, '');
  return `static:${path || '/'}`;
}

export function rateLimit(rt: DocsRuntime): Middleware {
  const { max, windowSeconds } = rt.config.rateLimit;
  return async (event, next) => {
    const st = state(event);
    try {
      st.limit = await rt.limits.consume(`${budget(event, st.meta)}|${st.ip}`);
    } catch (err) {
      // A broken counter store must not take the docs down: serve, say so in the log,
      // and still send the rate-limit headers (a full budget: nothing was counted).
      console.error('[docs] rate-limit store failed:', err);
      st.limit = { allowed: true, limit: max, remaining: max, resetSeconds: windowSeconds };
      return next();
    }
    if (!st.limit.allowed) {
      const wait = st.limit.resetSeconds;
      throw new ProblemError('too-many-requests', `More than ${max} requests in ${windowSeconds} s to this endpoint from your address; retry in ${wait} s.`, {
        headers: { 'retry-after': String(wait) },
      });
    }
    return next();
  };
}
