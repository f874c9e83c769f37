// The MCP endpoint of both apps (Streamable HTTP, stateless: one server and transport per
// POST, JSON answers only); the apps differ only in their tools. Everything a request
// can get wrong is refused here, before a server is built or a tool runs:
//   - the body: JSON media type, size limit, JSON syntax (the shared body reader);
//   - a JSON array: the 2025-06-18 transport has no batching, and a batch would let one
//     POST run any number of tool calls past the rate limit and the output cap;
//   - params that do not match the method's schema, and tool arguments that do not match
//     the tool's input schema: JSON-RPC -32602 with a one-line message (the SDK would
//     answer -32603 with a zod dump for the first, a multi-line tool error for the second).
// After the call, a result over MCP_RESULT_MAX_BYTES is replaced by an error that says so.
// Refusals are h3 HTTPErrors whose `body` is the JSON-RPC error, so each app can answer
// in its own envelope and a JSON-RPC client still reads `error.code`.
import { HTTPError } from 'h3';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';
import { mcpLimits } from '../contract/mcp.ts';
import { parseJsonText, readBody } from '../http/body.ts';
import { errorHeaders } from '../http/fast-response.ts';

/** JSON-RPC error codes used here (JSON-RPC 2.0 §5.1; -32000 is the SDK's "server error"). */
const rpc = { parse: -32700, invalidRequest: -32600, invalidParams: -32602, server: -32000 } as const;

export interface McpEndpoint {
  /** Largest request body in bytes. */
  limit: number;
  /** Named in messages, e.g. `POST /api/mcp`. */
  endpoint: string;
  /** Input schema of each tool, by name. */
  tools: ReadonlyMap<string, z.ZodType>;
  /** The server for one request; `signal` aborts when the client goes away. */
  createServer(signal: AbortSignal): McpServer | Promise<McpServer>;
  /** Runs once the message is known to be valid, before the server sees it (e.g. rate limits per tool call). */
  accepted?(message: RpcMessage): Promise<void> | void;
}

export interface RpcMessage {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const errorBody = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0' as const, id: id ?? null, error: { code, message } });

/** An HTTP-level refusal that is also a JSON-RPC error response. */
function refusal(status: number, code: number, message: string, headers?: Record<string, string>): HTTPError {
  return new HTTPError({ status, message, headers, body: errorBody(null, code, message) });
}

/** A JSON-RPC error answer to a request that reached the protocol (HTTP 200, as the transport answers them). */
function rpcError(id: unknown, code: number, message: string): Response {
  return Response.json(errorBody(id, code, message), { status: 200 });
}

/** One line for a zod error: `limit: Too big: expected number to be <=100; query: …`. */
export function oneLine(error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message).replace(/\s+/g, ' '));
  return parts.join('; ') + (error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '');
}

type Sdk = [typeof import('@modelcontextprotocol/sdk/types.js'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')];
// Loaded on the first MCP request: ≈100 ms of module loading that most starts never need.
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/types.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]));

let requestSchemas: Map<string, z.ZodType> | undefined;
/** method → the SDK's request schema, for every request a client may send. */
function schemaFor(types: Sdk[0], method: string): z.ZodType | undefined {
  requestSchemas ??= new Map(
    (types.ClientRequestSchema.options as unknown as { shape: { method: { value: string } } }[]).map((s) => [s.shape.method.value, s as unknown as z.ZodType]),
  );
  return requestSchemas.get(method);
}

/** The body as one JSON-RPC message, or the refusal. */
async function readMessage(req: Request, ep: McpEndpoint): Promise<unknown> {
  let text: string;
  try {
    ({ text } = await readBody(req, { limit: ep.limit, types: ['json'], endpoint: ep.endpoint }));
  } catch (err) {
    if (HTTPError.isError(err)) throw refusal(err.status, rpc.server, err.message, errorHeaders(err));
    throw err;
  }
  let message: unknown;
  try {
    message = parseJsonText(text);
  } catch (err) {
    throw refusal(400, rpc.parse, `Parse error: ${(err as Error).message}`);
  }
  if (Array.isArray(message)) {
    throw refusal(400, rpc.invalidRequest, 'Invalid Request: JSON-RPC batches are not supported (MCP Streamable HTTP, 2025-06-18); send one message per POST.');
  }
  return message;
}

