// The assistant API contract (companion portfolio site, spec: assistant-api.md):
// every request, response, event and error shape as zod schemas. The assistant app
// validates with them, the build generates /.well-known/openapi.json and the MCP
// server card from them, and the tests check responses against them.
import { z } from 'zod';
import { API_VERSION } from './docs-api.ts';
import { errorResponse, headerComponents, headerRefs, ref, responseRefs, schemaComponents, type Json } from './json-schema.ts';

export const ASSISTANT_API_VERSION = API_VERSION;

export const assistantLimits = {
  /** Messages per chat request. */
  messagesMax: 20,
  /** Characters (Unicode code points, as JSON Schema counts them) per message `content`. */
  contentMaxChars: 2000,
  /** Characters in the `query` of /ask and of the MCP `ask` tool. */
  queryMaxChars: 2000,
  /**
   * Body size limits, checked before the body is read (Content-Length) and while it is
   * read. Sized so that the largest valid body fits even when every character is sent
   * as a JSON escaped surrogate pair (12 bytes per code point).
   */
  chatBodyMaxBytes: 512 * 1024,
  askBodyMaxBytes: 32 * 1024,
  mcpBodyMaxBytes: 32 * 1024,
  /** Defaults of ASSISTANT_RATE_LIMIT_MAX / ASSISTANT_RATE_LIMIT_WINDOW_S. */
  rateLimitMax: 10,
  rateLimitWindowSeconds: 60,
} as const;

export const CHAT_PATH = '/api/chat';
export const ASK_PATH = '/ask';
export const MCP_PATH = '/api/mcp';

/** Separator between the streamed answer and its source list in a /api/chat body. */
export const CHAT_SOURCES_MARKER = '\n\nSources:\n';
/** Written instead of the source list when the model fails after the answer started. */
export const CHAT_INTERRUPTED_MARKER = '\n\n[interrupted: unavailable]\n';

// ---- errors ------------------------------------------------------------------------

