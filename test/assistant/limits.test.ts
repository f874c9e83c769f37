// A gateway whose model backend is down (a closed loopback port) and whose budget is
// the default 10 requests per IP per minute: 503 unavailable within a bounded time,
// 429 rate_limited with Retry-After on the 11th request, and a 500 internal_error.
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningGateway } from '../helpers/gateway.ts';
import { closedPort } from '../helpers/openai-server.ts';
import { chatBody, chatHeaders, envelope, jsonHeaders, rateHeaders, startAssistantGateway } from './helpers/assistant.ts';

let gw: RunningGateway;
let dist: string;
/** Upper bound for one request against a dead backend (connect refused, bounded retries with backoff). */
const BOUND_MS = 20_000;

const post = (path: string, body: string, headers: Record<string, string> = jsonHeaders) =>
  fetch(`${gw.assistantUrl}${path}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(BOUND_MS) });

beforeAll(async () => {
  // A private copy of the portfolio tree (one test removes a file from it); the docs tree is shared read-only.
  const fixture = inject('distDir');
  dist = mkdtempSync(join(tmpdir(), 'assistant-limits-'));
  symlinkSync(join(fixture, 'site'), join(dist, 'site'), 'dir');
  cpSync(join(fixture, 'portfolio'), join(dist, 'portfolio'), { recursive: true });
  // The build's compile cache and engine indexes too: a first start as after a real build, not a cold compile.
  for (const dir of ['compile-cache', 'search-index']) if (existsSync(join(fixture, dir))) symlinkSync(join(fixture, dir), join(dist, dir), 'dir');
  const refusingPort = await closedPort();
  gw = await startAssistantGateway(dist, {
    LLM_BASE_URL: `http://127.0.0.1:${refusingPort}/v1`,
    LLM_MODEL: 'unreachable-model',
    LLM_CONNECT_TIMEOUT_MS: '500',
    LLM_TIMEOUT_MS: '2000',
    LLM_RETRIES: '2',
  });
});
afterAll(async () => {
  await gw?.stop();
  if (dist) rmSync(dist, { recursive: true, force: true });
});

describe('model backend down, default budget of 10 per minute', () => {
  let counted = 0;

  it('POST /api/chat answers 503 unavailable within a bounded time', async () => {
    const res = await post('/api/chat', chatBody('What does Robin do?'), chatHeaders);
    counted++;
    expect(res.status).toBe(503);
    expect((await envelope(res)).code).toBe('unavailable');
    expect(rateHeaders(res)).toMatchObject({ limit: 10, remaining: 10 - counted });
  });

  it('POST /ask answers 503 unavailable, as JSON and when an event stream was asked for', async () => {
    for (const headers of [jsonHeaders, { ...jsonHeaders, Accept: 'text/event-stream' }]) {
      const res = await post('/ask', JSON.stringify({ query: 'What does Robin do?' }), headers);
      counted++;
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await envelope(res)).code).toBe('unavailable');
      expect(rateHeaders(res).remaining).toBe(10 - counted);
    }
  });

  it('the MCP ask tool reports unavailable; only the tool call is counted', async () => {
    const client = new Client({ name: 'limits-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.assistantUrl}/api/mcp`)));
    try {
      const result = await client.callTool({ name: 'ask', arguments: { query: 'What does Robin do?' } });
      counted++;
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('unavailable');
    } finally {
      await client.close();
    }
    const page = await fetch(`${gw.assistantUrl}/about`);
    expect(page.status).toBe(200);
    expect(rateHeaders(page)).toMatchObject({ limit: 10, remaining: 10 - counted });
  });

  it('a file that disappears under the running gateway is a 500 internal_error', async () => {
    const head = await fetch(`${gw.assistantUrl}/writing`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    // With its precompressed copies: the whole file is gone, whatever encoding the client takes.
    for (const suffix of ['', '.br', '.gz']) rmSync(join(dist, 'portfolio', `writing.html${suffix}`), { force: true });
    const res = await fetch(`${gw.assistantUrl}/writing`);
    expect(res.status).toBe(500);
    const body = await envelope(res);
    expect(body.code).toBe('internal_error');
    expect(body.error).not.toMatch(/ENOENT|portfolio\//); // no internals leak
    expect(rateHeaders(res).remaining).toBe(10 - counted);
  });

  it('the 11th counted request in a minute is 429 rate_limited with Retry-After', async () => {
    while (counted < 10) {
      const res = await post('/ask', '{"query": ""}');
      counted++;
      expect(res.status).toBe(400);
      expect(rateHeaders(res).remaining).toBe(10 - counted);
      await res.arrayBuffer();
    }
    const res = await post('/ask', JSON.stringify({ query: 'What does Robin do?' }));
    expect(res.status).toBe(429);
    expect((await envelope(res)).code).toBe('rate_limited');
    const retryAfter = res.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(rateHeaders(res)).toMatchObject({ limit: 10, remaining: 0 });

    // One budget for both endpoints; the guard order puts the limit first.
    const chat = await post('/api/chat', chatBody('hi'), chatHeaders);
    expect(chat.status).toBe(429);
    expect((await envelope(chat)).code).toBe('rate_limited');
    const noOrigin = await post('/api/chat', chatBody('hi'));
    expect(noOrigin.status).toBe(429);
    await noOrigin.arrayBuffer();

    // Pages stay available and still report the exhausted budget.
    const page = await fetch(`${gw.assistantUrl}/`);
    expect(page.status).toBe(200);
    expect(rateHeaders(page).remaining).toBe(0);
  });
});
