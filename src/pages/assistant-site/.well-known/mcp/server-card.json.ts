// MCP server card of the assistant site's MCP endpoint (/api/mcp), tool schemas from the contract.
import type { APIRoute } from 'astro';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { McpAskInput, McpAskOutput } from '../../../../../gateway/contract/assistant-api.ts';
import { mcpServerCard } from '../../_lib/agent.ts';
import { portfolioModel } from '../../_lib/portfolio.ts';

const schema = (s: z.ZodType, io: 'input' | 'output') => {
  const out = z.toJSONSchema(s, { io }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};

export const GET: APIRoute = async () =>
  new Response(
    JSON.stringify(mcpServerCard(await portfolioModel(), LATEST_PROTOCOL_VERSION, schema(McpAskInput, 'input'), schema(McpAskOutput, 'output')), null, 2),
  );
