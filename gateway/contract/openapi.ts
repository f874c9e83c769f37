// OpenAPI 3.1 description of the docs read API, generated from the zod contract.
// The build writes it to /openapi.json and /api/openapi; nothing here is written twice.
import { z } from 'zod';
import * as api from './docs-api.ts';
import { problemCatalogue, problemTypeUri } from './problems.ts';
import { errorResponse, headerComponents, headerRefs, jsonSchema, ref, responseRefs, schemaComponents, type Json } from './json-schema.ts';

export interface DocsOpenApiOptions {
  siteUrl: string;
  siteName: string;
  description: string;
}

function componentSchemas(): Record<string, Json> {
  const requests: [z.ZodType, string][] = [
    [api.AskRequest, 'AskRequest'],
    [api.AskFormRequest, 'AskFormRequest'],
    [api.BatchMarkdownRequest, 'BatchMarkdownRequest'],
  ];
  const responses: [z.ZodType, string][] = [
    [api.SearchResult, 'SearchResult'],
    [api.SearchResults, 'SearchResults'],
    [api.NlwebResult, 'NlwebResult'],
    [api.AskMeta, 'AskMeta'],
    [api.AskResponse, 'AskResponse'],
    [api.AskStartEvent, 'AskStartEvent'],
    [api.AskResultEvent, 'AskResultEvent'],
    [api.AskCompleteEvent, 'AskCompleteEvent'],
    [api.BatchMarkdownEntry, 'BatchMarkdownEntry'],
    [api.BatchMarkdownResponse, 'BatchMarkdownResponse'],
    [api.JobAccepted, 'JobAccepted'],
    [api.JobStatus, 'JobStatus'],
    [api.Health, 'Health'],
    [api.Problem, 'Problem'],
    [api.OAuthProtectedResource, 'OAuthProtectedResource'],
  ];
  return schemaComponents(requests, responses);
}

function componentHeaders(): Record<string, Json> {
  const headers = headerComponents(api.responseHeaders);
  headers.Allow = { description: 'Methods the endpoint accepts (405).', schema: { type: 'string' } };
  headers['Preference-Applied'] = { description: '`respond-async` when the request was accepted as an async job.', schema: { type: 'string' } };
  return headers;
}

/** Headers every API response carries. */
const commonHeaders = (extra: string[] = []): Json => headerRefs([...api.rateLimitHeaderNames, 'Link', 'Deprecation', 'Sunset', ...extra]);

/** Rate-limit headers only (static discovery files carry no policy Link). */
const staticHeaders = (): Json => headerRefs(api.rateLimitHeaderNames);

const problemResponses = {
  BadRequest: { slug: 'invalid-parameter', description: 'Bad request: missing or invalid parameter, cursor, header or body (see `title`).' },
  NotFound: { slug: 'not-found', description: 'Not found; the body has `links` and `markdown` that name where to look next.' },
  MethodNotAllowed: { slug: 'method-not-allowed', description: 'Wrong method; `Allow` lists the right ones.', headers: ['Allow'] },
  Gone: { slug: 'gone', description: 'The endpoint is past its Sunset date; the body names the `replacement`.' },
  PayloadTooLarge: { slug: 'payload-too-large', description: 'Body over the size limit.' },
  UnsupportedMediaType: { slug: 'unsupported-media-type', description: 'Unsupported body media type.' },
  TooManyRequests: { slug: 'too-many-requests', description: 'Rate limit exceeded; retry after `Retry-After` seconds.', headers: ['Retry-After'] },
  InternalServerError: { slug: 'internal-server-error', description: 'Unexpected server error; retry with exponential backoff (1 s, 2 s, 4 s).' },
  ServiceUnavailable: { slug: 'service-unavailable', description: 'The build manifest or the search index is unreadable.' },
} as const;

