// MCP server card: the Streamable HTTP endpoint and its tools, from the contract.
import type { APIRoute } from 'astro';
import { mcpServerCard } from '../../../../gateway/contract/mcp.ts';
import { loadSiteConfig } from '../../../lib/site-config.ts';

export const GET: APIRoute = () => {
  const site = loadSiteConfig();
  return Response.json(mcpServerCard(site.url, { name: site.name, description: site.description, version: site.version }));
};
