// The build tree: every path that is not an API route. `/x` serves x, x.html or
// x/index.html; `Accept: text/markdown` on a page serves its .md twin (Vary: Accept).
// An old URL of the build's _redirects answers 301 to its new one (gateway/static/redirects.ts).
// A miss is 404.html for browsers and a Problem for everyone else. Text files go out
// precompressed when the client accepts it (Vary: Accept-Encoding).
import type { H3Event } from 'h3';
import { notModified } from '../../http/conditional.ts';
import { fastResponse } from '../../http/fast-response.ts';
import { encodedVariant, varyFor } from '../../static/encoding.ts';
import type { SiteFile } from '../../static/files.ts';
import { prefersHtml, prefersMarkdown } from '../../static/negotiate.ts';
import { loadRedirects, redirectFor } from '../../static/redirects.ts';
import { requireMethod } from '../methods.ts';
import { ProblemError } from '../problem.ts';
import type { DocsRuntime } from '../runtime.ts';

function cacheControl(urlPath: string): string {
  // Astro's hashed assets never change under the same name.
  return urlPath.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate';
}

async function fileResponse(rt: DocsRuntime, event: H3Event, file: SiteFile, status = 200, extra: Record<string, string> = {}): Promise<Response> {
  // A precompressed sibling when the client takes one (gateway/static/encoding.ts).
  const encoded = await encodedVariant(rt.files, file, event.req.headers);
  const served = encoded?.file ?? file;
  const headers: Record<string, string> = {
    'content-type': file.contentType,
    etag: served.etag,
    'cache-control': cacheControl(file.urlPath),
    ...extra,
  };
  const vary = varyFor(file, extra.vary);
  if (vary) headers.vary = vary;
  if (encoded) headers['content-encoding'] = encoded.encoding;
  if (status === 200 && notModified(event.req.headers.get('if-none-match'), served.etag)) return new Response(null, { status: 304, headers });
  const body = event.req.method === 'HEAD' ? null : await rt.files.read(served);
  headers['content-length'] = String(served.size);
  // FastResponse writes the (cached) Buffer to the socket as is: no web stream per response
  return fastResponse(body, status, headers);
}

/** The .md twin of an HTML page (`docs/a/b.html` → `docs/a/b.md`), if the build has one. */
async function twinOf(rt: DocsRuntime, file: SiteFile): Promise<SiteFile | null> {
  if (!file.urlPath.endsWith('.html')) return null;
  return rt.files.exact(`${file.urlPath.slice(1, -5)}.md`);
}

export async function notFoundResponse(rt: DocsRuntime, event: H3Event, detail: string): Promise<Response> {
  if (prefersHtml(event.req.headers.get('accept'))) {
    const page = await rt.files.exact('404.html');
    if (page) return fileResponse(rt, event, page, 404, { 'cache-control': 'no-store' });
  }
  throw new ProblemError('not-found', detail);
}

export function staticRoute(rt: DocsRuntime) {
  const redirects = loadRedirects(rt.config.siteDir);
  return async (event: H3Event): Promise<Response> => {
    requireMethod(event, ['GET']);
    const file = await rt.files.resolve(event.url.pathname);
    if (!file) {
      const moved = redirectFor(redirects, event.url.pathname, event.url.search);
      if (moved) return new Response(null, { status: 301, headers: { location: moved, 'cache-control': 'public, max-age=3600' } });
      return notFoundResponse(rt, event, `Nothing is served at ${event.url.pathname}.`);
    }
    const twin = await twinOf(rt, file);
    if (!twin) return fileResponse(rt, event, file);
    const vary = { vary: 'Accept' };
    if (prefersMarkdown(event.req.headers.get('accept'))) return fileResponse(rt, event, twin, 200, vary);
    return fileResponse(rt, event, file, 200, { ...vary, link: `<${twin.urlPath}>; rel="alternate"; type="text/markdown"` });
  };
}