export const errorCodes = [
  'invalid_request',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'unavailable',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const errorStatus: Readonly<Record<ErrorCode, number>> = {
  invalid_request: 400,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
};

export const errorMeaning: Readonly<Record<ErrorCode, string>> = {
  invalid_request: 'Malformed JSON, a body that fails validation (message count, roles, lengths) or content blocked by the content policy. Do not retry unchanged.',
  forbidden: '`/api/chat` only: the `Origin` header is missing or is not this site. Server-side clients use `/ask` instead.',
  not_found: 'No such page or endpoint.',
  method_not_allowed: 'Wrong HTTP method; `Allow` lists the right ones.',
  payload_too_large: 'The body is larger than the endpoint accepts.',
  unsupported_media_type: 'The body is not `application/json`.',
  rate_limited: 'More than the allowed requests per IP per minute; wait `Retry-After` seconds.',
  internal_error: 'Unexpected server error; retry with exponential backoff.',
  unavailable: 'The model backend is temporarily unreachable (refused, timed out or failing); retry with backoff (1 s, 2 s, 4 s).',
};

export const ErrorEnvelope = z
  .object({
    error: z.string().describe('Human-readable message.'),
    code: z.enum(errorCodes).describe('Machine-readable code; clients branch on it.'),
  })
  .describe('Every non-2xx response of the assistant site.');
export type ErrorEnvelopeT = z.infer<typeof ErrorEnvelope>;

// ---- requests ----------------------------------------------------------------------

/** Length in Unicode code points (what JSON Schema `maxLength` counts). */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const boundedText = (max: number, what: string) =>
  z
    .string({ message: `${what} must be a string` })
    .min(1, `${what} must not be empty`)
    .refine((s) => charLength(s) <= max, { message: `${what} must be at most ${max} characters` })
    .meta({ maxLength: max });

export const chatRoles = ['user', 'assistant'] as const;

export const ChatMessage = z
  .object({
    role: z.enum(chatRoles, { message: 'role must be "user" or "assistant"' }).describe('`user` for the visitor, `assistant` for earlier answers of this assistant.'),
    content: boundedText(assistantLimits.contentMaxChars, 'content').describe(`Message text, 1 to ${assistantLimits.contentMaxChars} characters.`),
  })
  .describe('One chat message.');

export const ChatRequest = z
  .object({
    messages: z
      .array(ChatMessage, { message: 'messages must be an array' })
      .min(1, 'messages must contain at least one message')
      .max(assistantLimits.messagesMax, `messages must contain at most ${assistantLimits.messagesMax} messages`)
      .refine((m) => m.length === 0 || m[m.length - 1]!.role === 'user', { message: 'the last message must have role "user"' })
      .describe(`The conversation so far, oldest first: 1 to ${assistantLimits.messagesMax} messages, the last one from the user.`),
  })
  .describe('Body of POST /api/chat.');
export type ChatRequestT = z.infer<typeof ChatRequest>;

export const AskRequest = z
  .object({
    query: boundedText(assistantLimits.queryMaxChars, 'query').describe(`The question, 1 to ${assistantLimits.queryMaxChars} characters.`),
    prefer: z
      .object({ streaming: z.boolean({ message: 'prefer.streaming must be true or false' }).optional().describe('true: answer as Server-Sent Events.') })
      .optional(),
  })
  .describe('Body of POST /ask.');
export type AskRequestT = z.infer<typeof AskRequest>;

// ---- responses ---------------------------------------------------------------------

export const answerBackends = ['model', 'extractive'] as const;

export const AskSource = z
  .object({
    title: z.string().describe('Page title.'),
    url: z.url().describe('Absolute URL of the page on this site.'),
    content: z.string().describe('Plain-text excerpt of the page the answer was grounded in.'),
  })
  .describe('A page the answer is grounded in.');

export const AskMeta = z
  .object({
    response_type: z.literal('generate').describe('Always `generate`: a generated answer grounded in the site pages.'),
    version: z.string().describe('API version.'),
    answer_backend: z.enum(answerBackends).optional().describe('`model` when the configured language model answered, `extractive` when the built-in extractive answerer did (no model configured).'),
    count: z.int().min(0).optional().describe('Number of sources.'),
  })
  .describe('Response metadata.');

export const AskResponse = z
  .object({
    query_id: z.string().optional().describe('Server-assigned id of this query.'),
    query: z.string().describe('The query as received.'),
    answer: z.string().describe('The answer, plain text.'),
    sources: z.array(AskSource).describe('Pages the answer is grounded in, best first; a marker `[n]` in the answer refers to `sources[n-1]`.'),
    _meta: AskMeta,
  })
  .describe('Answer of POST /ask as JSON.');
export type AskResponseT = z.infer<typeof AskResponse>;

// Server-Sent Events of /ask: `event: start|result|complete`, one JSON object per `data:` line.
export const AskStartEvent = z
  .object({ query_id: z.string(), query: z.string(), _meta: AskMeta })
  .describe('Data of the `start` event (first event).');
export const AskTextEvent = z.object({ type: z.literal('text'), text: z.string() }).describe('`result` event: the next piece of the answer, in order.');
export const AskAnswerEvent = z
  .object({ type: z.literal('answer'), answer: z.string(), sources: z.array(AskSource) })
  .describe('`result` event: the whole answer and its sources, once generation is done.');
export const AskErrorEvent = z
  .object({ type: z.literal('error'), error: z.string(), code: z.enum(errorCodes) })
  .describe('`result` event: the model failed after the answer had started; `complete` follows.');
export const AskResultEvent = z.discriminatedUnion('type', [AskTextEvent, AskAnswerEvent, AskErrorEvent]).describe('Data of a `result` event.');
export const AskCompleteEvent = z
  .object({ _meta: AskMeta.extend({ count: z.int().min(0) }), status: z.enum(['complete', 'interrupted']) })
  .describe('Data of the `complete` event (last event).');
export const askEventNames = ['start', 'result', 'complete'] as const;

// ---- agent auth declaration ---------------------------------------------------------

export const AgentAuthDeclaration = z
  .object({
    identity_types_supported: z.array(z.literal('anonymous')).min(1),
    authentication_required: z.literal(false),
    registration_supported: z.literal(false),
    token_revocation_supported: z.literal(false),
    protected_resource_metadata: z.url(),
    authorization_servers: z.array(z.string()).max(0),
    bearer_methods_supported: z.array(z.string()).max(0),
    scopes_supported: z.array(z.string()).max(0),
  })
  .describe('The JSON declaration block of the auth description page (/auth, /auth.md).');
export type AgentAuthDeclarationT = z.infer<typeof AgentAuthDeclaration>;

export function agentAuthDeclaration(siteUrl: string): AgentAuthDeclarationT {
  return {
    identity_types_supported: ['anonymous'],
    authentication_required: false,
    registration_supported: false,
    token_revocation_supported: false,
    protected_resource_metadata: `${siteUrl}/.well-known/oauth-protected-resource`,
    authorization_servers: [],
    bearer_methods_supported: [],
    scopes_supported: [],
  };
}

export const OAuthProtectedResource = z
  .looseObject({
    resource: z.string(),
    authorization_servers: z.array(z.string()).max(0),
    bearer_methods_supported: z.array(z.string()).max(0),
    scopes_supported: z.array(z.string()).max(0),
    resource_documentation: z.string(),
  })
  .describe('RFC 9728 protected-resource metadata: nothing is protected.');

// ---- MCP -----------------------------------------------------------------------------

export const McpAskInput = z.object({
  query: boundedText(assistantLimits.queryMaxChars, 'query').describe(`A question about the site owner or their work, 1 to ${assistantLimits.queryMaxChars} characters.`),
});
export const McpAskOutput = z.object({
  answer: z.string(),
  sources: z.array(AskSource),
  answer_backend: z.enum(answerBackends),
});
export const mcpAskTool = {
  name: 'ask',
  title: 'Ask the portfolio',
  description:
    'Answers a question about the site owner (background, projects, writing, contact) from the pages of this portfolio site only, ' +
    'and names the pages it used. Counts against the same rate limit as POST /ask.',
  inputSchema: McpAskInput,
  outputSchema: McpAskOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const;

// ---- headers ---------------------------------------------------------------------------

export const assistantResponseHeaders = {
  'X-RateLimit-Limit': { schema: z.int().min(1), description: 'Requests allowed per window for the client IP (chat, ask and MCP tool calls share one budget).' },
  'X-RateLimit-Remaining': { schema: z.int().min(0), description: 'Requests left in the current window.' },
  'X-RateLimit-Reset': { schema: z.int().min(0), description: 'Seconds until the window resets (not a timestamp).' },
  'Retry-After': { schema: z.int().min(1), description: 'Seconds to wait before retrying (429).' },
  Allow: { schema: z.string(), description: 'Methods the endpoint accepts (405).' },
  'X-Answer-Backend': { schema: z.enum(answerBackends), description: '`model` or `extractive`: which backend produced the answer.' },
} as const;

// ---- OpenAPI -------------------------------------------------------------------------------

export interface AssistantOpenApiOptions {
  siteUrl: string;
  siteName: string;
  description?: string;
}

function componentSchemas(): Record<string, Json> {
  const requests: [z.ZodType, string][] = [
    [ChatMessage, 'ChatMessage'],
    [ChatRequest, 'ChatRequest'],
    [AskRequest, 'AskRequest'],
  ];
  const responses: [z.ZodType, string][] = [
    [AskSource, 'AskSource'],
    [AskMeta, 'AskMeta'],
    [AskResponse, 'AskResponse'],
    [AskStartEvent, 'AskStartEvent'],
    [AskResultEvent, 'AskResultEvent'],
    [AskCompleteEvent, 'AskCompleteEvent'],
    [ErrorEnvelope, 'Error'],
    [AgentAuthDeclaration, 'AgentAuthDeclaration'],
    [OAuthProtectedResource, 'OAuthProtectedResource'],
  ];
  return schemaComponents(requests, responses);
}

const rateHeaders = (...extra: string[]) => headerRefs(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', ...extra]);

function componentResponses(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const code of errorCodes) {
    const extra = code === 'rate_limited' ? ['Retry-After'] : code === 'method_not_allowed' ? ['Allow'] : [];
    out[code] = errorResponse(errorMeaning[code], rateHeaders(...extra), 'Error', { error: errorMeaning[code].split(';')[0], code });
  }
  return out;
}

const errors = (...codes: ErrorCode[]) => responseRefs((c) => errorStatus[c], codes);

export const chatFormatDescription =
  'The answer streams as `text/plain; charset=utf-8` while it is generated: the body is the answer text itself, in UTF-8 chunks of any size ' +
  '(concatenate them; a chunk may end inside a word). When the answer is complete the body ends with a blank line, the line `Sources:` and one line ' +
  '`[n] <page title>: <absolute page URL>` per page the answer is grounded in, then a final newline (split on the last `\\n\\nSources:\\n`; `[n]` markers in the answer refer to these numbers). ' +
  'If the model fails after the answer has started, the body ends with ' +
  '`\\n\\n[interrupted: unavailable]\\n` instead of the source list. Failures before the first chunk are ordinary error responses (e.g. 503 `unavailable`). ' +
  'The `X-Answer-Backend` header says whether the model or the extractive answerer wrote the answer.';

export const askSseDescription =
  'Server-Sent Events, three event types in this order: one `start` (data: AskStartEvent), then `result` events (data: AskResultEvent: ' +
  '`{"type":"text","text":…}` pieces as the answer is generated, then one `{"type":"answer","answer":…,"sources":[…]}`; or `{"type":"error",…}` if the model fails midway), ' +
  'then one `complete` (data: AskCompleteEvent). Every `data:` line is one JSON object. Failures before `start` are ordinary error responses.';

/** OpenAPI 3.1 description of the assistant API, served at /.well-known/openapi.json. */
export function assistantOpenApi(opts: AssistantOpenApiOptions): Json {
  const { siteUrl, siteName } = opts;
  const chatExample = 'Robin led the Harbor docs search project in 2024 [1].\n\nSources:\n[1] Projects: ' + siteUrl + '/projects\n';
  const sseExample = [
    'event: start',
    `data: {"query_id":"3f1c…","query":"What does Robin work on?","_meta":{"response_type":"generate","version":"${ASSISTANT_API_VERSION}"}}`,
    '',
    'event: result',
    'data: {"type":"text","text":"Robin builds search"}',
    '',
    'event: result',
    `data: {"type":"answer","answer":"Robin builds search …","sources":[{"title":"About","url":"${siteUrl}/about","content":"…"}]}`,
    '',
    'event: complete',
    `data: {"_meta":{"response_type":"generate","version":"${ASSISTANT_API_VERSION}","answer_backend":"model","count":1},"status":"complete"}`,
    '',
  ].join('\n');
  const staticGet = (operationId: string, summary: string, mediaType: string, schema: Json = { type: 'object' }) => ({
    get: {
      operationId,
      tags: ['Discovery'],
      summary,
      responses: { '200': { description: summary, headers: rateHeaders(), content: { [mediaType]: { schema } } }, ...errors('not_found') },
    },
  });
  return {
    openapi: '3.1.1',
    info: {
      title: `${siteName} API`,
      version: ASSISTANT_API_VERSION,
      summary: 'Ask questions about this portfolio site: multi-turn chat for browsers, single-shot questions for agents, and MCP.',
      description:
        (opts.description ? `${opts.description}\n\n` : '') +
        'Answers come from a language model (or the built-in extractive answerer when none is configured) and are grounded in the pages of this site only; ' +
        'every answer names the pages it used. No authentication: no API key, account, token or registration; see ' +
        `${siteUrl}/auth. Every non-2xx response is \`{"error": "…", "code": "…"}\`; clients branch on \`code\`. ` +
        `Rate limit: ${assistantLimits.rateLimitMax} requests per IP per minute (POST /api/chat, POST /ask and MCP tool calls share one budget), ` +
        'with `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` on every response.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: siteUrl }],
    externalDocs: { description: 'Agent access and authentication', url: `${siteUrl}/auth` },
    security: [],
    tags: [
      { name: 'Assistant', description: 'Questions answered from the site content.' },
      { name: 'MCP', description: 'Model Context Protocol server.' },
      { name: 'Discovery', description: 'Machine-readable descriptions of the site.' },
    ],
    paths: {
      [CHAT_PATH]: {
        post: {
          operationId: 'chat',
          tags: ['Assistant'],
          summary: 'Multi-turn chat (browsers)',
          description:
            'Browser-facing and CSRF-guarded: the `Origin` header must be present and be this site\'s origin (or a configured allowed origin), else 403 `forbidden`; ' +
            `server-side clients use POST ${ASK_PATH}. ` +
            chatFormatDescription,
          parameters: [{ name: 'Origin', in: 'header', required: true, description: `Must be ${new URL(siteUrl).origin} (or a configured allowed origin).`, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', 'ChatRequest') } } },
          responses: {
            '200': {
              description: 'The streamed answer, then its sources.',
              headers: rateHeaders('X-Answer-Backend'),
              content: { 'text/plain': { schema: { type: 'string', description: chatFormatDescription }, example: chatExample } },
            },
            ...errors('invalid_request', 'forbidden', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error', 'unavailable'),
          },
        },
      },
      [ASK_PATH]: {
        post: {
          operationId: 'ask',
          tags: ['Assistant'],
          summary: 'Single-shot question (agents)',
          description:
            'No `Origin` needed. JSON by default; Server-Sent Events when the request sends `Accept: text/event-stream` or `prefer.streaming: true`.',
          requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', 'AskRequest') } } },
          responses: {
            '200': {
              description: 'The answer with its sources, as JSON or as an event stream.',
              headers: rateHeaders('X-Answer-Backend'),
              content: {
                'application/json': { schema: ref('schemas', 'AskResponse') },
                'text/event-stream': {
                  schema: { type: 'string', description: askSseDescription },
                  example: sseExample,
                  'x-events': { start: ref('schemas', 'AskStartEvent'), result: ref('schemas', 'AskResultEvent'), complete: ref('schemas', 'AskCompleteEvent') },
                },
              },
            },
            ...errors('invalid_request', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error', 'unavailable'),
          },
        },
      },
      [MCP_PATH]: {
        post: {
          operationId: 'mcp',
          tags: ['MCP'],
          summary: 'MCP server (Streamable HTTP, stateless)',
          description:
            `Model Context Protocol over Streamable HTTP, stateless and open. One tool: \`${mcpAskTool.name}\` (${mcpAskTool.description}) ` +
            'Send JSON-RPC messages with `Accept: application/json, text/event-stream`. Only `tools/call` requests count against the rate limit.',
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message or batch (MCP).' } } } },
          responses: {
            '200': {
              description: 'JSON-RPC response, as JSON or as an event stream.',
              headers: rateHeaders(),
              content: {
                'application/json': { schema: { type: 'object' } },
                'text/event-stream': { schema: { type: 'string' } },
              },
            },
            '202': { description: 'Notification accepted.', headers: rateHeaders() },
            ...errors('invalid_request', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error'),
          },
        },
        get: {
          operationId: 'mcpGet',
          tags: ['MCP'],
          summary: 'No server-initiated stream (405)',
          responses: { ...errors('method_not_allowed') },
        },
      },
      '/.well-known/openapi.json': staticGet('openapi', 'This OpenAPI description', 'application/json'),
      '/.well-known/api-catalog': staticGet('apiCatalog', 'API catalog (RFC 9727 linkset)', 'application/linkset+json'),
      '/.well-known/agent-skills/index.json': staticGet('agentSkills', 'Agent Skills discovery index (0.2.0)', 'application/json'),
      '/.well-known/mcp/server-card.json': staticGet('mcpServerCard', 'MCP server card', 'application/json'),
      '/.well-known/oauth-protected-resource': staticGet(
        'oauthProtectedResource',
        'Protected-resource metadata (RFC 9728): nothing is protected',
        'application/json',
        ref('schemas', 'OAuthProtectedResource'),
      ),
      '/llms.txt': staticGet('llmsTxt', 'Index of the site for language models (llmstxt.org)', 'text/plain', { type: 'string' }),
      '/index.md': staticGet('indexMd', 'The home page as Markdown', 'text/markdown', { type: 'string' }),
      '/auth.md': staticGet('authMd', 'Agent access and authentication, with the JSON auth declaration', 'text/markdown', { type: 'string' }),
    },
    components: {
      schemas: componentSchemas(),
      headers: headerComponents(assistantResponseHeaders),
      responses: componentResponses(),
      securitySchemes: {},
    },
  };
}