function componentResponses(siteUrl: string): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, r] of Object.entries(problemResponses)) {
    const kind = problemCatalogue[r.slug];
    out[name] = errorResponse(r.description, commonHeaders('headers' in r ? [...r.headers] : []), 'Problem', {
      type: problemTypeUri(siteUrl, r.slug),
      title: kind.title,
      status: kind.status,
      detail: kind.when,
      instance: '/api/…',
    });
  }
  return out;
}

const errors = (...names: (keyof typeof problemResponses)[]) => responseRefs((n) => problemCatalogue[problemResponses[n].slug].status, names);

function param(name: string, where: 'query' | 'header' | 'path', schema: z.ZodType, description: string, required = false): Json {
  return { name, in: where, required, description, schema: jsonSchema(schema, 'input') };
}

const idempotencyHeader = param('Idempotency-Key', 'header', api.IdempotencyKey, 'Optional client key (up to 255 printable ASCII characters), echoed in the response for retry correlation. Longer keys: 400 Invalid header.');

const sseExample = [
  'event: start',
  'data: {"query_id":"3f1c…","query":"how do I install","_meta":{"response_type":"list","version":"' + api.API_VERSION + '"}}',
  '',
  'event: result',
  'data: {"type":"result","result":{"name":"Installation","url":"https://docs.example.com/docs/getting-started/installation","score":1}}',
  '',
  'event: complete',
  'data: {"_meta":{"response_type":"list","version":"' + api.API_VERSION + '","count":1}}',
  '',
].join('\n');

const sseDescription =
  'Server-Sent Events, three event types in this order: one `start` (data: AskStartEvent), then `result` events (data: AskResultEvent: ' +
  'one `{"type":"result","result":…}` per result best first; for summarize/generate then `{"type":"text","text":…}` pieces as the answer is generated ' +
  'and one `{"type":"answer","answer":…,"citations":[…]}`), then one `complete` (data: AskCompleteEvent, final `_meta` with `count`). Every `data:` line is one JSON object. ' +
  'Closing the connection stops the work.';

function askResponses(withBody: boolean): Json {
  return {
    '200': {
      description: 'The answer: JSON, or an event stream when `streaming` is true or the request sends `Accept: text/event-stream`.',
      headers: commonHeaders(['Idempotency-Key', 'X-Model-Budget']),
      content: {
        'application/json': { schema: ref('schemas', 'AskResponse') },
        'text/event-stream': {
          schema: { type: 'string', description: sseDescription },
          example: sseExample,
          'x-events': {
            start: ref('schemas', 'AskStartEvent'),
            result: ref('schemas', 'AskResultEvent'),
            complete: ref('schemas', 'AskCompleteEvent'),
          },
        },
      },
    },
    ...errors('BadRequest', 'Gone'),
    ...(withBody ? errors('PayloadTooLarge', 'UnsupportedMediaType') : {}),
    ...errors('TooManyRequests', 'InternalServerError', 'ServiceUnavailable'),
  };
}

const askQueryParams = [
  param('query', 'query', api.QueryText, 'The question (at least 1 character). Required unless `q` or `question` is given.'),
  param('q', 'query', api.QueryText, 'Alias of `query`.'),
  param('question', 'query', api.QueryText, 'Alias of `query`.'),
  param('mode', 'query', api.AskModeSchema, 'list (default), summarize or generate.'),
  param('streaming', 'query', z.enum(['true', 'false', '1', '0']), 'true streams Server-Sent Events (default false). An explicit value wins over the Accept header.'),
  idempotencyHeader,
];

