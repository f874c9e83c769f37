// The docs MCP server: tools search, fetch, fetch_batch and ask (definitions from
// the contract) and every page as a text/markdown resource. Stateless: one server
// per HTTP request, built here; the HTTP side is the shared wiring (gateway/mcp/serve.ts).
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { API_VERSION, type AskResponseT, type BatchMarkdownResponseT } from '../contract/docs-api.ts';
import { askTool, fetchBatchTool, fetchTool, mcpLimits, mcpToolAnnotations, mcpTools, searchTool, type McpFetchOutput, type McpSearchOutput, type McpToolDef } from '../contract/mcp.ts';
import { askMeta, askResults, generateAnswer, newQueryId } from './ask/run.ts';
import { pageMarkdown, pagePathFromReference, runBatch } from './pages.ts';
import { ProblemError } from './problem.ts';
import { requireManifest } from './ready.ts';
import type { DocsRuntime } from './runtime.ts';
import { searchPage } from './search.ts';

const DEFAULT_SEARCH_LIMIT = 10;

/** Input schema of each tool, by name: the shared wiring checks arguments before a tool runs. */
export const docsToolInputs: ReadonlyMap<string, z.ZodType> = new Map(mcpTools.map((t) => [t.name, t.inputSchema]));

/** What an MCP answer holds besides its tool result: the JSON-RPC envelope, with room to spare. */
const ENVELOPE_BYTES = 4096;

/** Bytes a tool result costs in an MCP answer: its JSON raw in structuredContent, and escaped again in the text. */
function answerCost(result: unknown): number {
  const json = JSON.stringify(result);
  return Buffer.byteLength(json, 'utf8') + Buffer.byteLength(JSON.stringify(json), 'utf8');
}

/**
 * The part of a page's Markdown one `fetch` answer carries from `offset`: the rest of the page when the answer fits
 * the cap, else whole lines up to it (a single longer line cut, never between the halves of a surrogate pair), with
 * the offset the next call starts from. `answer` builds the tool's result around a text, to measure it.
 */
export function fetchPart(markdown: string, offset: number, answer: (text: string) => unknown, maxBytes = mcpLimits.resultMaxBytes): { text: string; nextOffset?: number } {
  const room = maxBytes - ENVELOPE_BYTES;
  const rest = markdown.slice(offset);
  // every character costs at least two bytes (raw, then escaped again): a rest longer than half the room never fits
  if (rest.length * 2 <= room && answerCost(answer(rest)) <= room) return { text: rest };
  let length = Math.min(rest.length, Math.floor(room / 2));
  while (length > 1 && answerCost(answer(rest.slice(0, length))) > room) length = Math.floor(length / 2);
  // grow back while it fits (halving leaves up to half the room unused), to within a line or so of the cap
  for (let step = Math.floor(length / 2); step >= 256 && length < rest.length; step = Math.floor(step / 2)) {
    while (length + step < rest.length && answerCost(answer(rest.slice(0, length + step))) <= room) length += step;
  }
  const lineEnd = rest.lastIndexOf('\n', length - 1);
  if (lineEnd > 0) length = lineEnd + 1;
  else if (length > 1 && length < rest.length && /[\uD800-\uDBFF]/.test(rest[length - 1]!)) length--;
  return { text: rest.slice(0, length), nextOffset: offset + length };
}

/**
 * A batch that fits in one MCP answer: pages in request order while their JSON, counted as it
 * travels (raw in structuredContent, escaped again in the text), stays under the cap; the
 * pages past it are reported inline with status 413, to be fetched by another call.
 */
export function fitBatch(batch: BatchMarkdownResponseT, maxBytes = mcpLimits.resultMaxBytes): BatchMarkdownResponseT {
  const leftOut = (path: string) => ({ path, ok: false as const, status: 413, detail: `Left out: this batch would pass the ${maxBytes} bytes one MCP answer may carry. Fetch this page in another call.` });
  // room for the JSON-RPC envelope, and for every page to be left out if it comes to that
  let room = maxBytes - ENVELOPE_BYTES;
  for (const entry of batch.results) room -= entry.ok ? answerCost(leftOut(entry.path)) : answerCost(entry);
  let full = false; // request order: nothing after the first page left out
  return {
    results: batch.results.map((entry) => {
      if (!entry.ok) return entry;
      const extra = answerCost(entry) - answerCost(leftOut(entry.path));
      if (!full && extra <= room) {
        room -= extra;
        return entry;
      }
      full = true;
      return leftOut(entry.path);
    }),
  };
}

