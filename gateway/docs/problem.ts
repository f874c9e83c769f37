// RFC 9457 Problem Details for the docs API: thrown as ProblemError anywhere in a
// request, turned into an application/json response by the pipeline. A ProblemError is an
// h3 HTTPError, so its headers (Allow, Retry-After, Connection) travel with the throw: h3
// drops headers set on event.res when a handler throws.
import { HTTPError } from 'h3';
import { errorHeaders, fastResponse } from '../http/fast-response.ts';
import type { BufferPieces } from '../http/buffer-pieces.ts';
import { problemCatalogue, problemTypeUri, type ProblemSlug } from '../contract/problems.ts';
import type { ProblemLinkT, ProblemT } from '../contract/docs-api.ts';

/** Detail of every 400 for a missing or empty `query` (search and ask). */
export const MISSING_QUERY = '`query` is required and must be a non-empty string.';

export interface ProblemOptions {
  headers?: Record<string, string>;
  /** Extension members (e.g. `replacement`, `errors`). */
  extra?: Record<string, unknown>;
}

export class ProblemError extends HTTPError {
  readonly slug: ProblemSlug;
  readonly detail: string | undefined;
  readonly extra: Record<string, unknown>;
  constructor(slug: ProblemSlug, detail?: string, opts: ProblemOptions = {}) {
    super({ status: problemCatalogue[slug].status, message: detail ?? problemCatalogue[slug].title, headers: opts.headers });
    this.slug = slug;
    this.detail = detail;
    this.extra = opts.extra ?? {};
  }
}

const genericByStatus: Record<number, ProblemSlug> = {
  400: 'invalid-request-body',
  404: 'not-found',
  405: 'method-not-allowed',
  406: 'not-acceptable',
  410: 'gone',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  429: 'too-many-requests',
  503: 'service-unavailable',
};

/** The catalogue entry for an HTTP status raised by a library (h3, the MCP transport). */
export function slugForStatus(status: number): ProblemSlug {
  return genericByStatus[status] ?? 'internal-server-error';
}

/** Where to look next, for every 404. */
export function notFoundLinks(path: string): ProblemLinkT[] {
  const words = path
    .split(/[/#?.]/)
    .filter((w) => w && !['docs', 'api', 'v1', 'md', 'html'].includes(w))
    .slice(-2)
    .join(' ')
    .replace(/-/g, ' ')
    .trim();
  const links: ProblemLinkT[] = [];
  if (words) links.push({ rel: 'search', href: `/api/search?query=${encodeURIComponent(words)}`, title: 'Search the docs' });
  links.push(
    { rel: 'index', href: '/llms.txt', title: 'Every page, for language models' },
    { rel: 'service-desc', href: '/openapi.json', title: 'OpenAPI description of the API' },
    { rel: 'collection', href: '/docs', title: 'Documentation index' },
  );
  return links;
}

function notFoundMarkdown(path: string, links: ProblemLinkT[]): string {
  const list = links.map((l) => `- [${l.title ?? l.rel}](${l.href})`).join('\n');
  return `# Not found\n\nNothing is served at \`${path}\`. Doc pages live at \`/docs/<section>/<page>\` (Markdown: append \`.md\`).\n\n${list}\n`;
}

export function problemBody(siteUrl: string, slug: ProblemSlug, instance: string, detail?: string, extra: Record<string, unknown> = {}): ProblemT {
  const kind = problemCatalogue[slug];
  const body: ProblemT = { type: problemTypeUri(siteUrl, slug), title: kind.title, status: kind.status };
  if (detail) body.detail = detail;
  body.instance = instance;
  if (kind.status === 404) {
    const links = notFoundLinks(instance);
    body.links = links;
    body.markdown = notFoundMarkdown(instance, links);
  }
  return { ...body, ...extra };
}

/** A JSON body as bytes: srvx's FastResponse writes them straight to the socket (undici's Response would wrap them in a web stream). */
export function jsonBytesResponse(body: Buffer | BufferPieces, status = 200, headers: Record<string, string> = {}): Response {
  return fastResponse(body, status, { 'content-type': 'application/json', 'content-length': String(body.length), ...headers });
}

export function jsonResponse(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return jsonBytesResponse(Buffer.from(JSON.stringify(data), 'utf8'), status, headers);
}

export function problemResponse(siteUrl: string, err: ProblemError, instance: string): Response {
  return jsonResponse(problemBody(siteUrl, err.slug, instance, err.detail, err.extra), err.status, errorHeaders(err));
}

const clientErrorSlugs = { 400: 'bad-request', 408: 'request-timeout', 431: 'request-header-fields-too-large' } as const satisfies Record<number, ProblemSlug>;

/** The Problem body for a request Node refused before routing (gateway/http/node-server.ts): no request path to name. */
export function clientErrorProblem(siteUrl: string, status: keyof typeof clientErrorSlugs): { contentType: string; body: string } {
  const slug = clientErrorSlugs[status];
  const kind = problemCatalogue[slug];
  const body: ProblemT = { type: problemTypeUri(siteUrl, slug), title: kind.title, status: kind.status, detail: kind.when };
  return { contentType: 'application/json', body: JSON.stringify(body) };
}