/** Operations keyed by canonical path; each /api path (and /ask) is repeated under /api/v1. */
function apiPaths(): Record<string, Json> {
  return {
    '/api/search': {
      get: {
        operationId: 'search',
        tags: ['Search'],
        summary: 'Full-text search',
        description:
          'Ranked full-text search over the docs (title matches rank above body matches). Hits are page, heading or text granularity: ' +
          'a page hit when the page title or description matches, otherwise one hit per matching section, pointing at its `#anchor`. ' +
          'Paginate with `limit` and the opaque `cursor`; pages never overlap, skip or drift while the build is the same.',
        parameters: [
          param('query', 'query', api.QueryText, 'Search term.', true),
          param('limit', 'query', api.SearchLimit, 'Page size 1..100; when omitted all results are returned.'),
          param('cursor', 'query', api.Cursor, 'Opaque cursor of the next page (from `X-Next-Cursor`); omit for the first page.'),
          param('tag', 'query', api.Tag, 'Only results of this content type.'),
        ],
        responses: {
          '200': {
            description: 'Search hits, best first.',
            headers: commonHeaders(['X-Total-Count', 'X-Next-Cursor']),
            content: { 'application/json': { schema: ref('schemas', 'SearchResults') } },
          },
          ...errors('BadRequest', 'Gone', 'TooManyRequests', 'InternalServerError', 'ServiceUnavailable'),
        },
      },
    },
    '/ask': {
      get: {
        operationId: 'askGet',
        tags: ['Ask'],
        summary: 'Ask a question (GET)',
        description: 'Natural-language question answering in the NLWeb style: the best pages for the question, plus a summary or a grounded answer in summarize/generate mode.',
        parameters: askQueryParams,
        responses: askResponses(false),
      },
      post: {
        operationId: 'askPost',
        tags: ['Ask'],
        summary: 'Ask a question (POST)',
        description: 'Same as GET /ask with the question in the body (JSON, NLWeb structured JSON, or form-urlencoded). Streaming: `streaming: true`, `prefer.streaming: true` or `Accept: text/event-stream`.',
        parameters: [idempotencyHeader],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: ref('schemas', 'AskRequest') },
            'application/x-www-form-urlencoded': { schema: ref('schemas', 'AskFormRequest') },
          },
        },
        responses: askResponses(true),
      },
    },
    '/api/md/batch': {
      post: {
        operationId: 'batchMarkdown',
        tags: ['Markdown'],
        summary: 'Fetch up to 20 pages as Markdown',
        description:
          'Returns the Markdown twin of each requested page, in request order. A failing path does not fail the batch: its entry has `ok: false`, `status` (404 unknown page, 400 malformed path) and `detail`. ' +
          'With `Prefer: respond-async` or `?async=1` the request is accepted as a job (202) to poll at `Location`.',
        parameters: [
          param('async', 'query', z.enum(['1', 'true', '0', 'false']), '`1` or `true`: answer 202 with a job to poll instead of the result.'),
          param('Prefer', 'header', z.string(), '`respond-async`: answer 202 with a job to poll instead of the result.'),
          idempotencyHeader,
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', 'BatchMarkdownRequest') } } },
        responses: {
          '200': {
            description: 'Markdown of the requested pages.',
            headers: commonHeaders(['Idempotency-Key']),
            content: { 'application/json': { schema: ref('schemas', 'BatchMarkdownResponse') } },
          },
          '202': {
            description: 'Accepted as an async job; poll `Location`.',
            headers: commonHeaders(['Location', 'Idempotency-Key', 'Preference-Applied']),
            content: { 'application/json': { schema: ref('schemas', 'JobAccepted') } },
          },
          ...errors('BadRequest', 'Gone', 'PayloadTooLarge', 'UnsupportedMediaType', 'TooManyRequests', 'InternalServerError', 'ServiceUnavailable'),
        },
      },
    },
    '/api/jobs/{jobId}': {
      get: {
        operationId: 'getJob',
        tags: ['Jobs'],
        summary: 'Poll an async batch job',
        description: 'Job ids are stateless: they encode the request, so polling runs it (against the current build) and a valid job is `completed` on the first poll.',
        parameters: [param('jobId', 'path', z.string(), 'Job id from the 202 response.', true)],
        responses: {
          '200': {
            description: 'The completed job with its result.',
            headers: commonHeaders(),
            content: { 'application/json': { schema: ref('schemas', 'JobStatus') } },
          },
          ...errors('NotFound', 'Gone', 'TooManyRequests', 'InternalServerError', 'ServiceUnavailable'),
        },
      },
    },
    '/api/health': {
      get: {
        operationId: 'health',
        tags: ['Health'],
        summary: 'Liveness check',
        responses: {
          '200': { description: 'Serving.', headers: commonHeaders(), content: { 'application/json': { schema: ref('schemas', 'Health') } } },
          ...errors('Gone', 'TooManyRequests', 'InternalServerError', 'ServiceUnavailable'),
        },
      },
    },
    '/api/mcp': {
      post: {
        operationId: 'mcp',
        tags: ['MCP'],
        summary: 'MCP server (Streamable HTTP)',
        description:
          'Model Context Protocol over Streamable HTTP, stateless and open (no credentials). Tools: `search`, `fetch`, `fetch_batch`, `ask`; every page is a `text/markdown` resource. ' +
          'Send JSON-RPC messages with `Accept: application/json, text/event-stream`. HTTP-level errors are Problem bodies that are also JSON-RPC error responses.',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 request, notification or batch (MCP).' } } },
        },
        responses: {
          '200': {
            description: 'JSON-RPC response, as JSON or as an event stream.',
            headers: commonHeaders(),
            content: {
              'application/json': { schema: { type: 'object', description: 'JSON-RPC 2.0 response.' } },
              'text/event-stream': { schema: { type: 'string', description: 'JSON-RPC messages as Server-Sent Events.' } },
            },
          },
          '202': { description: 'Notification accepted.', headers: commonHeaders() },
          ...errors('BadRequest', 'Gone', 'PayloadTooLarge', 'UnsupportedMediaType', 'TooManyRequests', 'InternalServerError', 'ServiceUnavailable'),
        },
      },
      get: {
        operationId: 'mcpGet',
        tags: ['MCP'],
        summary: 'No server-initiated stream',
        description: 'The MCP endpoint is stateless and offers no standalone event stream: GET answers 405 with `Allow: POST, OPTIONS`.',
        responses: { ...errors('MethodNotAllowed', 'TooManyRequests') },
      },
    },
    '/api/openapi': {
      get: {
        operationId: 'apiOpenapi',
        tags: ['Discovery'],
        summary: 'This OpenAPI description',
        responses: {
          '200': { description: 'OpenAPI 3.1 JSON (same as /openapi.json).', headers: commonHeaders(), content: { 'application/json': { schema: { type: 'object' } } } },
          ...errors('TooManyRequests'),
        },
      },
    },
  };
}