/** Params and tool arguments checked against their schemas; a JSON-RPC error answer, or undefined when valid. */
function checkRequest(types: Sdk[0], message: RpcMessage, ep: McpEndpoint): Response | undefined {
  if (typeof message.method !== 'string' || message.id === undefined) return undefined; // notifications, responses, junk: the transport's
  const schema = schemaFor(types, message.method);
  if (!schema) return undefined; // unknown method: the server answers -32601
  const checked = schema.safeParse({ method: message.method, params: message.params });
  if (!checked.success) return rpcError(message.id, rpc.invalidParams, `Invalid params for ${message.method}: ${oneLine(checked.error)}`);
  if (message.method !== 'tools/call') return undefined;
  const params = message.params as { name: string; arguments?: unknown };
  const input = ep.tools.get(params.name);
  if (!input) return undefined; // unknown tool: the server says so
  const args = input.safeParse(params.arguments ?? {});
  if (!args.success) return rpcError(message.id, rpc.invalidParams, `Invalid arguments for tool ${params.name}: ${oneLine(args.error)}`);
  return undefined;
}

/**
 * The answer with a tool result or resource over the cap replaced by an error naming the cap, and what to do instead:
 * a resource has no paging, but the `fetch` tool reads the same page in parts.
 */
export function capped(text: string, message: RpcMessage): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= mcpLimits.resultMaxBytes || (message.method !== 'tools/call' && message.method !== 'resources/read')) return text;
  const over = `The result would be ${bytes} bytes, more than the ${mcpLimits.resultMaxBytes} bytes one MCP response may carry`;
  if (message.method === 'resources/read') return JSON.stringify(errorBody(message.id, rpc.server, `${over}; read the page with the fetch tool, which answers in parts (offset, next_offset), or over HTTP.`));
  const why = `${over}; ask for less (fewer paths, a smaller limit) or read the page over HTTP.`;
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: why }], isError: true } });
}

/** A JSON client need not list text/event-stream: this server never streams. An Accept that excludes JSON gets the transport's 406. */
function acceptingJson(req: Request): Headers {
  const headers = new Headers(req.headers);
  const accept = headers.get('accept') ?? '';
  const json = accept === '' || /(^|,)\s*(application\/json|application\/\*|\*\/\*)\s*(;|,|$)/i.test(accept);
  if (json && !/text\/event-stream/i.test(accept)) headers.set('accept', 'application/json, text/event-stream');
  return headers;
}

/** Answers one POST to an MCP endpoint. Throws HTTPErrors (with a JSON-RPC `body`) for HTTP-level refusals. */
export async function serveMcp(req: Request, ep: McpEndpoint): Promise<Response> {
  const message = await readMessage(req, ep);
  const [types, { WebStandardStreamableHTTPServerTransport }] = await loadSdk();
  const rpcMessage: RpcMessage = message && typeof message === 'object' ? (message as RpcMessage) : {};
  const invalid = checkRequest(types, rpcMessage, ep);
  if (invalid) return invalid;
  await ep.accepted?.(rpcMessage);

  const server = await ep.createServer(req.signal);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // A client that goes away aborts the running tool calls (closing the server aborts their signals).
  const onAbort = () => void server.close();
  req.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await server.connect(transport);
    const res = await transport.handleRequest(new Request(req.url, { method: 'POST', headers: acceptingJson(req) }), { parsedBody: message });
    if (res.status >= 400) throw await transportRefusal(res);
    // Buffered (a JSON answer), so that the server can close now.
    const text = res.status === 202 || res.body === null ? null : capped(await res.text(), rpcMessage);
    const headers = new Headers(res.headers);
    if (text === null) headers.delete('content-length');
    else headers.set('content-length', String(Buffer.byteLength(text, 'utf8')));
    return new Response(text, { status: res.status, headers });
  } finally {
    req.signal.removeEventListener('abort', onAbort);
    await server.close().catch(() => {});
  }
}

/** The transport's own 4xx/5xx (406, an invalid message) as a refusal. */
async function transportRefusal(res: Response): Promise<HTTPError> {
  let message = res.statusText || `MCP transport error ${res.status}`;
  let code: number = rpc.server;
  try {
    const body = (await res.json()) as { error?: { code?: number; message?: string } };
    message = body.error?.message ?? message;
    code = body.error?.code ?? code;
  } catch {
    // not JSON: keep the status text
  }
  const headers: Record<string, string> = {};
  const allow = res.headers.get('allow');
  if (allow) headers.allow = allow;
  return refusal(res.status, code, message, headers);
}
