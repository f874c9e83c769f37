// /api/mcp: MCP over Streamable HTTP, stateless (a new server and transport per
// request), one tool `ask`. GET (no server-initiated stream) and other methods are
// 405 in the site's envelope. Only `tools/call` messages count against the rate limit
// (they run the model; initialize/list do not).
import type { H3Event } from 'h3';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ASSISTANT_API_VERSION, MCP_PATH, assistantLimits, mcpAskTool, type ErrorCode } from '../../contract/assistant-api.ts';
import { parseJson, readLimitedText, requireJson } from '../body.ts';
import { countRequest, enforcePolicy, methodNotAllowed, type AssistantContext } from '../context.ts';
import { AssistantError, toErrorResponse } from '../errors.ts';
import { collectAnswer, startAsk } from './ask.ts';

const ALLOW = ['POST', 'OPTIONS'];

function toolCalls(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => m && typeof m === 'object' && (m as { method?: unknown }).method === 'tools/call').length;
}

function toolError(code: ErrorCode, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }] };
}

// The MCP SDK is loaded on the first MCP request, not at startup (≈100 ms of module loading).
type Sdk = [typeof import('@modelcontextprotocol/sdk/server/mcp.js'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')];
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]));

function createServer({ McpServer }: Sdk[0], ctx: AssistantContext, signal: AbortSignal): McpServer {
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

/** A transport response that is not 2xx, in the site's envelope (the JSON-RPC message becomes `error`). */
async function toEnvelope(res: Response): Promise<Response> {
  let message = res.statusText || 'MCP request rejected';
  try {
    const body = (await res.json()) as { error?: { message?: string } };
    if (body?.error?.message) message = body.error.message;
  } catch {
    // not JSON: keep the status text
  }
  const code: ErrorCode =
    res.status === 405 ? 'method_not_allowed' : res.status === 413 ? 'payload_too_large' : res.status === 415 ? 'unsupported_media_type' : res.status >= 500 ? 'internal_error' : 'invalid_request';
  const headers: Record<string, string> = {};
  if (res.headers.get('allow')) headers.Allow = res.headers.get('allow')!;
  return toErrorResponse(new AssistantError(code, message, headers));
}

export function mcpHandler(ctx: AssistantContext) {
  return async (event: H3Event): Promise<Response> => {
    const req = event.req as unknown as Request;
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: ALLOW.join(', ') } });
    if (req.method !== 'POST') {
      throw methodNotAllowed(req.method, MCP_PATH, ALLOW);
    }
    requireJson(req);
    const parsedBody = parseJson(await readLimitedText(req, assistantLimits.mcpBodyMaxBytes));
    for (let i = toolCalls(parsedBody); i > 0; i--) await countRequest(ctx, event);

    // Stateless JSON responses: accept clients that only say application/json.
    const headers = new Headers(req.headers);
    const accept = headers.get('accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) headers.set('accept', 'application/json, text/event-stream');
    const forwarded = new Request(req.url, { method: 'POST', headers });

    const [mcp, { WebStandardStreamableHTTPServerTransport }] = await loadSdk();
    const server = createServer(mcp, ctx, req.signal);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const res = await transport.handleRequest(forwarded, { parsedBody });
      if (res.status >= 400) return await toEnvelope(res);
      // Buffer the (small) JSON body so the server can be closed now.
      const text = res.status === 202 || res.body === null ? null : await res.text();
      return new Response(text, { status: res.status, headers: res.headers });
    } finally {
      await server.close().catch(() => {});
    }
  };
}
