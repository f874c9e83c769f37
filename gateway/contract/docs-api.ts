// The docs read API contract: every request, response and event shape as zod schemas.
// The gateway validates with them, the OpenAPI description and the MCP tool
// definitions are generated from them, and the tests check responses against them.
import { z } from 'zod';

export const API_VERSION = '10.0.0-alpha.47';

export const contentTypes = ['docs', 'skill', 'agent', 'hook', 'composition'] as const;
export type ContentTypeTag = (typeof contentTypes)[number];

export const askModes = ['list', 'summarize', 'generate'] as const;
export type AskMode = (typeof askModes)[number];

export const apiLimits = {
  searchLimitMax: 100,
  batchPathsMax: 20,
  idempotencyKeyMax: 255,
  /** Pages returned by /ask (one result per page, best first). */
  askResults: 10,
} as const;

/** A doc page path: /docs/<section>/<page>. */
export const docPathPattern = /^\/docs\/[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/;

// ---- shared pieces -------------------------------------------------------------

export const Tag = z.enum(contentTypes).describe('Content type filter: docs, skill, agent, hook or composition.');
export const AskModeSchema = z.enum(askModes).describe('`list` (default): ranked results only. `summarize`: adds a summary of the top results. `generate`: adds an answer grounded in the results, with citations.');
export const QueryText = z.string().min(1).describe('Search term or natural-language question (at least 1 character).');
export const SearchLimit = z.int().min(1).max(apiLimits.searchLimitMax).describe('Page size 1..100; when omitted all results are returned.');
export const Cursor = z.string().min(1).describe('Opaque cursor from `X-Next-Cursor` / `Link: rel="next"` of the previous page. Bound to the query, tag and build: a cursor from another query or build is rejected with 400.');
export const DocPath = z.string().describe('A doc page path of the form `/docs/<section>/<page>` (an optional `.md` suffix is accepted).');
export const IdempotencyKey = z.string().min(1).max(apiLimits.idempotencyKeyMax).describe('Any client-chosen key of up to 255 printable ASCII characters; echoed in the response header of the same name.');

// ---- search --------------------------------------------------------------------

export const SearchResult = z
  .object({
    id: z.string().describe('Stable result id: the same for unchanged content across builds.'),
    url: z.string().describe('Path of the doc page; heading and text hits carry the `#anchor` of their section.'),
    type: z.enum(['page', 'heading', 'text']).optional().describe('Match granularity: the page itself (title/description), a heading of it, or a text passage under a heading.'),
    title: z.string().optional().describe('Title of the page the hit belongs to.'),
    content: z.string().optional().describe('Matching heading or text excerpt, plain text (no HTML).'),
    score: z.number().min(0).max(1).optional().describe('Relevance, 1 = best.'),
  })
  .describe('One search hit.');

export const SearchResults = z.array(SearchResult).describe('Search hits, best first.');

// ---- ask -----------------------------------------------------------------------

const StructuredQuery = z.object({ text: QueryText }).describe('NLWeb structured query.');

export const AskRequest = z
  .object({
    query: z.union([QueryText, StructuredQuery]).optional().describe('The question; a string, or the NLWeb structured form `{ "text": "…" }`. Aliases: `q`, `question`.'),
    q: QueryText.optional().describe('Alias of `query`.'),
    question: QueryText.optional().describe('Alias of `query`.'),
    mode: AskModeSchema.optional(),
    streaming: z.boolean().optional().describe('true streams Server-Sent Events (default false).'),
    prefer: z
      .object({
        streaming: z.boolean().optional().describe('NLWeb form of `streaming`.'),
        mode: AskModeSchema.optional().describe('NLWeb form of `mode`.'),
      })
      .optional(),
  })
  .meta({
    description:
      'Question for /ask. One of `query`, `q` or `question` is required; when several are sent, `query` wins, then `q`. `mode` wins over `prefer.mode`, `streaming` over `prefer.streaming`.',
    anyOf: [{ required: ['query'] }, { required: ['q'] }, { required: ['question'] }],
  });

export const AskFormRequest = z
  .object({
    query: z.string().optional(),
    q: z.string().optional(),
    question: z.string().optional(),
    mode: AskModeSchema.optional(),
    streaming: z.enum(['true', 'false', '1', '0']).optional(),
    'prefer.streaming': z.enum(['true', 'false', '1', '0']).optional(),
    'prefer.mode': AskModeSchema.optional(),
  })
  .describe('AskRequest as form fields; the NLWeb members are flattened with a dot.');

export const NlwebResult = z
  .object({
    id: z.string().optional().describe('Stable result id.'),
    name: z.string().describe('Page title (protocol-canonical).'),
    title: z.string().optional().describe('Page title.'),
    url: z.url().describe('Absolute URL of the doc page.'),
    site: z.string().optional().describe('Origin site of the result.'),
    score: z.number().min(0).max(1).describe('Relevance, 1 = best.'),
    description: z.string().optional().describe('Text excerpt, plain text (protocol-canonical).'),
    content: z.string().optional().describe('Text excerpt, plain text.'),
  })
  .describe('One /ask result: a doc page.');

export const answerBackends = ['model', 'extractive'] as const;
export const answerStatuses = ['answered', 'not_covered'] as const;

export const AskMeta = z
  .object({
    response_type: z.string().describe('The mode that produced the response: `list`, `summarize` or `generate`.'),
    version: z.string().describe('API version.'),
    count: z.int().min(0).optional().describe('Number of results.'),
    answer_backend: z.enum(answerBackends).optional().describe('summarize/generate only: `model` when the configured language model answered, `extractive` when the built-in extractive answerer did.'),
    fallback_reason: z.string().optional().describe('Why the model was not used although one is configured (down, slow, failed, or `model budget spent: …` when the client\'s model budget is spent).'),
    answer_status: z
      .enum(answerStatuses)
      .optional()
      .describe('summarize/generate only: `answered`, or `not_covered` when no page matches the question well enough to answer it; the answer then says so and lists the closest pages instead of guessing.'),
  })
  .describe('Response metadata.');

export const AskResponse = z
  .object({
    query_id: z.string().optional().describe('Server-assigned id of this query.'),
    query: z.string().optional().describe('The query as interpreted.'),
    results: z.array(NlwebResult),
    answer: z.string().optional().describe('summarize/generate only: the summary or answer, Markdown: code blocks fenced with their language, `[n]` citations that link (reference definitions at the end) to the cited section of a page.'),
    citations: z.array(z.url()).optional().describe('summarize/generate only: URLs of the results the answer used.'),
    _meta: AskMeta,
  })
  .describe('Answer of /ask as JSON.');

// Server-Sent Events of /ask: `event: start|result|complete`, one JSON object per `data:` line.
export const AskStartEvent = z
  .object({ query_id: z.string(), query: z.string(), _meta: AskMeta })
  .describe('Data of the `start` event (first event).');

export const AskResultItemEvent = z.object({ type: z.literal('result'), result: NlwebResult }).describe('`result` event carrying one result, best first.');
export const AskTextEvent = z.object({ type: z.literal('text'), text: z.string() }).describe('`result` event carrying the next piece of generated text (summarize/generate), in order.');
export const AskAnswerEvent = z
  .object({ type: z.literal('answer'), answer: z.string(), citations: z.array(z.url()) })
  .describe('`result` event carrying the whole answer and its citations once generation is done.');
export const AskResultEvent = z
  .discriminatedUnion('type', [AskResultItemEvent, AskTextEvent, AskAnswerEvent])
  .describe('Data of a `result` event.');

export const AskCompleteEvent = z
  .object({ _meta: AskMeta.extend({ count: z.int().min(0) }) })
  .describe('Data of the `complete` event (last event): final metadata with `count`.');

export const askEventNames = ['start', 'result', 'complete'] as const;

// ---- batch Markdown and jobs ---------------------------------------------------------

export const BatchMarkdownRequest = z
  .object({ paths: z.array(DocPath).min(1).max(apiLimits.batchPathsMax).describe('1 to 20 doc page paths; duplicates are kept.') })
  .describe('Pages to fetch as Markdown.');

export const BatchMarkdownOk = z.object({
  path: z.string().describe('The requested path, as sent.'),
  ok: z.literal(true),
  title: z.string(),
  markdown: z.string().describe("The page's Markdown twin, byte for byte."),
});

export const BatchMarkdownError = z.object({
  path: z.string().describe('The requested path, as sent.'),
  ok: z.literal(false),
  status: z.int().describe('404: no such page. 400: not a doc path of the form /docs/<section>/<page>.'),
  detail: z.string(),
});

export const BatchMarkdownEntry = z.discriminatedUnion('ok', [BatchMarkdownOk, BatchMarkdownError]).describe('Result for one path.');

export const BatchMarkdownResponse = z
  .object({ results: z.array(BatchMarkdownEntry).describe('One entry per requested path, in request order.') })
  .describe('Markdown of the requested pages.');

export const JobAccepted = z
  .object({
    job_id: z.string(),
    status: z.literal('accepted'),
    status_url: z.string().describe('Where to poll: /api/jobs/{jobId} (same as `Location`).'),
  })
  .describe('Accepted async batch job.');

export const JobStatus = z
  .object({ job_id: z.string(), status: z.literal('completed'), result: BatchMarkdownResponse })
  .describe('Job status: a valid job is completed on the first poll.');

// ---- health and problems ---------------------------------------------------------------

export const Health = z
  .object({
    status: z.literal('ok').describe('`ok` when serving.'),
    service: z.string().optional(),
    version: z.string().optional().describe('API version.'),
  })
  .describe('Liveness: the build manifest and the search index are readable.');

export const ProblemLink = z.object({ rel: z.string(), href: z.string(), title: z.string().optional() });

export const Problem = z
  .looseObject({
    type: z.string().optional().describe('`{base_url}/docs/api/errors#<slug>`'),
    title: z.string(),
    status: z.int(),
    detail: z.string().optional(),
    instance: z.string().optional().describe('The request path.'),
    links: z.array(ProblemLink).optional().describe('404 only: where to look next (search, llms.txt, OpenAPI, docs index).'),
    markdown: z.string().optional().describe('404 only: a short note for agents, in Markdown.'),
    replacement: z.string().optional().describe('410 only: the endpoint that replaces this one.'),
    errors: z.array(z.object({ pointer: z.string(), detail: z.string() })).optional().describe('400 Invalid request body: one entry per schema violation.'),
  })
  .describe('RFC 9457 Problem Details, served as application/json.');

export const OAuthProtectedResource = z
  .looseObject({
    resource: z.string(),
    authorization_servers: z.array(z.string()).max(0),
    bearer_methods_supported: z.array(z.string()).max(0),
    resource_documentation: z.string(),
  })
  .describe('RFC 9728 protected-resource metadata: the API is open, no authorization servers.');

export type SearchResultT = z.infer<typeof SearchResult>;
export type NlwebResultT = z.infer<typeof NlwebResult>;
export type AskMetaT = z.infer<typeof AskMeta>;
export type AskResponseT = z.infer<typeof AskResponse>;
export type BatchMarkdownEntryT = z.infer<typeof BatchMarkdownEntry>;
export type BatchMarkdownResponseT = z.infer<typeof BatchMarkdownResponse>;
export type JobAcceptedT = z.infer<typeof JobAccepted>;
export type JobStatusT = z.infer<typeof JobStatus>;
export type HealthT = z.infer<typeof Health>;
export type ProblemT = z.infer<typeof Problem>;
export type ProblemLinkT = z.infer<typeof ProblemLink>;

// ---- headers ---------------------------------------------------------------------------

/** The rate-limit headers on every response (IETF draft names and their legacy X- twins). */
export const rateLimitHeaderNames = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
] as const;

