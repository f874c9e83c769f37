// The docs read API's OpenAPI, generated from the gateway's zod contract: the
// build only serializes it, so nothing about the API is written twice.
import { docsOpenApi } from '../../gateway/contract/openapi.ts';
import { loadSiteConfig } from './site-config.ts';

export function openApiJson(): string {
  const site = loadSiteConfig();
  return `${JSON.stringify(docsOpenApi({ siteUrl: site.url, siteName: site.name, description: site.description }), null, 2)}\n`;
}
