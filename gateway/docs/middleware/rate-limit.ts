// Fixed-window rate limits per client IP, in two stores:
//   API budget (RATE_LIMIT_MAX per endpoint): every contract endpoint (an /api/v1 alias
//     counts against its endpoint), each discovery file as an endpoint of its own (`/x`
//     and `/x.html` are one), CORS preflights as one budget, and every path that names
//     nothing (unknown /api paths and static 404s alike) as ONE bucket per client, so
//     that unique junk paths cannot grow the counter table.
//   Site flood guard (SITE_RATE_LIMIT_MAX for all of them together): the site's own files
//     — HTML pages, their assets, the Pagefind bundle, Markdown twins — served as a CDN
//     would, generous enough for a reader (or an office behind one address) reopening
//     the search dialog, low enough to stop a flood.
// Both report their numbers in the rate-limit headers of every response. A browser
// over a limit on a non-API path gets a small HTML page; everyone else the Problem.
import type { H3Event, Middleware } from 'h3';
import { fastResponse } from '../../http/fast-response.ts';
import type { LimitStore } from '../../limits/store.ts';
import { prefersHtml } from '../../static/negotiate.ts';
import { ProblemError } from '../problem.ts';
import { state, type RouteMeta } from '../request-state.ts';
import type { DocsRuntime } from '../runtime.ts';

interface Budget {
  key: string;
  site: boolean;
}

const UNKNOWN: Budget = { key: 'unknown', site: false };
const SITE: Budget = { key: 'site', site: true };

// Page assets by extension; anything else at the root of the tree is a discovery file.
const SITE_ASSET = /\.(?:html|css|js|mjs|map|svg|png|jpe?g|gif|webp|avif|ico|woff2?|ttf|otf)$/;

/**
 * Discovery files keep the API budget (spec: limits apply to discovery files): everything under
 * `/.well-known/` and every file at the root of the tree except pages and page assets
 * (`/llms.txt`, `/llms-full.txt`, `/openapi.json`, `/api-policy.md`, `/build-manifest.json`, …).
 */
export function isDiscoveryFile(urlPath: string): boolean {
  if (urlPath.startsWith('/.well-known/')) return true;
  return urlPath.lastIndexOf('/') === 0 && !SITE_ASSET.test(urlPath);
}

async function budget(rt: DocsRuntime, event: H3Event, meta: RouteMeta): Promise<Budget> {
  if (event.req.method === 'OPTIONS') return { key: 'preflight', site: false };
  if (meta.kind === 'api') return { key: meta.endpoint ?? 'api', site: false };
  if (meta.kind === 'api-unknown') return UNKNOWN;
  // The static route resolves the same path again from the files' stat cache.
  const file = await rt.files.resolve(event.url.pathname);
  if (!file) return UNKNOWN;
  if (!isDiscoveryFile(file.urlPath)) return SITE;
  return { key: `static:${file.urlPath.replace(/\.html$/, '')}`, site: false };
}

/** The page a browser gets instead of Problem JSON when it is over a limit. */
function tooManyRequestsPage(wait: number): Response {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Too many requests</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5">
<h1>Too many requests</h1>
<p>This address has loaded more pages than the site allows in a short time. Please wait ${wait} s, then reload the page.</p>
</body>
</html>
`;
  const body = Buffer.from(html, 'utf8');
  return fastResponse(body, 429, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(body.length),
    'retry-after': String(wait),
    'cache-control': 'no-store',
  });
}

export function rateLimit(rt: DocsRuntime): Middleware {
  const { max, windowSeconds } = rt.config.rateLimit;
  return async (event, next) => {
    const st = state(event);
    const which = await budget(rt, event, st.meta);
    const store: LimitStore = which.site ? rt.siteLimits : rt.limits;
    const storeMax = which.site ? rt.config.siteRateLimit.max : max;
    try {
      st.limit = await store.consume(`${which.key}|${st.ip}`);
    } catch (err) {
      // A broken counter store must not take the docs down: serve, say so in the log,
      // and still send the rate-limit headers (a full budget: nothing was counted).
      console.error('[docs] rate-limit store failed:', err);
      st.limit = { allowed: true, limit: storeMax, remaining: storeMax, resetSeconds: windowSeconds };
      return next();
    }
    if (!st.limit.allowed) {
      const wait = st.limit.resetSeconds;
      if (st.meta.kind === 'static' && prefersHtml(event.req.headers.get('accept'))) return tooManyRequestsPage(wait);
      const scope = which.site ? 'to this site' : which === UNKNOWN ? 'to paths that do not exist' : 'to this endpoint';
      throw new ProblemError('too-many-requests', `More than ${storeMax} requests in ${windowSeconds} s ${scope} from your address; retry in ${wait} s.`, {
        headers: { 'retry-after': String(wait) },
      });
    }
    return next();
  };
}