/** Response headers the API sends, with their meaning (OpenAPI and README). */
export const responseHeaders = {
  'RateLimit-Limit': { schema: z.int().min(1), description: 'Requests allowed per window for this endpoint and client IP.' },
  'RateLimit-Remaining': { schema: z.int().min(0), description: 'Requests left in the current window.' },
  'RateLimit-Reset': { schema: z.int().min(0), description: 'Seconds until the window resets.' },
  'RateLimit-Policy': { schema: z.string(), description: 'The policy as `<limit>;w=<seconds>`, e.g. `120;w=60`.' },
  'X-RateLimit-Limit': { schema: z.int().min(1), description: 'Legacy twin of RateLimit-Limit.' },
  'X-RateLimit-Remaining': { schema: z.int().min(0), description: 'Legacy twin of RateLimit-Remaining.' },
  'X-RateLimit-Reset': { schema: z.int().min(0), description: 'Legacy twin of RateLimit-Reset (seconds, not a timestamp).' },
  'Retry-After': { schema: z.int().min(1), description: 'Seconds to wait before retrying (429).' },
  'X-Total-Count': { schema: z.int().min(0), description: 'Total matches before pagination.' },
  'X-Next-Cursor': { schema: z.string(), description: 'Cursor of the next page; absent on the last page.' },
  Link: {
    schema: z.string(),
    description: 'RFC 8288 links. Always `</api-policy.md>; rel="deprecation"` (the versioning policy); search adds `rel="next"` when there is a next page; a deprecated endpoint adds its migration notes and `rel="successor-version"`.',
  },
  Location: { schema: z.string(), description: 'Job status URL (/api/jobs/{jobId}).' },
  'Idempotency-Key': { schema: z.string(), description: 'Echo of the request header of the same name.' },
  Deprecation: { schema: z.string(), description: 'IMF-fixdate the endpoint was deprecated (RFC 8594); absent unless deprecated.' },
  Sunset: { schema: z.string(), description: 'IMF-fixdate after which the endpoint answers 410 (RFC 8594); absent unless deprecated.' },
  'X-Model-Budget': {
    schema: z.string(),
    description: '`spent; retry-after=<seconds>` on a summarize/generate JSON answer given extractively because the client\'s model budget is spent; absent otherwise.',
  },
} as const;

// ---- endpoints --------------------------------------------------------------------------

export interface DocsEndpoint {
  /** Rate-limit budget and deprecation key; the /api/v1 alias shares it. */
  id: string;
  /** Canonical path, OpenAPI style ({param}). */
  path: string;
  methods: readonly ('GET' | 'POST')[];
}

export const docsEndpoints = [
  { id: 'search', path: '/api/search', methods: ['GET'] },
  { id: 'ask', path: '/ask', methods: ['GET', 'POST'] },
  { id: 'md-batch', path: '/api/md/batch', methods: ['POST'] },
  { id: 'jobs', path: '/api/jobs/{jobId}', methods: ['GET'] },
  { id: 'health', path: '/api/health', methods: ['GET'] },
  { id: 'mcp', path: '/api/mcp', methods: ['POST'] },
  { id: 'openapi', path: '/api/openapi', methods: ['GET'] },
] as const satisfies readonly DocsEndpoint[];

export type DocsEndpointId = (typeof docsEndpoints)[number]['id'];

/** `/api/search` → `/api/v1/search`; `/ask` → `/api/v1/ask`. */
export function v1Alias(path: string): string {
  return path.startsWith('/api/') ? `/api/v1/${path.slice(5)}` : `/api/v1${path}`;
}
