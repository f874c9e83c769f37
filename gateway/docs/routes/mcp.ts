// POST /api/mcp (and /api/v1/mcp): MCP over Streamable HTTP, stateless and open, through
// the shared MCP wiring (gateway/mcp/serve.ts); the docs tools live in ../mcp.ts. GET
// answers 405 (no standalone stream). HTTP-level refusals are Problems that are also
// JSON-RPC error responses (the pipeline keeps the wiring's JSON-RPC `body` as extension
// members), so both kinds of client can read them.
import type { H3Event } from 'h3';
import { MCP_PATH } from '../../contract/mcp.ts';
import { serveMcp } from '../../mcp/serve.ts';
import { requireMethod } from '../methods.ts';
import { requireManifest } from '../ready.ts';
import type { DocsRuntime } from '../runtime.ts';

// The docs MCP server (and the SDK under it) is loaded on the first MCP request.
let tools: Promise<typeof import('../mcp.ts')> | undefined;
const loadTools = () => (tools ??= import('../mcp.ts'));

export function mcpRoute(rt: DocsRuntime) {
  return async (event: H3Event): Promise<Response> => {
    requireMethod(event, ['POST']);
    const { createMcpServer, docsToolInputs } = await loadTools();
    return serveMcp(event.req as unknown as Request, {
      limit: rt.config.bodyLimitBytes,
      endpoint: `POST ${MCP_PATH}`,
      tools: docsToolInputs,
      accepted: () => void requireManifest(rt),
      createServer: () => createMcpServer(rt),
    });
  };
}