function staticGet(operationId: string, summary: string, mediaType: string, schema: Json, description?: string): Json {
  return {
    get: {
      operationId,
      tags: ['Discovery'],
      summary,
      ...(description ? { description } : {}),
      responses: {
        '200': { description: summary, headers: staticHeaders(), content: { [mediaType]: { schema } } },
        ...errors('TooManyRequests'),
      },
    },
  };
}

function discoveryPaths(): Record<string, Json> {
  const obj = { type: 'object' };
  const text = { type: 'string' };
  return {
    '/openapi.json': staticGet('openapiJson', 'This OpenAPI description', 'application/json', obj),
    '/llms.txt': staticGet('llmsTxt', 'Index of every page for language models (llmstxt.org)', 'text/plain', text),
    '/llms-full.txt': staticGet('llmsFullTxt', 'Every page in one Markdown file', 'text/plain', text),
    '/api-policy.md': staticGet('apiPolicy', 'Versioning and deprecation policy', 'text/markdown', text),
    '/.well-known/api-catalog': staticGet(
      'apiCatalog',
      'API catalog (RFC 9727)',
      'application/linkset+json',
      obj,
      'Linkset whose items point to the OpenAPI description, the API docs, /api/health, /ask and /api/mcp.',
    ),
    '/.well-known/agent-card.json': staticGet('agentCard', 'A2A agent card', 'application/json', obj),
    '/.well-known/mcp/server-card.json': staticGet('mcpServerCard', 'MCP server card', 'application/json', obj),
    '/.well-known/oauth-protected-resource': staticGet(
      'oauthProtectedResource',
      'Protected-resource metadata (RFC 9728)',
      'application/json',
      ref('schemas', 'OAuthProtectedResource'),
      'The API is open: no authorization servers, no bearer methods.',
    ),
    '/.well-known/oauth-authorization-server': {
      get: {
        operationId: 'oauthAuthorizationServer',
        tags: ['Discovery'],
        summary: 'No authorization server (404 by design)',
        description: 'There is no authorization server: this path always answers 404.',
        responses: { ...errors('NotFound', 'TooManyRequests') },
      },
    },
    '/docs/{section}/{page}': {
      get: {
        operationId: 'page',
        tags: ['Pages'],
        summary: 'A doc page',
        description: 'HTML for browsers; with `Accept: text/markdown` the Markdown twin (also at `/docs/{section}/{page}.md`). Responses carry `Vary: Accept`.',
        parameters: [param('section', 'path', z.string(), 'Section slug.', true), param('page', 'path', z.string(), 'Page slug.', true)],
        responses: {
          '200': {
            description: 'The page.',
            headers: staticHeaders(),
            content: { 'text/html': { schema: text }, 'text/markdown': { schema: text } },
          },
          ...errors('NotFound', 'TooManyRequests'),
        },
      },
    },
  };
}