function ok(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Problems (bad cursor, index down) become tool errors the model can read. */
async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ProblemError) return toolError(`${err.detail ?? err.message}`);
    throw err;
  }
}

function config<T extends McpToolDef>(def: T) {
  return { title: def.title, description: def.description, inputSchema: def.inputSchema.shape as T['inputSchema']['shape'], outputSchema: def.outputSchema, annotations: mcpToolAnnotations };
}

export function createMcpServer(rt: DocsRuntime): McpServer {
  const server = new McpServer(
    { name: 'docs', title: rt.siteName, version: API_VERSION },
    { instructions: `Documentation of ${rt.siteName}. Use \`search\` to find pages, then \`fetch\` (or \`fetch_batch\`) for their Markdown; \`ask\` answers questions with sources.` },
  );

  server.registerTool(searchTool.name, config(searchTool), (args, extra) =>
    guarded(async () => {
      const page = await searchPage(rt, { query: args.query.trim(), tag: args.tag, limit: args.limit ?? DEFAULT_SEARCH_LIMIT, cursor: args.cursor, signal: extra.signal });
      const out: z.infer<typeof McpSearchOutput> = {
        results: page.hits.map((h) => ({ id: h.url, title: h.title, url: `${rt.siteUrl}${h.url}`, text: h.content, type: h.type, score: h.score })),
        total: page.total,
      };
      if (page.nextCursor) out.next_cursor = page.nextCursor;
      return ok(out);
    }),
  );

  server.registerTool(fetchTool.name, config(fetchTool), (args) =>
    guarded(async () => {
      requireManifest(rt);
      const path = pagePathFromReference(args.id, rt.siteUrl);
      if (!path) return toolError(`"${args.id}" is not a doc page path or URL of this site. Use a path like /docs/<section>/<page> or an id from the search tool.`);
      const page = rt.pages.get(path);
      if (!page) return toolError(`No doc page at ${path}. Use the search tool to find the right page.`);
      const markdown = await pageMarkdown(rt, page);
      const offset = args.offset ?? 0;
      if (offset > markdown.length) return toolError(`offset ${offset} is past the end of ${page.path} (${markdown.length} characters).`);
      const answer = (text: string): z.infer<typeof McpFetchOutput> => ({
        id: page.path,
        title: page.title,
        text,
        url: `${rt.siteUrl}${page.path}`,
        metadata: { path: page.path, type: page.type, section: page.section, description: page.description },
      });
      const part = fetchPart(markdown, offset, answer);
      return ok(part.nextOffset === undefined ? answer(part.text) : { ...answer(part.text), next_offset: part.nextOffset });
    }),
  );

  server.registerTool(fetchBatchTool.name, config(fetchBatchTool), (args) =>
    guarded(async () => {
      requireManifest(rt);
      return ok(fitBatch(await runBatch(rt, args.paths)));
    }),
  );

  server.registerTool(askTool.name, config(askTool), (args, extra) =>
    guarded(async () => {
      const query = args.query.trim();
      const mode = args.mode ?? 'list';
      const ask = await askResults(rt, query, extra.signal);
      const { results } = ask;
      const out: AskResponseT = { query_id: newQueryId(), query, results: [...results], _meta: askMeta(mode, results.length) };
      if (mode !== 'list') {
        let text = '';
        const outcome = await generateAnswer(rt, { query, mode, ask, signal: extra.signal, onText: (t) => (text += t) });
        out.answer = text;
        out.citations = outcome.citations;
        out._meta = askMeta(mode, results.length, outcome);
      }
      return ok(out);
    }),
  );

  server.registerResource(
    'page',
    new ResourceTemplate(`${rt.siteUrl}/docs/{section}/{page}.md`, {
      list: () => ({
        resources: [...rt.pages.values()].map((p) => ({
          uri: `${rt.siteUrl}/${p.md}`,
          name: p.path,
          title: p.title,
          description: p.description,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    { title: 'Doc page', description: 'A documentation page as Markdown.', mimeType: 'text/markdown' },
    async (uri, vars) => {
      const page = rt.pages.get(`/docs/${String(vars.section)}/${String(vars.page)}`);
      if (!page) throw new Error(`No doc page at ${uri.pathname.replace(/\.md$/, '')}`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await pageMarkdown(rt, page) }] };
    },
  );

  // Stateless: the lists never change within a session, as the server card says; the SDK
  // announces listChanged: true when tools are registered, so restate it before connecting.
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } });
  return server;
}
