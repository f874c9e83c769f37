// Everything else: the portfolio tree (DIST_DIR/portfolio) at the root of the
// assistant origin. `/about` → about.html, `/` → index.html; `Accept: text/markdown`
// on a page gets its Markdown twin. Unknown paths and wrong methods use the envelope.
import type { H3Event } from 'h3';
import { prefersMarkdown } from '../../static/negotiate.ts';
import type { SiteFile } from '../../static/files.ts';
import type { AssistantContext } from '../context.ts';
import { AssistantError } from '../errors.ts';
import { notModified } from '../../http/conditional.ts';
import { encodedVariant, varyFor } from '../../static/encoding.ts';

const ALLOW = ['GET', 'HEAD', 'OPTIONS'];

/** Files agents fetch from other origins: open to CORS reads. */
function isPublicData(urlPath: string): boolean {
  return urlPath.startsWith('/.well-known/') || /\.(md|txt|json)$/.test(urlPath);
}

export function staticHandler(ctx: AssistantContext) {
  return async (event: H3Event): Promise<Response> => {
    const req = event.req as unknown as Request;
    const pathname = event.url.pathname;
    let file = await ctx.files.resolve(pathname);
    if (!file) {
      throw new AssistantError('not_found', `Nothing at ${pathname}. Every page of this site is listed at /llms.txt; the API is described at /.well-known/openapi.json.`);
    }
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: ALLOW.join(', ') } });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new AssistantError('method_not_allowed', `${req.method} is not allowed on ${pathname}; it is a static file (GET or HEAD).`, { Allow: ALLOW.join(', ') });
    }

    const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff' };
    if (file.urlPath.endsWith('.html')) {
      headers.Vary = 'Accept';
      if (prefersMarkdown(req.headers.get('accept'))) {
        const twin: SiteFile | null = await ctx.files.exact(`${file.urlPath.slice(1, -'.html'.length)}.md`);
        if (twin) file = twin;
      }
    }
    headers['Content-Type'] = file.contentType;
    const vary = varyFor(file, headers.Vary);
    if (vary) headers.Vary = vary;
    const encoded = await encodedVariant(ctx.files, file, req.headers);
    const served = encoded?.file ?? file;
    if (encoded) headers['Content-Encoding'] = encoded.encoding;
    headers.ETag = served.etag;
    headers['Cache-Control'] = 'public, max-age=300';
    if (isPublicData(file.urlPath)) headers['Access-Control-Allow-Origin'] = '*';
    if (file.urlPath.endsWith('.md') && pathname.endsWith('.md')) headers.Link = `<${ctx.siteUrl}${pathname.replace(/\.md$/, '').replace(/^\/index$/, '/')}>; rel="canonical"`;

    if (notModified(req.headers.get('if-none-match'), served.etag)) return new Response(null, { status: 304, headers });
    if (req.method === 'HEAD') return new Response(null, { status: 200, headers: { ...headers, 'Content-Length': String(served.size) } });
    const body = await ctx.files.read(served);
    headers['Content-Length'] = String(body.length);
    return new Response(new Uint8Array(body), { status: 200, headers });
  };
}
