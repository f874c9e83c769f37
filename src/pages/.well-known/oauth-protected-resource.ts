// RFC 9728 protected-resource metadata: it states that nothing is protected.
import type { APIRoute } from 'astro';
import { docsModel } from '../../lib/docs.ts';
import { docOrIndex } from '../../lib/links.ts';
import { loadSiteConfig } from '../../lib/site-config.ts';

export const GET: APIRoute = async () => {
  const site = loadSiteConfig();
  return Response.json({
    resource: site.url,
    resource_name: `${site.name} docs read API`,
    authorization_servers: [],
    bearer_methods_supported: [],
    scopes_supported: [],
    resource_documentation: docOrIndex(await docsModel(), '/docs/api/authentication'),
  });
};
