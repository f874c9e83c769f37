// /api/mcp with the MCP SDK's own Client over Streamable HTTP: every tool listed and
// called, pages as resources, a missing page as a tool error, GET 405.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AskResponse, BatchMarkdownResponse } from '../../gateway/contract/docs-api.ts';
import { McpFetchOutput, McpSearchOutput, mcpLimits, mcpTools } from '../../gateway/contract/mcp.ts';
import { fetchPart, fitBatch } from '../../gateway/docs/mcp.ts';
import { capped } from '../../gateway/mcp/serve.ts';
import { fixtureBuild, readSiteFile } from '../helpers/manifest.ts';
import { expectApiHeaders, expectProblem, expectValid, useGateway } from './helpers.ts';

const { distDir, manifest, site } = fixtureBuild();
const page = manifest.pages[0]!;
const gw = useGateway(distDir);

async function connect(path = '/api/mcp'): Promise<Client> {
  const client = new Client({ name: 'docs-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}${path}`)));
  return client;
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const structured = (r: ToolResult) => {
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  const text = (r.content as { type: string; text: string }[])[0]!;
  expect(text.type).toBe('text');
  expect(JSON.parse(text.text)).toEqual(r.structuredContent);
  return r.structuredContent;
};

describe('MCP over Streamable HTTP', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client?.close());

  it('lists the contract tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(mcpTools.map((t) => t.name).sort());
    for (const t of tools) {
      const def = mcpTools.find((d) => d.name === t.name)!;
      expect(t.description).toBe(def.description);
      expect(t.annotations?.readOnlyHint).toBe(true);
      expect(Object.keys((t.inputSchema as { properties: object }).properties).sort()).toEqual(Object.keys(def.inputSchema.shape).sort());
      expect(t.outputSchema).toBeDefined();
    }
    expect(client.getServerVersion()?.version).toBe('10.0.0-alpha.47');
    // What initialize announces matches the server card: nothing ever changes in a stateless server.
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(false);
    expect(client.getServerCapabilities()?.resources?.listChanged).toBe(false);
  });

  it('search: hits with ids that fetch accepts, and a cursor', async () => {
    const first = expectValid(McpSearchOutput, structured(await client.callTool({ name: 'search', arguments: { query: 'install', limit: 2 } })));
    expect(first.results.length).toBeGreaterThan(0);
    for (const r of first.results) expect(r.url.startsWith(`${site}/docs/`)).toBe(true);
    if (first.total > 2) {
      expect(first.next_cursor).toBeDefined();
      const second = expectValid(McpSearchOutput, structured(await client.callTool({ name: 'search', arguments: { query: 'install', limit: 2, cursor: first.next_cursor } })));
      expect(second.results.map((r) => r.id)).not.toContain(first.results[0]!.id);
    }
    const tagged = expectValid(McpSearchOutput, structured(await client.callTool({ name: 'search', arguments: { query: 'docs', tag: 'skill' } })));
    const types = new Map(manifest.pages.map((p) => [p.path, p.type]));
    for (const r of tagged.results) expect(types.get(r.id.split('#')[0]!)).toBe('skill');
    const fetched = expectValid(McpFetchOutput, structured(await client.callTool({ name: 'fetch', arguments: { id: first.results[0]!.id } })));
    expect(fetched.id).toBe(first.results[0]!.id.split('#')[0]);
  });

  it('search with a bad cursor is a tool error, not a crash', async () => {
    const r = await client.callTool({ name: 'search', arguments: { query: 'install', cursor: 'bogus' } });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toMatch(/cursor/);
  });

  it('fetch: a page by path, .md path or absolute URL, byte-identical to its twin', async () => {
    const twin = readSiteFile(distDir, page.md);
    for (const id of [page.path, `${page.path}.md`, `${site}${page.path}`, `${page.path}#some-heading`]) {
      const out = expectValid(McpFetchOutput, structured(await client.callTool({ name: 'fetch', arguments: { id } })));
      expect(out).toMatchObject({ id: page.path, title: page.title, url: `${site}${page.path}`, text: twin });
      expect(out.metadata.type).toBe(page.type);
    }
  });

  it('fetch: a missing page is a tool result with isError and a useful message', async () => {
    for (const id of ['/docs/nope/missing', '../../etc/passwd', 'https://elsewhere.example/docs/a/b']) {
      const r = await client.callTool({ name: 'fetch', arguments: { id } });
      expect(r.isError).toBe(true);
      const text = (r.content as { text: string }[])[0]!.text;
      expect(text).toMatch(/search/i);
      expect(text).not.toMatch(/root:/);
    }
  });

  it('fetch_batch: pages in order, failures inline', async () => {
    const out = expectValid(BatchMarkdownResponse, structured(await client.callTool({ name: 'fetch_batch', arguments: { paths: [page.path, '/docs/nope/missing', '../x'] } })));
    expect(out.results.map((r) => [r.ok, r.ok ? 200 : r.status])).toEqual([
      [true, 200],
      [false, 404],
      [false, 400],
    ]);
    // Input validation: an error result or a JSON-RPC error, depending on the SDK version.
    const tooMany = await client.callTool({ name: 'fetch_batch', arguments: { paths: Array(21).fill(page.path) } }).catch(() => ({ isError: true }));
    expect(tooMany.isError).toBe(true);
  });

  it('ask: results in list mode, an answer with citations in generate mode', async () => {
    const list = expectValid(AskResponse, structured(await client.callTool({ name: 'ask', arguments: { query: 'how do I deploy' } })));
    expect(list.results.length).toBeGreaterThan(0);
    expect(list._meta.response_type).toBe('list');
    const gen = expectValid(AskResponse, structured(await client.callTool({ name: 'ask', arguments: { query: 'how do I deploy', mode: 'generate' } })));
    expect(gen.answer).toMatch(/\S/);
    expect(gen._meta.answer_backend).toBe('extractive');
  });

  it('lists and reads every page as a text/markdown resource', async () => {
    const { resources } = await client.listResources();
    expect(resources.length).toBe(manifest.pages.length);
    const r = resources.find((x) => x.name === page.path)!;
    expect(r.mimeType).toBe('text/markdown');
    expect(r.uri).toBe(`${site}/${page.md}`);
    const read = await client.readResource({ uri: r.uri });
    expect(read.contents[0]).toMatchObject({ uri: r.uri, mimeType: 'text/markdown', text: readSiteFile(distDir, page.md) });
    await expect(client.readResource({ uri: `${site}/docs/nope/missing.md` })).rejects.toThrow();
  });

  it('works on the /api/v1/mcp alias', async () => {
    const v1 = await connect('/api/v1/mcp');
    const { tools } = await v1.listTools();
    expect(tools.length).toBe(mcpTools.length);
    await v1.close();
  });
});

