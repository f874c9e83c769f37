// The read API and the discovery files are public: any origin may read them, and
// preflights are answered here without reaching a route.
import type { Middleware } from 'h3';
import { rateLimitHeaderNames } from '../../contract/docs-api.ts';
import { allowHeader, state } from '../request-state.ts';

const exposed = [
  ...rateLimitHeaderNames,
  'Retry-After',
  'X-Total-Count',
  'X-Next-Cursor',
  'Link',
  'Location',
  'Idempotency-Key',
  'Deprecation',
  'Sunset',
  'Preference-Applied',
  'Allow',
  'Vary',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'X-Model-Budget',
];

const allowedRequestHeaders = ['Accept', 'Content-Type', 'Idempotency-Key', 'Prefer', 'Last-Event-ID', 'Mcp-Protocol-Version', 'Mcp-Session-Id'];

/** Sent on every response. */
export const corsHeaders: [string, string][] = [
  ['access-control-allow-origin', '*'],
  ['access-control-expose-headers', exposed.join(', ')],
];

export function cors(): Middleware {
  return (event, next) => {
    if (event.req.method !== 'OPTIONS') return next();
    const meta = state(event).meta;
    const methods = allowHeader(meta.methods ?? ['GET']);
    const headers: Record<string, string> = { allow: methods };
    if (event.req.headers.has('access-control-request-method')) {
      headers['access-control-allow-methods'] = methods;
      headers['access-control-allow-headers'] = allowedRequestHeaders.join(', ');
      headers['access-control-max-age'] = '86400';
    }
    return new Response(null, { status: 204, headers });
  };
}
