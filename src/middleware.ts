// Astro middleware, build time only: hands each rendered page and endpoint body to the
// compress-ahead worker when the build runs one (src/lib/compress-tap.ts), so its .br and
// .gz siblings are made on the core Astro's single-threaded render leaves idle. The
// response goes on with the same bytes, status and headers. Anywhere else (dev server,
// PRECOMPRESS=false, a redirect, a binary route) it passes the response through untouched.
import { defineMiddleware } from 'astro:middleware';
import { compressTap } from './lib/compress-tap.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  const tap = compressTap();
  if (!tap || response.status !== 200 || !response.body || !tap.wants(context.url.pathname)) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  tap.offer(body);
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
});