describe('HTTP edges of /api/mcp', () => {
  it('GET answers 405 with Allow, as a Problem', async () => {
    const res = await fetch(`${gw.url}/api/mcp`, { headers: { accept: 'text/event-stream' } });
    expectApiHeaders(res.headers);
    await expectProblem(res, 'method-not-allowed', site, '/api/mcp');
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    const del = await fetch(`${gw.url}/api/mcp`, { method: 'DELETE' });
    expect(del.status).toBe(405);
  });

  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const post = (body: string, headers: Record<string, string>) => fetch(`${gw.url}/api/mcp`, { method: 'POST', headers, body });

  it('answers a raw initialize with JSON', async () => {
    const res = await post(JSON.stringify(init), { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    expect(res.status).toBe(200);
    expectApiHeaders(res.headers);
    const body = (await res.json()) as { result: { serverInfo: { version: string } } };
    expect(body.result.serverInfo.version).toBe('10.0.0-alpha.47');
  });

  it('accepts a notification with 202', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    expect(res.status).toBe(202);
    expectApiHeaders(res.headers);
  });

  it('HTTP-level errors are Problems that are also JSON-RPC errors', async () => {
    const cases: [string, Record<string, string>, Parameters<typeof expectProblem>[1], number][] = [
      ['{oops', { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, 'invalid-request-body', -32700],
      [JSON.stringify(init), { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, 'unsupported-media-type', -32000],
      [JSON.stringify(init), { 'content-type': 'application/json', accept: 'text/html' }, 'not-acceptable', -32000],
      [JSON.stringify({ nope: true }), { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, 'invalid-request-body', -32700],
    ];
    for (const [body, headers, slug, code] of cases) {
      const res = await post(body, headers);
      const problem = await expectProblem(res, slug, site, '/api/mcp');
      expect(problem).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
    }
    const big = await post(JSON.stringify({ ...init, pad: 'x'.repeat(70_000) }), { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    await expectProblem(big, 'payload-too-large', site);
  });

  const rpcHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const call = (id: number, name: string, args: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

  it('refuses a JSON-RPC batch (the 2025-06-18 transport has none): 400 Problem and JSON-RPC -32600, nothing run', async () => {
    const batch = Array.from({ length: 50 }, (_, i) => JSON.parse(call(i, 'fetch_batch', { paths: [page.path] })));
    const res = await post(JSON.stringify(batch), rpcHeaders);
    expectApiHeaders(res.headers);
    const problem = await expectProblem(res, 'invalid-request-body', site, '/api/mcp');
    expect(problem).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(problem.detail).toMatch(/batch/i);
    const empty = await post('[]', rpcHeaders);
    expect((await expectProblem(empty, 'invalid-request-body', site)).error).toMatchObject({ code: -32600 });
  });

  it('invalid tool arguments and params: JSON-RPC -32602 with a one-line message', async () => {
    const cases: [string, RegExp][] = [
      [call(7, 'search', 'x'), /arguments/],
      [call(7, 'search', [1]), /arguments/],
      [call(7, 'search', null), /arguments/],
      [call(7, 'search', { query: '', limit: 500 }), /Invalid arguments for tool search: .*query.*limit/],
      [call(7, 'fetch_batch', { paths: Array(21).fill(page.path) }), /Invalid arguments for tool fetch_batch: paths/],
      [call(7, 'ask', { query: 'x', mode: 'poem' }), /Invalid arguments for tool ask: mode/],
      [JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 5 } }), /params\.name/],
      [JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'initialize', params: {} }), /Invalid params for initialize/],
      [JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 5 } }), /params\.uri/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body, rpcHeaders);
      expect(res.status).toBe(200);
      expectApiHeaders(res.headers);
      const answer = (await res.json()) as { id: number; error: { code: number; message: string } };
      expect(answer.id).toBe(7);
      expect(answer.error.code, body).toBe(-32602);
      expect(answer.error.message).toMatch(message);
      expect(answer.error.message).not.toMatch(/\n|"code":|\[\s*\{/);
    }
  });

  it('fetch pages a page too long for one answer: whole lines, a next_offset, and the parts join to the page', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `Line ${i} of a long page, "quoted" and \\escaped, with ünïcode 😀 text.`);
    const markdown = `${lines.join('\n')}\n`;
    const answer = (text: string) => ({ id: '/docs/a/b', title: 't', text, url: 'http://localhost/docs/a/b', metadata: { path: '/docs/a/b', type: 'docs', section: 'a', description: '' } });
    const size = (r: unknown) => Buffer.byteLength(JSON.stringify(r)) + Buffer.byteLength(JSON.stringify(JSON.stringify(r)));
    let offset = 0;
    let joined = '';
    let calls = 0;
    for (;;) {
      const part = fetchPart(markdown, offset, answer, 60_000);
      calls++;
      expect(size(answer(part.text))).toBeLessThanOrEqual(60_000);
      joined += part.text;
      if (part.nextOffset === undefined) break;
      expect(part.text.endsWith('\n')).toBe(true);
      expect(size(answer(part.text))).toBeGreaterThan(30_000); // fills most of the room
      offset = part.nextOffset;
    }
    expect(joined).toBe(markdown);
    expect(calls).toBeGreaterThan(3);
    // a page that fits comes whole, without next_offset; one line longer than the cap is cut, not split in a character
    expect(fetchPart('short', 0, answer, 60_000)).toEqual({ text: 'short' });
    const emoji = '😀'.repeat(40_000);
    const part = fetchPart(emoji, 0, answer, 60_000);
    expect(part.text.length % 2).toBe(0);
    expect(part.nextOffset).toBe(part.text.length);
  });

  it('an answer over the output cap becomes an error naming the cap; a resource\'s points at fetch, which reads in parts', () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 3, result: { contents: [{ uri: 'x', text: 'x'.repeat(mcpLimits.resultMaxBytes) }] } });
    const resource = JSON.parse(capped(big, { id: 3, method: 'resources/read' }));
    expect(resource.id).toBe(3);
    expect(resource.error.message).toContain(`more than the ${mcpLimits.resultMaxBytes} bytes`);
    expect(resource.error.message).toContain('fetch tool, which answers in parts (offset, next_offset)');
    const tool = JSON.parse(capped(big, { id: 4, method: 'tools/call' }));
    expect(tool.result.isError).toBe(true);
    expect(tool.result.content[0].text).toContain('ask for less');
    expect(capped(big, { id: 5, method: 'resources/list' })).toBe(big); // lists are not capped
  });

  it('fetch_batch stays under the output cap of one MCP answer; pages past it are reported, in order', async () => {
    const paths = manifest.pages.slice(0, 20).map((p) => p.path);
    const res = await post(call(8, 'fetch_batch', { paths }), rpcHeaders);
    const text = await res.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(mcpLimits.resultMaxBytes);
    const full = { results: paths.map((path) => ({ path, ok: true as const, title: 't', markdown: 'x'.repeat(1000) })) };
    const fitted = fitBatch(full, 20_000);
    const kept = fitted.results.filter((r) => r.ok).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(paths.length);
    expect(fitted.results.map((r) => r.path)).toEqual(paths);
    expect(fitted.results.slice(kept).every((r) => !r.ok && r.status === 413 && /another call/.test(r.detail ?? ''))).toBe(true);
    const size = (r: unknown) => Buffer.byteLength(JSON.stringify(r)) + Buffer.byteLength(JSON.stringify(JSON.stringify(r)));
    expect(size(fitted)).toBeLessThanOrEqual(20_000);
    expectValid(BatchMarkdownResponse, fitted);
  });
});