/** Deep copy of an operation set for its /api/v1 alias (operation ids get a V1 suffix). */
function aliasOf(pathItem: Json, canonical: string): Json {
  const copy = structuredClone(pathItem) as Record<string, Json>;
  for (const op of Object.values(copy)) {
    op.operationId = `${String(op.operationId)}V1`;
    op.description = `Versioned alias of \`${canonical}\`; shares its rate-limit budget.${op.description ? ` ${String(op.description)}` : ''}`;
  }
  return copy;
}

export function docsOpenApi({ siteUrl, siteName, description }: DocsOpenApiOptions): Json {
  const base = siteUrl.replace(/\/+$/, '');
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(apiPaths())) {
    paths[path] = item;
    paths[api.v1Alias(path)] = aliasOf(item, path);
  }
  Object.assign(paths, discoveryPaths());
  return {
    openapi: '3.1.1',
    info: {
      title: `${siteName} read API`,
      version: api.API_VERSION,
      summary: 'Search, ask, batch Markdown, jobs, health and MCP over the documentation.',
      description:
        `${description}\n\n` +
        'Read-only and open: no credentials, no 401. Every error is an RFC 9457 Problem (`application/json`) whose `type` is ' +
        `\`${base}/docs/api/errors#<slug>\`. Rate limit: 120 requests per 60 s per client IP per endpoint (an /api/v1 alias shares its endpoint's budget), ` +
        'announced by `RateLimit-*` and `X-RateLimit-*` headers on every response. Versioning: see /api-policy.md.',
    },
    servers: [{ url: base, description: siteName }],
    security: [],
    tags: [
      { name: 'Search', description: 'Full-text search.' },
      { name: 'Ask', description: 'Natural-language questions (NLWeb style), JSON or Server-Sent Events.' },
      { name: 'Markdown', description: 'Pages as Markdown, in batches.' },
      { name: 'Jobs', description: 'Async batch jobs.' },
      { name: 'Health', description: 'Liveness.' },
      { name: 'MCP', description: 'Model Context Protocol server.' },
      { name: 'Discovery', description: 'Files that describe the site and the API.' },
      { name: 'Pages', description: 'The documentation itself.' },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      headers: componentHeaders(),
      responses: componentResponses(base),
    },
  };
}
