// The docs API problem catalogue (RFC 9457). Single source for the gateway's error
// bodies, the OpenAPI description and the errors page (/docs/api/errors), whose
// heading ids equal these slugs (github-slugger of the title).

export interface ProblemKind {
  status: number;
  title: string;
  /** When the gateway answers with it (for the errors page). */
  when: string;
  /** What a client should do about it (for the errors page). */
  fix: string;
}

export const problemCatalogue = {
  'missing-query-parameter': {
    status: 400,
    title: 'Missing query parameter',
    when: '`query` (or its aliases `q` / `question` on /ask) is missing or empty on /api/search or /ask.',
    fix: 'Send a non-empty `query`.',
  },
  'invalid-parameter': {
    status: 400,
    title: 'Invalid parameter',
    when: 'A parameter has a value outside its range: `limit` not an integer in 1..100, an unknown `tag`, `mode`, `streaming` or `async` value, or a parameter given twice.',
    fix: 'Correct the parameter named in `detail`.',
  },
  'invalid-cursor': {
    status: 400,
    title: 'Invalid cursor',
    when: 'The search `cursor` is malformed, was altered, or belongs to another query, tag or build of the site.',
    fix: 'Restart from the first page: repeat the search without `cursor`.',
  },
  'invalid-header': {
    status: 400,
    title: 'Invalid header',
    when: '`Idempotency-Key` is empty, longer than 255 characters, or contains characters other than visible ASCII and spaces.',
    fix: 'Send a key of 1 to 255 printable ASCII characters, e.g. a UUID.',
  },
  'invalid-request-body': {
    status: 400,
    title: 'Invalid request body',
    when: 'The body is not valid JSON (or form data for /ask), or does not match the request schema.',
    fix: 'Fix the body as described in `detail` and `errors`.',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    when: 'An unknown doc page or file, or an unknown, malformed or altered job id.',
    fix: 'Follow `links`: search the docs, read /llms.txt or the OpenAPI description.',
  },
  'api-endpoint-not-found': {
    status: 404,
    title: 'API endpoint not found',
    when: 'A path under /api/ that is not an endpoint of this API.',
    fix: 'Check the path against /openapi.json.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method Not Allowed',
    when: 'The endpoint exists but not for this HTTP method (for example GET on /api/mcp).',
    fix: 'Use one of the methods in the `Allow` header.',
  },
  'not-acceptable': {
    status: 406,
    title: 'Not Acceptable',
    when: 'A POST to /api/mcp whose `Accept` header does not list both `application/json` and `text/event-stream` (required by MCP Streamable HTTP).',
    fix: 'Send `Accept: application/json, text/event-stream`.',
  },
  gone: {
    status: 410,
    title: 'Gone',
    when: 'The endpoint was deprecated and its Sunset date has passed.',
    fix: 'Move to the endpoint named in `replacement`.',
  },
  'payload-too-large': {
    status: 413,
    title: 'Payload Too Large',
    when: 'The request body is larger than the limit (64 KiB by default); checked before the body is read.',
    fix: 'Send a smaller body, e.g. fewer paths per batch.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported Media Type',
    when: 'POST /ask with a body that is neither `application/json` nor `application/x-www-form-urlencoded`, or a batch request that is not `application/json`.',
    fix: 'Set `Content-Type: application/json`.',
  },
  'too-many-requests': {
    status: 429,
    title: 'Too Many Requests',
    when: 'More requests to this endpoint from your IP address in the current window than the limit allows (120 per 60 s by default).',
    fix: 'Wait the number of seconds in `Retry-After`, then retry.',
  },
  'internal-server-error': {
    status: 500,
    title: 'Internal Server Error',
    when: 'An unexpected failure in the gateway.',
    fix: 'Retry with exponential backoff (1 s, 2 s, 4 s).',
  },
  'service-unavailable': {
    status: 503,
    title: 'Service Unavailable',
    when: 'The gateway cannot read the build manifest or the search index (health check failing).',
    fix: 'Retry with exponential backoff; operators: check the build output in DIST_DIR.',
  },
  // Answers Node gives before the request reaches the gateway's routes (gateway/http/node-server.ts).
  'bad-request': {
    status: 400,
    title: 'Bad Request',
    when: 'The HTTP request itself is malformed: a control character or other invalid byte in a header, a broken request line or chunked encoding. Node refuses it before any route runs.',
    fix: 'Send a well-formed HTTP/1.1 request; percent-encode special characters in the URL.',
  },
  'request-timeout': {
    status: 408,
    title: 'Request Timeout',
    when: 'The request did not arrive in time: its headers within HEADERS_TIMEOUT_MS (20 s by default) or the whole request within REQUEST_TIMEOUT_MS (30 s by default).',
    fix: 'Send the request at once; a body is small (64 KiB at most), so this means a stalled client or network.',
  },
  'request-header-fields-too-large': {
    status: 431,
    title: 'Request Header Fields Too Large',
    when: 'The request line and headers together exceed 16 KiB, for example a URL of more than about 16,000 characters.',
    fix: 'Shorten the URL (a search query is a few words) or send large input in a POST body.',
  },
} as const satisfies Record<string, ProblemKind>;

export type ProblemSlug = keyof typeof problemCatalogue;

/** `{base_url}/docs/api/errors#<slug>` */
export function problemTypeUri(siteUrl: string, slug: ProblemSlug): string {
  return `${siteUrl.replace(/\/+$/, '')}/docs/api/errors#${slug}`;
}
