// The requests of the fuzz suite, as fast-check arbitraries: one family per route of
// both apps (docs read API, assistant API, MCP of each, static files), each mixing
// values generated from the contract (schema-arbitrary.ts) with hostile ones:
// encodings and traversal in paths, sizes past every limit, control characters,
// wrong types and media types, JSON-RPC shapes, and raw bytes no HTTP client would
// send (malformed request lines and headers, oversized URLs, smuggling-style framing).
// A request's `family/variant` is its shape; the report counts distinct shapes.
import fc from 'fast-check';
import { METHODS } from 'node:http';
import { AskRequest as DocsAskRequest, BatchMarkdownRequest, Cursor, QueryText, SearchLimit, Tag, askModes } from '../../../gateway/contract/docs-api.ts';
import { AskRequest as AssistantAskRequest, ChatRequest, mcpAskTool } from '../../../gateway/contract/assistant-api.ts';
import { mcpTools } from '../../../gateway/contract/mcp.ts';
import { awkwardText, fromSchema, nearSchema, requestSchema } from './schema-arbitrary.ts';

export type Target = 'docs' | 'assistant';

export interface FuzzRequest {
  target: Target;
  family: string;
  variant: string;
  method: string;
  /** Path and query as sent on the request line. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole request as bytes, written to a socket as is (for what HTTP clients refuse to send). */
  raw?: Uint8Array;
}

export interface FuzzContext {
  /** Page paths of the build (`/docs/<section>/<page>`). */
  pages: string[];
  /** The assistant site's own origin (its CSRF guard compares Origin with it). */
  assistantOrigin: string;
}

const encoder = new TextEncoder();

/** Query-string values: valid by the contract, or the awkward strings clients send. */
const queryValue = (schemaValue: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 3, arbitrary: schemaValue.map(String) }, { weight: 1, arbitrary: awkwardText(80) }, { weight: 1, arbitrary: fc.constantFrom('', ' ', '%', '%zz', '%00', '0', '-1', '1e3', 'NaN', 'true', '[]', '{}') });

