// The assistant API's OpenAPI description, generated from its zod contract.
import type { APIRoute } from 'astro';
import { assistantOpenApi } from '../../../../gateway/contract/assistant-api.ts';
import { portfolioModel } from '../_lib/portfolio.ts';

export const GET: APIRoute = async () => {
  const { site } = await portfolioModel();
  return new Response(JSON.stringify(assistantOpenApi({ siteUrl: site.url, siteName: site.name, description: site.description }), null, 2));
};
