// MCP tool definitions of the docs site: used by the MCP server (gateway/docs/mcp.ts)
// and by the build for /.well-known/mcp/server-card.json. Inputs reuse the API contract.
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { API_VERSION, AskModeSchema, AskResponse, BatchMarkdownRequest, BatchMarkdownResponse, Cursor, QueryText, SearchLimit, Tag } from './docs-api.ts';

export const MCP_PATH = '/api/mcp';
export const MCP_PROTOCOL_VERSION = LATEST_PROTOCOL_VERSION;

/** Limits of the MCP endpoints of both apps. */
export const mcpLimits = {
  /**
   * Bytes of one JSON-RPC answer to `tools/call` or `resources/read` (the result's text and
   * structured content together). 20 pages of a documentation site fit with room to spare;
   * `fetch_batch` leaves out the pages past it (each reported with status 413).
   */
  resultMaxBytes: 1024 * 1024,
} as const;

/** Results of the `search` tool: shaped for OpenAI-style clients (id, title, url, text). */
export const McpSearchOutput = z.object({
  results: z.array(
    z.object({
      id: z.string().describe('The hit URL path; pass it to `fetch`.'),
      title: z.string(),
      url: z.url(),
      text: z.string().describe('Plain-text excerpt.'),
      type: z.enum(['page', 'heading', 'text']),
      score: z.number().min(0).max(1),
    }),
  ),
  total: z.int().min(0),
  next_cursor: z.string().optional().describe('Pass as `cursor` for the next page; absent on the last page.'),
});

/** Result of the `fetch` tool: one page as Markdown (OpenAI-style id, title, text, url, metadata). */
export const McpFetchOutput = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string().describe("The page's Markdown (from `offset`, when given)."),
  url: z.url(),
  metadata: z.object({ path: z.string(), type: z.string(), section: z.string(), description: z.string() }),
  next_offset: z.number().int().min(1).optional().describe('Present when the page is too long for one answer: call fetch again with this offset for the rest.'),
});

export interface McpToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
}

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
export const mcpToolAnnotations = readOnly;

export const searchTool = {
  name: 'search',
  title: 'Search the docs',
  description:
    'Full-text search over the documentation. Returns hits (page, heading or text passage) best first, each with an `id` to pass to `fetch`. ' +
    'Default 10 hits; page with `cursor`. Filter by content type with `tag`.',
  inputSchema: z.object({
    query: QueryText,
    tag: Tag.optional(),
    limit: SearchLimit.optional().describe('Hits per page 1..100 (default 10).'),
    cursor: Cursor.optional(),
  }),
  outputSchema: McpSearchOutput,
} satisfies McpToolDef;

export const fetchTool = {
  name: 'fetch',
  title: 'Fetch a page as Markdown',
  description: 'Returns one doc page as Markdown. `id` is a page path (/docs/<section>/<page>), its absolute URL, or the `id` of a search hit.',
  inputSchema: z.object({
    id: z.string().min(1).describe('Page path, page URL, or search hit id (an #anchor is ignored).'),
    offset: z.number().int().min(0).optional().describe('Where to start in the page\'s Markdown, in characters: the `next_offset` of the previous answer for a page too long for one.'),
  }),
  outputSchema: McpFetchOutput,
} satisfies McpToolDef;

export const fetchBatchTool = {
  name: 'fetch_batch',
  title: 'Fetch up to 20 pages as Markdown',
  description: 'Returns the Markdown of 1 to 20 doc pages in request order; a missing or malformed path is reported in its own entry (`ok: false`).',
  inputSchema: BatchMarkdownRequest,
  outputSchema: BatchMarkdownResponse,
} satisfies McpToolDef;

export const askTool = {
  name: 'ask',
  title: 'Ask the docs',
  description: 'Answers a natural-language question: the best pages (list), plus a summary (summarize) or a grounded answer with citations (generate).',
  inputSchema: z.object({ query: QueryText, mode: AskModeSchema.optional() }),
  outputSchema: AskResponse,
} satisfies McpToolDef;

export const mcpTools: readonly McpToolDef[] = [searchTool, fetchTool, fetchBatchTool, askTool];

/** Reverse-DNS server name from the site URL: https://docs.example.com → com.example.docs/docs. */
function serverName(siteUrl: string): string {
  const host = new URL(siteUrl).hostname;
  return `${host.split('.').reverse().join('.')}/docs`;
}

/** /.well-known/mcp/server-card.json: identity and remote (SEP-2127) plus the tools and auth facts older clients read. */
export function mcpServerCard(siteUrl: string, opts: { name?: string; description?: string; version?: string } = {}): Record<string, unknown> {
  const base = siteUrl.replace(/\/+$/, '');
  const endpoint = `${base}${MCP_PATH}`;
  const title = opts.name ?? 'Docs';
  const description = opts.description ?? `Search, read and ask the ${title} documentation.`;
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: serverName(base),
    title,
    description,
    version: opts.version ?? API_VERSION,
    websiteUrl: base,
    remotes: [{ type: 'streamable-http', url: endpoint }],
    protocolVersion: MCP_PROTOCOL_VERSION,
    serverInfo: { name: serverName(base), title, version: opts.version ?? API_VERSION },
    transport: { type: 'streamable-http', endpoint: MCP_PATH, url: endpoint, stateless: true },
    authentication: { required: false, schemes: [] },
    capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } },
    tools: mcpTools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: stripDialect(z.toJSONSchema(t.inputSchema, { io: 'input' })),
      annotations: readOnly,
    })),
    resources: [{ uriTemplate: `${base}/docs/{section}/{page}.md`, mimeType: 'text/markdown', description: 'Every doc page as Markdown.' }],
  };
}

function stripDialect(schema: object): object {
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return rest;
}
