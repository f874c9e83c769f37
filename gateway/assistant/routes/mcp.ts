// /api/mcp: MCP over Streamable HTTP through the shared wiring (gateway/mcp/serve.ts),
// stateless (a new server and transport per request), one tool `ask`. GET (no
// server-initiated stream) and other methods are 405 in the site's envelope. Only
// `tools/call` messages count against the rate limit (they run the model; initialize
// and lists do not).
import type { H3Event } from 'h3';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { ASSISTANT_API_VERSION, MCP_PATH, assistantLimits, mcpAskTool, type ErrorCode } from '../../contract/assistant-api.ts';
import { serveMcp } from '../../mcp/serve.ts';
import { countRequest, enforcePolicy, methodNotAllowed, type AssistantContext } from '../context.ts';
import { AssistantError } from '../errors.ts';
import { collectAnswer, startAsk } from './ask.ts';

const ALLOW = ['POST', 'OPTIONS'];

function toolError(code: ErrorCode, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }] };
}

// The MCP SDK's server class is loaded on the first MCP request, not at startup (≈100 ms of module loading).
let mcp: Promise<typeof import('@modelcontextprotocol/sdk/server/mcp.js')> | undefined;
const loadMcp = () => (mcp ??= import('@modelcontextprotocol/sdk/server/mcp.js'));

function createServer(McpServer: typeof import('@modelcontextprotocol/sdk/server/mcp.js').McpServer, ctx: AssistantContext, signal: AbortSignal): McpServer {
  const server = new McpServer(
    { name: 'portfolio-assistant', title: `Assistant of ${new URL(ctx.siteUrl).host}`, version: ASSISTANT_API_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: `Use the \`${mcpAskTool.name}\` tool for questions about the owner of ${ctx.siteUrl} and their work.` },
  );
  server.registerTool(
    mcpAskTool.name,
    {
      title: mcpAskTool.title,
      description: mcpAskTool.description,
      inputSchema: mcpAskTool.inputSchema,
      outputSchema: mcpAskTool.outputSchema,
      annotations: mcpAskTool.annotations,
    },
    async ({ query }): Promise<CallToolResult> => {
      try {
        enforcePolicy(ctx, [query]);
        const started = await startAsk(ctx, query, signal);
        const { answer, sources } = await collectAnswer(started);
        const text = `${answer}\n\nSources:\n${sources.map((s, i) => `[${i + 1}] ${s.title}: ${s.url}`).join('\n')}`;
        return { content: [{ type: 'text', text }], structuredContent: { answer, sources, answer_backend: started.run.backend } };
      } catch (err) {
        if (err instanceof AssistantError) return toolError(err.code, err.message);
        console.error('[assistant] mcp ask failed:', err);
        return toolError('internal_error', 'Internal server error while answering.');
      }
    },
  );
  // Stateless: the lists never change within a session, as the server card says; the SDK
  // announces listChanged: true when tools are registered, so restate it before connecting.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}

const toolInputs: ReadonlyMap<string, z.ZodType> = new Map([[mcpAskTool.name, mcpAskTool.inputSchema]]);

export function mcpHandler(ctx: AssistantContext) {
  return async (event: H3Event): Promise<Response> => {
    const req = event.req as unknown as Request;
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: ALLOW.join(', ') } });
    if (req.method !== 'POST') throw methodNotAllowed(req.method, MCP_PATH, ALLOW);
    return serveMcp(req, {
      limit: assistantLimits.mcpBodyMaxBytes,
      endpoint: `POST ${MCP_PATH}`,
      tools: toolInputs,
      // a tool call runs the model: it counts like POST /ask; initialize and lists do not
      accepted: async (message) => {
        if (message.method === 'tools/call') await countRequest(ctx, event);
      },
      createServer: async (signal) => createServer((await loadMcp()).McpServer, ctx, signal),
    });
  };
}
