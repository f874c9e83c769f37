import { describe, expect, it } from 'vitest';
import type { LlmConfig } from '../../gateway/engine/llm.ts';
import { LlmUnavailableError, backoffMs, chatCompletionsUrl, createLlmClient } from '../../gateway/engine/llm.ts';
import { closedPort, sseChunk, useOpenAiServer } from '../helpers/openai-server.ts';

const fake = useOpenAiServer();
const cfg = (over: Partial<LlmConfig> = {}): LlmConfig => ({ baseUrl: fake.url, model: 'test-model', connectTimeoutMs: 1000, totalTimeoutMs: 5000, retries: 2, ...over });
const messages = [{ role: 'user' as const, content: 'Hello?' }];

async function collect(it: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const p of it) out.push(p);
  return out;
}

async function failure(p: Promise<unknown>): Promise<LlmUnavailableError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmUnavailableError);
  return err as LlmUnavailableError;
}

describe('createLlmClient', () => {
  it('builds the chat completions url', () => {
    expect(chatCompletionsUrl('http://h:1/v1')).toBe('http://h:1/v1/chat/completions');
    expect(chatCompletionsUrl('http://h:1/v1/')).toBe('http://h:1/v1/chat/completions');
    expect(chatCompletionsUrl('http://h:1/v1/chat/completions')).toBe('http://h:1/v1/chat/completions');
    expect([1, 2, 3, 10].map(backoffMs)).toEqual([250, 500, 1000, 4000]);
  });

  it('streams the answer in several chunks as they arrive, with the bearer key and a streaming request', async () => {
    fake.setMode('ok', { pieces: ['The ', 'answer ', 'is ', '42.'], delayMs: 15 });
    const client = createLlmClient(cfg({ apiKey: 'sk-test' }));
    const pieces = await collect(client.streamChat(messages, { temperature: 0.2, maxTokens: 100 }));
    expect(pieces).toEqual(['The ', 'answer ', 'is ', '42.']);
    expect(fake.requests).toHaveLength(1);
    const r = fake.requests[0]!;
    expect(r.url).toBe('/v1/chat/completions');
    expect(r.headers.authorization).toBe('Bearer sk-test');
    expect(r.body).toMatchObject({ model: 'test-model', stream: true, messages, temperature: 0.2, max_tokens: 100 });
  });

  it('sends no Authorization header without an API key', async () => {
    fake.setMode('ok', { pieces: ['ok'] });
    await collect(createLlmClient(cfg()).streamChat(messages));
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('yields pieces before the stream has ended (streaming, not buffering)', async () => {
    fake.setMode('gated', { pieces: ['first', ' second'] });
    const it = createLlmClient(cfg()).streamChat(messages)[Symbol.asyncIterator]();
    expect((await it.next()).value).toBe('first');
    fake.release();
    expect((await it.next()).value).toBe(' second');
    expect((await it.next()).done).toBe(true);
  });

  it('stops at [DONE] even if the server keeps the connection open', async () => {
    fake.setMode((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`${sseChunk('a')}${sseChunk('b')}data: [DONE]\n\n`); // and never end
    });
    expect(await collect(createLlmClient(cfg()).streamChat(messages))).toEqual(['a', 'b']);
  });

  it('accepts a non-streaming JSON answer', async () => {
    fake.setMode('json', { pieces: ['whole answer'] });
    expect(await collect(createLlmClient(cfg()).streamChat(messages))).toEqual(['whole answer']);
  });

  it('a server that never answers gives LlmUnavailableError within a bounded time', async () => {
    fake.setMode('hang');
    const t0 = Date.now();
    const err = await failure(collect(createLlmClient(cfg({ connectTimeoutMs: 150, totalTimeoutMs: 2000, retries: 1 })).streamChat(messages)));
    expect(err.kind).toBe('timeout');
    expect(err.attempts).toBe(2);
    expect(fake.requests).toHaveLength(2);
    // bounded: 2 × 150 ms + 250 ms backoff; generous margin, this is a bound, not a benchmark
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('the total timeout bounds a stream that stalls after the first token (no retry after a token)', async () => {
    fake.setMode('gated', { pieces: ['partial', 'never sent'] }); // then stall
    const got: string[] = [];
    const err = await failure(
      (async () => {
        for await (const p of createLlmClient(cfg({ totalTimeoutMs: 400, retries: 3 })).streamChat(messages)) got.push(p);
      })(),
    );
    expect(got).toEqual(['partial']);
    expect(err.kind).toBe('timeout');
    expect(err.partial).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('a backend that is down (closed port) gives LlmUnavailableError after bounded retries', async () => {
    const port = await closedPort();
    const err = await failure(collect(createLlmClient(cfg({ baseUrl: `http://127.0.0.1:${port}/v1`, retries: 2 })).streamChat(messages)));
    expect(err.kind).toBe('connect');
    expect(err.attempts).toBe(3);
    expect(err.message).toMatch(/ECONNREFUSED|cannot reach/);
  });

  it('retries 5xx and 429 before the first token, then streams', async () => {
    fake.setMode((res, n) => {
      if (n === 1) return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"overloaded"}');
      if (n === 2) return void res.writeHead(429, { 'retry-after': '0' }).end('slow down');
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`${sseChunk('finally')}data: [DONE]\n\n`);
    });
    expect(await collect(createLlmClient(cfg({ retries: 2 })).streamChat(messages))).toEqual(['finally']);
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up after the retries with the last status', async () => {
    fake.setMode('error', { status: 502, message: 'bad gateway' });
    const err = await failure(collect(createLlmClient(cfg({ retries: 1 })).streamChat(messages)));
    expect(err).toMatchObject({ kind: 'http', status: 502, attempts: 2 });
    expect(fake.requests).toHaveLength(2);
  });

  it('does not retry other 4xx (e.g. a wrong key or model)', async () => {
    fake.setMode('error', { status: 401, message: 'bad key' });
    const err = await failure(collect(createLlmClient(cfg({ retries: 3 })).streamChat(messages)));
    expect(err).toMatchObject({ kind: 'http', status: 401 });
    expect(err.message).toContain('bad key');
    expect(fake.requests).toHaveLength(1);
  });

  it('does not retry once a token has been streamed (connection dropped midway)', async () => {
    fake.setMode('midstream', { pieces: ['half'], delayMs: 20 });
    const got: string[] = [];
    const err = await failure(
      (async () => {
        for await (const p of createLlmClient(cfg({ retries: 3 })).streamChat(messages)) got.push(p);
      })(),
    );
    expect(got).toEqual(['half']);
    expect(err.partial).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports an error event in the stream and an empty answer as unavailable', async () => {
    fake.setMode((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ error: { message: 'model not loaded' } })}\n\n`);
    });
    expect((await failure(collect(createLlmClient(cfg()).streamChat(messages)))).message).toContain('model not loaded');
    fake.setMode('ok', { pieces: [] });
    expect((await failure(collect(createLlmClient(cfg()).streamChat(messages)))).message).toContain('empty');
  });

  it("an abort by the caller's signal rethrows its reason (not LlmUnavailableError)", async () => {
    fake.setMode('ok', { pieces: ['a', 'b', 'c', 'd'], delayMs: 100 });
    const ac = new AbortController();
    const reason = new Error('client went away');
    const got: string[] = [];
    const p = (async () => {
      for await (const piece of createLlmClient(cfg()).streamChat(messages, { signal: ac.signal })) {
        got.push(piece);
        ac.abort(reason);
      }
    })();
    await expect(p).rejects.toBe(reason);
    expect(got).toEqual(['a']);
  });
});
