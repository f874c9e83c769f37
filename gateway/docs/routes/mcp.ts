// POST /api/mcp (and /api/v1/mcp): MCP over Streamable HTTP, stateless and open.
// GET answers 405 (no standalone stream). HTTP-level failures are Problems that are
// also JSON-RPC error responses, so both kinds of client can read them.
import type { H3Event } from 'h3';
import type { ProblemSlug } from '../../contract/problems.ts';
import { isJsonType } from '../../http/media-type.ts';
import { mediaType, readLimitedText } from '../body.ts';
import { requireMethod } from '../methods.ts';
import { ProblemError, slugForStatus } from '../problem.ts';
import { requireManifest } from '../ready.ts';
import type { DocsRuntime } from '../runtime.ts';

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

function rpcProblem(slug: ProblemSlug, code: number, message: string): ProblemError {
  return new ProblemError(slug, message, { extra: jsonRpcError(code, message) });
}

/** The transport's own 4xx JSON-RPC errors, re-served as Problems. */
async function asProblem(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  let message = `MCP transport error ${res.status}`;
  let code = -32000;
  try {
    const body = (await res.json()) as { error?: { code?: number; message?: string } };
    message = body.error?.message ?? message;
    code = body.error?.code ?? code;
  } catch {
    // not JSON: keep the generic message
  }
  throw rpcProblem(slugForStatus(res.status), code, message);
}

// The MCP SDK (and the server built on it) is loaded on the first MCP request: ≈100 ms of module loading at
// startup for a route most deployments rarely see.
let sdk: Promise<[typeof import('../mcp.ts'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]> | undefined;
const loadSdk = () => (sdk ??= Promise.all([import('../mcp.ts'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]));

export function mcpRoute(rt: DocsRuntime) {
  return async (event: H3Event): Promise<Response> => {
    requireMethod(event, ['POST']);
    if (!isJsonType(mediaType(event))) throw rpcProblem('unsupported-media-type', -32000, 'Unsupported Media Type: Content-Type must be application/json');
    const text = await readLimitedText(event, rt.config.bodyLimitBytes);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      throw rpcProblem('invalid-request-body', -32700, 'Parse error: Invalid JSON');
    }
    requireManifest(rt);
    const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await loadSdk();
    const server = createMcpServer(rt);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    // A client that goes away aborts the running tool calls (closing aborts their signals).
    const signal = event.req.signal;
    const onAbort = () => void server.close();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await asProblem(await transport.handleRequest(event.req as unknown as Request, { parsedBody: message }));
    } finally {
      signal.removeEventListener('abort', onAbort);
      void server.close();
    }
  };
}
