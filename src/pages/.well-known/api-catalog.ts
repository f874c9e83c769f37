// RFC 9727 API catalog (a RFC 9264 linkset). Served as application/linkset+json
// with the RFC 9727 profile by the content-type map.
import type { APIRoute } from 'astro';
import { docsModel } from '../../lib/docs.ts';
import { absolute, docOrIndex } from '../../lib/links.ts';

export const GET: APIRoute = async () => {
  const model = await docsModel();
  const openapi = [{ href: absolute('/openapi.json'), type: 'application/openapi+json' }];
  const doc = (path: string) => [{ href: docOrIndex(model, path), type: 'text/html' }];
  return Response.json({
    linkset: [
      {
        anchor: absolute('/api'),
        'service-desc': openapi,
        'service-doc': doc('/docs/api/overview'),
        status: [{ href: absolute('/api/health'), type: 'application/json' }],
      },
      {
        anchor: absolute('/ask'),
        'service-desc': openapi,
        'service-doc': doc('/docs/api/ask'),
        status: [{ href: absolute('/api/health'), type: 'application/json' }],
      },
      {
        anchor: absolute('/api/mcp'),
        'service-desc': [{ href: absolute('/.well-known/mcp/server-card.json'), type: 'application/json' }],
        'service-doc': doc('/docs/api/mcp'),
        status: [{ href: absolute('/api/health'), type: 'application/json' }],
      },
    ],
  });
};