/** Percent-encoding that also takes lone surrogates (as their WTF-8 bytes), which clients do send. */
function percentEncode(text: string): string {
  if (text.isWellFormed()) return encodeURIComponent(text);
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code >= 0xd800 && code <= 0xdfff ? `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase() : encodeURIComponent(char);
  }
  return out;
}

function encodeQuery(pairs: [string, string][], raw: boolean): string {
  if (!pairs.length) return '';
  return '?' + pairs.map(([k, v]) => (raw ? `${k}=${v}` : `${percentEncode(k)}=${percentEncode(v)}`)).join('&');
}

/** The request as bytes on the wire, for request lines an HTTP client refuses to send. */
function asRawBytes(req: FuzzRequest): FuzzRequest {
  const body = req.body === undefined ? new Uint8Array() : typeof req.body === 'string' ? encoder.encode(req.body) : req.body;
  const headers = Object.entries({ host: '127.0.0.1', ...req.headers, ...(req.body === undefined ? {} : { 'content-length': String(body.length) }), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const head = encoder.encode(`${req.method} ${req.path} HTTP/1.1\r\n${headers}\r\n`);
  const raw = new Uint8Array(head.length + body.length);
  raw.set(head);
  raw.set(body, head.length);
  return { ...req, variant: `${req.variant}|raw-bytes`, raw };
}

/** Requests whose method, line or headers an HTTP client would refuse (or Node's parser would, before any routing) go out as raw bytes instead. */
export function sendable(req: FuzzRequest): FuzzRequest {
  if (req.raw) return req;
  const headersSafe = Object.values(req.headers).every((value) => /^[\t\x20-\x7e]*$/.test(value));
  return clientSafe(req.path) && headersSafe && METHODS.includes(req.method) ? req : asRawBytes(req);
}

/** A path an HTTP client can put on the request line, or null when only a raw socket can send it. */
function clientSafe(path: string): boolean {
  return /^[\x21-\x7e]*$/.test(path);
}

const mediaTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'text/plain',
  'multipart/form-data; boundary=xyz',
  'application/jsonx',
  'application/merge-patch+json',
  'application/octet-stream',
  '',
);

/** A body for a JSON endpoint: the contract's value serialized, or what breaks parsers. */
function jsonBody(value: fc.Arbitrary<{ value: unknown; variant: string }>): fc.Arbitrary<{ body: string; variant: string }> {
  return fc.oneof(
    { weight: 6, arbitrary: value.map(({ value, variant }) => ({ body: JSON.stringify(value) ?? 'null', variant })) },
    { weight: 1, arbitrary: awkwardText(200).map((body) => ({ body, variant: 'not-json' })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 50_000 }).map((n) => ({ body: '['.repeat(n) + ']'.repeat(n), variant: 'deep-nesting' })) },
    { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 600_000 }).map((n) => ({ body: JSON.stringify({ query: 'x'.repeat(n) }), variant: 'oversized' })) },
    { weight: 1, arbitrary: fc.constantFrom('', 'null', '[]', '{}', '"x"', '1', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}').map((body) => ({ body, variant: 'edge-json' })) },
  );
}

const idempotencyKey = fc.oneof(fc.stringMatching(/^[\x21-\x7e]{1,255}$/), fc.stringMatching(/^[\x21-\x7e]{256,300}$/));

function optionalHeaders(extra: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Record<string, string>> {
  return fc.record(extra, { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>;
}

const accept = fc.constantFrom('application/json', 'text/event-stream', 'text/html', '*/*', 'text/markdown', 'application/xml', 'garbage/;;;', 'text/html,application/xhtml+xml;q=0.9');

// ---- docs read API ----------------------------------------------------------------

function searchRequest(): fc.Arbitrary<FuzzRequest> {
  const params = fc.record(
    {
      query: queryValue(fromSchema(requestSchema(QueryText))),
      limit: queryValue(fromSchema(requestSchema(SearchLimit))),
      cursor: queryValue(fromSchema(requestSchema(Cursor))),
      tag: queryValue(fromSchema(requestSchema(Tag))),
      q: queryValue(fc.string()),
    },
    { requiredKeys: [] },
  );
  return fc.tuple(params, fc.boolean(), fc.constantFrom('/api/search', '/api/v1/search', '/api/search/', '/API/SEARCH'), fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE')).map(([p, raw, route, method]) => {
    const pairs = Object.entries(p) as [string, string][];
    const path = route + encodeQuery(pairs, raw);
    return { target: 'docs', family: 'search', variant: `${method}${raw ? '-raw' : ''}-${Object.keys(p).sort().join('+') || 'none'}`, method, path, headers: {} };
  });
}

function askRequest(): fc.Arbitrary<FuzzRequest> {
  const get = fc
    .tuple(
      fc.record({ query: queryValue(fc.string({ minLength: 1 })), q: queryValue(fc.string()), question: queryValue(fc.string()), mode: queryValue(fc.constantFrom(...askModes)), streaming: queryValue(fc.constantFrom('true', 'false', '1', '0')) }, { requiredKeys: [] }),
      optionalHeaders({ accept, 'idempotency-key': idempotencyKey }),
      fc.constantFrom('/ask', '/api/v1/ask'),
    )
    .map(([p, headers, route]): FuzzRequest => ({ target: 'docs', family: 'ask-get', variant: Object.keys(p).sort().join('+') || 'none', method: 'GET', path: route + encodeQuery(Object.entries(p) as [string, string][], false), headers }));
  const post = fc
    .tuple(jsonBody(nearSchema(requestSchema(DocsAskRequest))), mediaTypes, optionalHeaders({ accept, 'idempotency-key': idempotencyKey }))
    .map(([{ body, variant }, type, headers]): FuzzRequest => ({ target: 'docs', family: 'ask-post', variant: `${variant}|${type.split(';')[0]}`, method: 'POST', path: '/ask', headers: { ...headers, 'content-type': type }, body }));
  const form = fc
    .tuple(fc.dictionary(fc.constantFrom('query', 'q', 'question', 'mode', 'streaming', 'prefer.streaming', 'prefer.mode', 'x'), awkwardText(40)))
    .map(([fields]): FuzzRequest => ({ target: 'docs', family: 'ask-form', variant: Object.keys(fields).sort().join('+') || 'none', method: 'POST', path: '/ask', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }));
  return fc.oneof(get, post, form);
}

function batchRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const path = fc.oneof(fc.constantFrom(...ctx.pages), fc.constantFrom(...ctx.pages).map((p) => `${p}.md`), traversalPath(), awkwardText(30));
  const paths = fc.oneof(
    { weight: 3, arbitrary: fc.array(path, { minLength: 1, maxLength: 20 }).map((value) => ({ value: { paths: value }, variant: 'pages' })) },
    { weight: 2, arbitrary: nearSchema(requestSchema(BatchMarkdownRequest)) },
    { weight: 1, arbitrary: fc.array(path, { minLength: 21, maxLength: 60 }).map((value) => ({ value: { paths: value }, variant: 'too-many' })) },
  );
  return fc
    .tuple(jsonBody(paths), fc.oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: mediaTypes }), fc.constantFrom('', '?async=1', '?async=0', '?async=yes'), optionalHeaders({ prefer: fc.constantFrom('respond-async', 'respond-async, wait=5', 'return=minimal'), 'idempotency-key': idempotencyKey }), fc.constantFrom('/api/md/batch', '/api/v1/md/batch'))
    .map(([{ body, variant }, type, query, headers, route]) => ({ target: 'docs', family: 'batch', variant: `${variant}|${type.split(';')[0]}${query}`, method: 'POST', path: route + query, headers: { ...headers, 'content-type': type }, body }));
}

function jobRequest(): fc.Arbitrary<FuzzRequest> {
  const id = fc.oneof(fc.base64String({ maxLength: 400 }), fc.stringMatching(/^[A-Za-z0-9_-]{1,300}$/), fc.constantFrom('..', '%2e%2e', '%00', 'x'.repeat(5000), 'eyJwYXRocyI6WyIvZG9jcy9hL2IiXX0'));
  return fc.tuple(id, fc.constantFrom('/api/jobs/', '/api/v1/jobs/')).map(([value, route]) => {
    const path = route + (clientSafe(value) ? value : percentEncode(value));
    return { target: 'docs', family: 'jobs', variant: value.length > 200 ? 'long-id' : 'id', method: 'GET', path, headers: {} };
  });
}

// ---- MCP (both apps) -------------------------------------------------------------------

function jsonRpcMessage(tools: { name: string; inputSchema: unknown }[]): fc.Arbitrary<{ value: unknown; variant: string }> {
  const id = fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constant(null), fc.jsonValue({ maxDepth: 1 }));
  const toolArguments = tools.map((tool) => ({ name: tool.name, arguments: nearSchema(requestSchema(tool.inputSchema as never)) }));
  const toolCall = fc.constantFrom(...toolArguments).chain((tool) =>
    fc.tuple(id, tool.arguments).map(([messageId, args]) => ({
      value: { jsonrpc: '2.0', id: messageId, method: 'tools/call', params: { name: tool.name, arguments: args.value } },
      variant: `tools/call:${tool.name}:${args.variant}`,
    })),
  );
  const other = fc.tuple(id, fc.constantFrom('initialize', 'tools/list', 'resources/list', 'resources/templates/list', 'resources/read', 'prompts/list', 'ping', 'notifications/initialized', 'logging/setLevel', 'completion/complete', 'x/unknown'), fc.jsonValue({ maxDepth: 2 })).map(([messageId, method, params]) => ({
    value: method === 'initialize' ? { jsonrpc: '2.0', id: messageId, method, params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } } : { jsonrpc: '2.0', id: messageId, method, params },
    variant: method,
  }));
  const malformed = fc.jsonValue({ maxDepth: 3 }).map((value) => ({ value, variant: 'not-json-rpc' }));
  return fc.oneof({ weight: 4, arbitrary: toolCall }, { weight: 3, arbitrary: other }, { weight: 1, arbitrary: malformed });
}

function mcpRequest(target: Target, tools: { name: string; inputSchema: unknown }[]): fc.Arbitrary<FuzzRequest> {
  const message = jsonRpcMessage(tools);
  const body = fc.oneof(
    { weight: 5, arbitrary: message.map(({ value, variant }) => ({ body: JSON.stringify(value), variant })) },
    { weight: 2, arbitrary: fc.array(message, { minLength: 0, maxLength: 120 }).map((list) => ({ body: JSON.stringify(list.map((m) => m.value)), variant: `batch-${list.length > 20 ? 'large' : list.length}` })) },
    { weight: 1, arbitrary: jsonBody(fc.jsonValue().map((value) => ({ value, variant: 'json' }))) },
  );
  const headers = optionalHeaders({ accept: fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*'), 'mcp-protocol-version': fc.constantFrom('2025-06-18', '2025-03-26', '1999-01-01', ''), 'mcp-session-id': fc.string({ maxLength: 40 }).filter(clientSafe) });
  const post = fc.tuple(body, headers, fc.oneof({ weight: 5, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: mediaTypes })).map(([{ body: text, variant }, h, type]): FuzzRequest => ({ target, family: 'mcp', variant: `${variant}|${type.split(';')[0]}`, method: 'POST', path: '/api/mcp', headers: { accept: 'application/json, text/event-stream', ...h, 'content-type': type }, body: text }));
  const otherMethod = fc.constantFrom('GET', 'DELETE', 'PUT', 'HEAD', 'OPTIONS', 'PATCH').map((method): FuzzRequest => ({ target, family: 'mcp', variant: method, method, path: '/api/mcp', headers: { accept: 'text/event-stream' } }));
  return fc.oneof({ weight: 6, arbitrary: post }, { weight: 1, arbitrary: otherMethod });
}

// ---- assistant API -------------------------------------------------------------------------

function chatRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const origin = fc.oneof({ weight: 4, arbitrary: fc.constant(ctx.assistantOrigin) }, { weight: 1, arbitrary: fc.constantFrom('', 'null', 'https://evil.example', ctx.assistantOrigin + '.evil.example', ctx.assistantOrigin.toUpperCase()) });
  return fc
    .tuple(jsonBody(nearSchema(requestSchema(ChatRequest))), origin, fc.oneof({ weight: 5, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: mediaTypes }))
    .map(([{ body, variant }, o, type]): FuzzRequest => ({ target: 'assistant', family: 'chat', variant: `${variant}|origin-${o === ctx.assistantOrigin ? 'ok' : 'bad'}|${type.split(';')[0]}`, method: 'POST', path: '/api/chat', headers: { 'content-type': type, ...(o ? { origin: o } : {}) }, body }));
}

function assistantAskRequest(): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(jsonBody(nearSchema(requestSchema(AssistantAskRequest))), optionalHeaders({ accept }), fc.oneof({ weight: 5, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: mediaTypes }))
    .map(([{ body, variant }, headers, type]): FuzzRequest => ({ target: 'assistant', family: 'assistant-ask', variant: `${variant}|${type.split(';')[0]}`, method: 'POST', path: '/ask', headers: { ...headers, 'content-type': type }, body }));
}

// ---- static files, unknown paths, methods --------------------------------------------------

function traversalPath(): fc.Arbitrary<string> {
  const segment = fc.constantFrom('..', '.', '%2e%2e', '%2E%2E', '%252e%252e', '..%2f', '..%5c', '%c0%ae%c0%ae', '..\\..', '%00', '', 'docs', 'api', 'pagefind', 'etc', 'passwd', '.well-known', 'site', 'dist', 'node_modules', 'package.json', '.git', 'llms.txt', 'index.html', '~', '%2f', ';', 'a?b', 'a#b', '%ff', '%e2%80%ae');
  return fc.array(segment, { minLength: 1, maxLength: 8 }).map((parts) => '/' + parts.join('/'));
}

function staticRequest(target: Target, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const known = fc.constantFrom(
    ...ctx.pages,
    ...ctx.pages.map((p) => `${p}.md`),
    '/',
    '/docs/',
    '/llms.txt',
    '/llms-full.txt',
    '/openapi.json',
    '/api/openapi',
    '/api-policy.md',
    '/.well-known/api-catalog',
    '/.well-known/agent-card.json',
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-authorization-server',
    '/.well-known/mcp/server-card.json',
    '/pagefind/pagefind-ui.js',
    '/pagefind/pagefind-entry.json',
    '/404',
    '/index.md',
  );
  const path = fc.oneof({ weight: 3, arbitrary: known }, { weight: 3, arbitrary: traversalPath() }, { weight: 1, arbitrary: awkwardText(60).map((s) => '/' + percentEncode(s)) }, { weight: 1, arbitrary: fc.stringMatching(/^\/[a-z0-9/._-]{0,80}$/) });
  const headers = optionalHeaders({ accept, range: fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=999999-', 'bytes=5-1', 'bytes=0-1,3-4', 'lines=1-2'), 'if-none-match': fc.constantFrom('*', '"x"', 'W/"y"', ''), 'if-modified-since': fc.constantFrom('Thu, 01 Jan 1970 00:00:00 GMT', 'garbage'), 'accept-encoding': fc.constantFrom('br, gzip', 'gzip', 'identity', 'x;q=NaN') });
  return fc.tuple(path, headers, fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'OPTIONS', 'PUT', 'PROPFIND')).map(([p, h, method]): FuzzRequest => ({ target, family: 'static', variant: `${method}|${p.startsWith('/docs/') ? 'docs' : p.split('/')[1]?.slice(0, 12) ?? ''}`, method, path: p, headers: h }));
}

function unknownApiRequest(target: Target): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(fc.constantFrom('/api/', '/api/v1/', '/api/v2/', '/api/v0/', '/api/chat/', '/ask/'), fc.stringMatching(/^[a-z0-9._~-]{0,40}$/), fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'BREW'))
    .map(([prefix, rest, method]): FuzzRequest => ({ target, family: 'unknown-api', variant: `${method}|${prefix}`, method, path: prefix + rest, headers: {} }));
}

/** Requests only a raw socket sends: the server must answer them, or close, never crash. */
function rawRequest(target: Target): fc.Arbitrary<FuzzRequest> {
  const host = 'Host: 127.0.0.1\r\n';
  const cases = fc.oneof(
    fc.integer({ min: 17_000, max: 70_000 }).map((n) => ({ variant: 'long-url', text: `GET /api/search?query=${'a'.repeat(n)} HTTP/1.1\r\n${host}\r\n` })),
    fc.integer({ min: 9_000, max: 40_000 }).map((n) => ({ variant: 'long-header', text: `GET /api/health HTTP/1.1\r\n${host}X-Big: ${'b'.repeat(n)}\r\n\r\n` })),
    fc.integer({ min: 120, max: 400 }).map((n) => ({ variant: 'many-headers', text: `GET /api/health HTTP/1.1\r\n${host}${Array.from({ length: n }, (_, i) => `X-H${i}: v\r\n`).join('')}\r\n` })),
    fc.constantFrom(
      { variant: 'bad-header-byte', text: `GET /api/health HTTP/1.1\r\n${host}X-Bad: a\u0001b\r\n\r\n` },
      { variant: 'bad-header-name', text: `GET /api/health HTTP/1.1\r\n${host}Bad Header: x\r\n\r\n` },
      { variant: 'no-host', text: 'GET /api/health HTTP/1.1\r\n\r\n' },
      { variant: 'http10', text: 'GET /api/health HTTP/1.0\r\n\r\n' },
      { variant: 'http09', text: 'GET /api/health\r\n\r\n' },
      { variant: 'bad-version', text: `GET /api/health HTTP/9.9\r\n${host}\r\n` },
      { variant: 'garbage-line', text: '\u0000\u0001\u0002 nonsense\r\n\r\n' },
      { variant: 'space-in-path', text: `GET /api/search?query=a b HTTP/1.1\r\n${host}\r\n` },
      { variant: 'control-in-path', text: `GET /docs/\u0007x HTTP/1.1\r\n${host}\r\n` },
      { variant: 'absolute-form', text: `GET http://127.0.0.1/api/health HTTP/1.1\r\n${host}\r\n` },
      { variant: 'asterisk', text: `OPTIONS * HTTP/1.1\r\n${host}\r\n` },
      { variant: 'cl-and-te', text: `POST /ask HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n` },
      { variant: 'duplicate-cl', text: `POST /ask HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}` },
      { variant: 'negative-cl', text: `POST /ask HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n` },
      { variant: 'short-body', text: `POST /ask HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{"query":` },
      { variant: 'bad-chunk', text: `POST /ask HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n` },
      { variant: 'huge-chunk', text: `POST /api/md/batch HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nffffffffff\r\n{}\r\n` },
      { variant: 'utf8-path', text: `GET /docs/\u00e9t\u00e9/\u{1F600} HTTP/1.1\r\n${host}\r\n` },
    ),
  );
  return cases.map(({ variant, text }): FuzzRequest => ({ target, family: 'raw', variant, method: 'RAW', path: text.slice(0, text.indexOf(' ', 5) > 0 ? Math.min(text.indexOf(' ', 5), 60) : 20), headers: {}, raw: encoder.encode(text) }));
}

/** Every family of both apps, weighted toward the dynamic routes. */
export function fuzzRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const assistantTools = [{ name: mcpAskTool.name, inputSchema: mcpAskTool.inputSchema }];
  return fc.oneof(
    { weight: 6, arbitrary: searchRequest() },
    { weight: 5, arbitrary: askRequest() },
    { weight: 4, arbitrary: batchRequest(ctx) },
    { weight: 2, arbitrary: jobRequest() },
    { weight: 4, arbitrary: mcpRequest('docs', [...mcpTools]) },
    { weight: 4, arbitrary: staticRequest('docs', ctx) },
    { weight: 2, arbitrary: unknownApiRequest('docs') },
    { weight: 2, arbitrary: rawRequest('docs') },
    { weight: 3, arbitrary: chatRequest(ctx) },
    { weight: 3, arbitrary: assistantAskRequest() },
    { weight: 2, arbitrary: mcpRequest('assistant', assistantTools) },
    { weight: 1, arbitrary: staticRequest('assistant', ctx) },
    { weight: 1, arbitrary: unknownApiRequest('assistant') },
    { weight: 1, arbitrary: rawRequest('assistant') },
  );
}

