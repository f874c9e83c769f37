// GET|POST /ask on the real gateway: JSON and SSE, every input form, every 4xx, the
// model backend (working, failing, slow) and a client that disconnects.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AskCompleteEvent, AskResponse, AskResultEvent, AskStartEvent, NlwebResult, API_VERSION } from '../../gateway/contract/docs-api.ts';
import { startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { fixtureBuild } from '../helpers/manifest.ts';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server.ts';
import { expectApiHeaders, expectProblem, expectValid, readSse, roomyEnv, useGateway, type SseEvent } from './helpers.ts';
import { postChunked } from '../helpers/raw-http.ts';

const { distDir, manifest, site } = fixtureBuild();
const gw = useGateway(distDir);
const FAKE_ANSWER = ['The fake ', 'model says: ', 'see the docs.'];

const ask = (base: string, qs: string, init?: RequestInit) => fetch(`${base}/ask${qs ? `?${qs}` : ''}`, init);
const postJson = (base: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/ask`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function askJson(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expectApiHeaders(res.headers);
  return expectValid(AskResponse, await res.json());
}

function checkResults(results: { url: string; score: number; site?: string }[]) {
  const pages = results.map((r) => new URL(r.url).pathname);
  expect(new Set(pages).size).toBe(pages.length); // one result per page
  expect(results.length).toBeLessThanOrEqual(10);
  const scores = results.map((r) => r.score);
  expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  for (const r of results) {
    expect(r.url.startsWith(`${site}/docs/`)).toBe(true);
    expect(r.site).toBe(site);
    expect(manifest.pages.some((p) => p.path === new URL(r.url).pathname)).toBe(true);
  }
}

/** Checks SSE order and payloads; returns the parsed pieces. */
function checkStream(events: SseEvent[], mode: string) {
  for (const e of events) expect(['start', 'result', 'complete']).toContain(e.event);
  expect(events[0]!.event).toBe('start');
  expect(events.at(-1)!.event).toBe('complete');
  expect(events.filter((e) => e.event === 'start').length).toBe(1);
  expect(events.filter((e) => e.event === 'complete').length).toBe(1);
  const start = expectValid(AskStartEvent, events[0]!.data);
  expect(start._meta.response_type).toBe(mode);
  expect(start._meta.version).toBe(API_VERSION);
  const middle = events.slice(1, -1).map((e) => {
    expect(e.event).toBe('result');
    return expectValid(AskResultEvent, e.data);
  });
  // Results first, then text pieces, then at most one answer, last.
  const rank = { result: 0, text: 1, answer: 2 } as const;
  const ranks = middle.map((m) => rank[m.type]);
  expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
  expect(ranks.filter((r) => r === 2).length).toBeLessThanOrEqual(1);
  const results = middle.flatMap((m) => (m.type === 'result' ? [m.result] : []));
  const text = middle.flatMap((m) => (m.type === 'text' ? [m.text] : [])).join('');
  const answer = middle.find((m) => m.type === 'answer');
  const complete = expectValid(AskCompleteEvent, events.at(-1)!.data);
  expect(complete._meta.count).toBe(results.length);
  expect(complete._meta.response_type).toBe(mode);
  expect(complete._meta.version).toBe(API_VERSION);
  return { start, results, text, answer: answer?.type === 'answer' ? answer : undefined, complete };
}

describe('GET /ask (JSON)', () => {
  it('answers with NLWeb results and _meta', async () => {
    const body = await askJson(await ask(gw.url, 'query=how%20do%20I%20install%20it'));
    expect(body.query).toBe('how do I install it');
    expect(body.query_id).toMatch(/\S/);
    expect(body.results.length).toBeGreaterThan(0);
    checkResults(body.results);
    for (const r of body.results) {
      expectValid(NlwebResult, r);
      expect(r.name).toBe(r.title);
      expect(r.content ?? '').not.toMatch(/<[a-z][^>]*>/i);
      expect(r.description ?? '').not.toMatch(/<[a-z][^>]*>/i);
    }
    expect(body._meta).toEqual({ response_type: 'list', version: API_VERSION, count: body.results.length });
    expect(body.answer).toBeUndefined();
  });

  it('tolerates a typo: a misspelt word finds the page its correct spelling finds', async () => {
    const exact = await askJson(await ask(gw.url, 'query=pagination'));
    const typo = await askJson(await ask(gw.url, 'query=pagnation'));
    expect(typo.results.length).toBeGreaterThan(0);
    expect(new URL(typo.results[0]!.url).pathname).toBe(new URL(exact.results[0]!.url).pathname);
  });

  it('answers a question with a slip of the fingers as it answers the question spelt right', async () => {
    const right = await askJson(await ask(gw.url, `q=${encodeURIComponent('how does pagination work')}&mode=generate`));
    const slip = await askJson(await ask(gw.url, `q=${encodeURIComponent('how does pagnation work')}&mode=generate`));
    expect(right._meta.answer_status).toBe('answered');
    expect(slip._meta.answer_status).toBe('answered');
    expect(slip.citations![0]).toBe(right.citations![0]);
  });

  it('a repeated question: the same results, a new query_id, compact JSON in key order (results reused, not re-serialized)', async () => {
    const texts: string[] = [];
    for (let k = 0; k < 2; k++) {
      const res = await ask(gw.url, 'query=%22quoted%22%20install%20%E2%80%94%20caf%C3%A9');
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(await res.clone().text())));
      texts.push(await res.text());
    }
    const [a, b] = texts.map((t) => expectValid(AskResponse, JSON.parse(t)));
    for (const t of texts) expect(t).toBe(JSON.stringify(JSON.parse(t)));
    expect(Object.keys(JSON.parse(texts[0]!))).toEqual(['query_id', 'query', 'results', '_meta']);
    expect(a!.query).toBe('"quoted" install — café');
    expect(b!.results).toEqual(a!.results);
    expect(b!.query_id).not.toBe(a!.query_id);
  });

  it('takes the aliases q and question, with query > q > question', async () => {
    const q = await askJson(await ask(gw.url, 'q=rate%20limits'));
    expect(q.query).toBe('rate limits');
    const question = await askJson(await ask(gw.url, 'question=rate%20limits'));
    expect(question.query).toBe('rate limits');
    expect(question.results.map((r) => r.url)).toEqual(q.results.map((r) => r.url));
    const both = await askJson(await ask(gw.url, 'query=search&q=deploy&question=mcp'));
    expect(both.query).toBe('search');
    const emptyQuery = await askJson(await ask(gw.url, 'query=&q=deploy'));
    expect(emptyQuery.query).toBe('deploy');
  });

  it('is also served under /api/v1/ask', async () => {
    const body = await askJson(await fetch(`${gw.url}/api/v1/ask?q=deploy`));
    expect(body.results.length).toBeGreaterThan(0);
  });

  it('400 Missing query parameter with the exact detail', async () => {
    for (const qs of ['', 'query=', 'q=%20', 'mode=list']) {
      const res = await ask(gw.url, qs);
      expectApiHeaders(res.headers);
      const body = await expectProblem(res, 'missing-query-parameter', site, '/ask');
      expect(body.detail).toBe('`query` is required and must be a non-empty string.');
    }
  });

  it('400 Invalid parameter for an unknown mode or streaming value', async () => {
    for (const qs of ['q=a&mode=poem', 'q=a&streaming=yes', 'q=a&mode=list&mode=generate']) {
      await expectProblem(await ask(gw.url, qs), 'invalid-parameter', site, '/ask');
    }
  });

  it('summarize and generate add an extractive answer with citations when no model is configured', async () => {
    for (const mode of ['summarize', 'generate'] as const) {
      const body = await askJson(await ask(gw.url, `q=how%20are%20requests%20rate%20limited&mode=${mode}`));
      expect(body._meta.response_type).toBe(mode);
      expect(body._meta.answer_backend).toBe('extractive');
      expect(body._meta.fallback_reason).toBeUndefined();
      expect(body.answer).toMatch(/\S/);
      const urls = new Set(body.results.map((r) => r.url));
      expect(body.citations!.length).toBeGreaterThan(0);
      for (const c of body.citations!) expect(urls.has(c)).toBe(true);
    }
  });

  it('answers in Markdown, each passage cited with [n] linking to the heading of the section it quotes', async () => {
    const body = await askJson(await ask(gw.url, 'q=how%20are%20requests%20rate%20limited&mode=generate'));
    expect(body._meta.answer_status).toBe('answered');
    const refs = [...body.answer!.matchAll(/^\[(\d+)\]: (\S+)$/gm)].map((m) => m[2]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const url of refs) expect(url).toMatch(new RegExp(`^${site}/docs/[a-z0-9-]+/[a-z0-9-]+(#[a-z0-9-]+)?$`));
    expect(refs.some((url) => url.includes('#'))).toBe(true);
    expect(body.answer!.match(/^```/gm)?.length ?? 0).toSatisfy((n: number) => n % 2 === 0);
  });

  it('says plainly that the docs do not cover a question nothing answers, and lists the closest pages', async () => {
    for (const mode of ['generate', 'summarize'] as const) {
      const body = await askJson(await ask(gw.url, `q=${encodeURIComponent('how do I grow tomatoes in a greenhouse')}&mode=${mode}`));
      expect(body._meta.answer_status).toBe('not_covered');
      expect(body.answer).toMatch(/^The documentation does not cover this question/);
      expect(body.citations).toEqual([]);
      for (const r of body.results.slice(0, 3)) expect(body.answer).toContain(`](${r.url})`);
    }
    const s = checkStream(await readSse(await ask(gw.url, 'q=greenhouse%20tomatoes&mode=generate&streaming=true')), 'generate');
    expect(s.text).toMatch(/^The documentation does not cover this question/);
    expect(s.complete._meta.answer_status).toBe('not_covered');
  });

  it('echoes Idempotency-Key and refuses one over 255 characters', async () => {
    const key = 'k'.repeat(255);
    const res = await ask(gw.url, 'q=install', { headers: { 'idempotency-key': key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotency-key')).toBe(key);
    const bad = await ask(gw.url, 'q=install', { headers: { 'idempotency-key': 'k'.repeat(256) } });
    const body = await expectProblem(bad, 'invalid-header', site, '/ask');
    expect(body.detail).toMatch(/Idempotency-Key/);
  });

  it('405 with Allow for other methods', async () => {
    const res = await ask(gw.url, 'q=a', { method: 'DELETE' });
    await expectProblem(res, 'method-not-allowed', site);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });
});

describe('POST /ask', () => {
  it('takes JSON with query, q or question', async () => {
    for (const body of [{ query: 'deploy with nginx' }, { q: 'deploy with nginx' }, { question: 'deploy with nginx' }]) {
      const r = await askJson(await postJson(gw.url, body));
      expect(r.query).toBe('deploy with nginx');
      checkResults(r.results);
    }
  });

  it('takes the NLWeb structured body (query.text, prefer.mode)', async () => {
    const r = await askJson(await postJson(gw.url, { query: { text: 'batch markdown' }, prefer: { mode: 'summarize' } }));
    expect(r.query).toBe('batch markdown');
    expect(r._meta.response_type).toBe('summarize');
    expect(r.answer).toMatch(/\S/);
  });

  it('takes form-urlencoded bodies', async () => {
    const res = await fetch(`${gw.url}/ask`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'question=mcp+server&mode=list' });
    const r = await askJson(res);
    expect(r.query).toBe('mcp server');
  });

  it('echoes Idempotency-Key', async () => {
    const res = await postJson(gw.url, { query: 'search' }, { 'idempotency-key': 'abc-123' });
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotency-key')).toBe('abc-123');
  });

  it('415 for other media types', async () => {
    for (const type of ['text/plain', 'multipart/form-data; boundary=x', undefined]) {
      const res = await fetch(`${gw.url}/ask`, { method: 'POST', headers: type ? { 'content-type': type } : {}, body: type ? 'query=x' : new Uint8Array([1, 2]) });
      await expectProblem(res, 'unsupported-media-type', site, '/ask');
    }
  });

  it('400 for bodies that are not JSON or do not match AskRequest', async () => {
    for (const raw of ['{not json', '[]', '"query"', '{"query": 5}', '{"query": {"txt": "a"}}']) {
      const res = await fetch(`${gw.url}/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw });
      const body = await expectProblem(res, 'invalid-request-body', site, '/ask');
      expect(body.detail).toMatch(/\S/);
    }
    for (const body of [{}, { query: '' }, { query: { text: ' ' } }, { mode: 'list' }]) {
      const p = await expectProblem(await postJson(gw.url, body), 'missing-query-parameter', site, '/ask');
      expect(p.detail).toBe('`query` is required and must be a non-empty string.');
    }
    await expectProblem(await postJson(gw.url, { query: 'a', mode: 'poem' }), 'invalid-parameter', site);
    await expectProblem(await postJson(gw.url, { query: 'a', streaming: 'yes' }), 'invalid-parameter', site);
    await expectProblem(await postJson(gw.url, { query: 'a', prefer: { streaming: 1 } }), 'invalid-parameter', site);
  });

  it('413 for a body over the limit, announced or chunked', async () => {
    const big = JSON.stringify({ query: 'x'.repeat(70_000) });
    await expectProblem(await fetch(`${gw.url}/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }), 'payload-too-large', site, '/ask');
    const chunks = Array.from({ length: 20 }, () => new TextEncoder().encode('x'.repeat(5000)));
    const res = await postChunked(gw.url, '/ask', { 'content-type': 'application/json' }, chunks);
    await expectProblem(res, 'payload-too-large', site, '/ask');
  });

  it('a client that leaves mid-body costs nothing: the gateway keeps answering', async () => {
    const { hostname, port } = new URL(gw.url);
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(`POST /ask HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"sea`);
          setTimeout(() => socket.destroy(), 20 + 10 * i);
        });
        socket.on('close', () => resolve());
        socket.on('error', reject);
      });
    }
    const res = await postJson(gw.url, { query: 'search' });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});

describe('/ask as Server-Sent Events', () => {
  it('streams start, one result per result, complete (streaming=true)', async () => {
    const json = await askJson(await ask(gw.url, 'q=search%20the%20docs'));
    const res = await ask(gw.url, 'q=search%20the%20docs&streaming=true');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expectApiHeaders(res.headers);
    const s = checkStream(await readSse(res), 'list');
    expect(s.start.query).toBe('search the docs');
    expect(s.results.map((r) => r.url)).toEqual(json.results.map((r) => r.url));
    expect(s.text).toBe('');
    expect(s.answer).toBeUndefined();
    expect(s.complete._meta.answer_backend).toBeUndefined();
  });

  it('streams when any one of streaming=true, prefer.streaming or Accept asks for it', async () => {
    const res = await ask(gw.url, 'q=mcp', { headers: { accept: 'text/event-stream' } });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    checkStream(await readSse(res), 'list');
    const accepted = await ask(gw.url, 'q=mcp&streaming=false', { headers: { accept: 'text/event-stream' } });
    expect(accepted.headers.get('content-type')).toMatch(/^text\/event-stream/);
    checkStream(await readSse(accepted), 'list');
    const preferred = await postJson(gw.url, { query: 'mcp', streaming: false, prefer: { streaming: true } });
    expect(preferred.headers.get('content-type')).toMatch(/^text\/event-stream/);
    checkStream(await readSse(preferred), 'list');
    await askJson(await ask(gw.url, 'q=mcp&streaming=false'));
  });

  it('streams for POST with streaming: true, prefer.streaming: true or Accept', async () => {
    for (const [body, headers] of [
      [{ query: 'versioning', streaming: true }, {}],
      [{ query: { text: 'versioning' }, prefer: { streaming: true } }, {}],
      [{ query: 'versioning' }, { accept: 'text/event-stream' }],
    ] as const) {
      const res = await postJson(gw.url, body, headers);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      checkStream(await readSse(res), 'list');
    }
    const form = await fetch(`${gw.url}/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'query=versioning&prefer.streaming=true',
    });
    expect(form.headers.get('content-type')).toMatch(/^text\/event-stream/);
    checkStream(await readSse(form), 'list');
  });

  it('streams the generated text inside result events, then the answer, for summarize and generate', async () => {
    for (const mode of ['summarize', 'generate']) {
      const s = checkStream(await readSse(await ask(gw.url, `q=deprecation%20sunset&mode=${mode}&streaming=true`)), mode);
      expect(s.text).toMatch(/\S/);
      expect(s.answer?.answer).toBe(s.text);
      expect(s.answer!.citations.length).toBeGreaterThan(0);
      expect(s.complete._meta.answer_backend).toBe('extractive');
    }
  });

  it('sends a Problem, not a stream, for invalid requests', async () => {
    await expectProblem(await ask(gw.url, 'streaming=true', { headers: { accept: 'text/event-stream' } }), 'missing-query-parameter', site);
  });
});

describe('/ask with a model backend', () => {
  let llm: OpenAiServer;
  let modelGw: RunningGateway;
  let hangLlm: OpenAiServer;
  let slowGw: RunningGateway;

  beforeAll(async () => {
    llm = await startOpenAiServer({ pieces: FAKE_ANSWER });
    hangLlm = await startOpenAiServer({ mode: 'hang' });
    [modelGw, slowGw] = await Promise.all([
      startGateway(distDir, { ...roomyEnv, LLM_BASE_URL: llm.url, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '60000', LLM_RETRIES: '0' }),
      startGateway(distDir, { ...roomyEnv, LLM_BASE_URL: hangLlm.url, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '1000', LLM_CONNECT_TIMEOUT_MS: '500', LLM_RETRIES: '0' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([modelGw?.stop(), slowGw?.stop()]);
    await Promise.all([llm?.close(), hangLlm?.close()]);
  });

  it('answers from the model and says so in _meta', async () => {
    llm.setMode('ok');
    const body = await askJson(await ask(modelGw.url, 'q=install&mode=generate'));
    expect(body._meta.answer_backend).toBe('model');
    expect(body.answer).toContain(FAKE_ANSWER.join(''));
    const s = checkStream(await readSse(await ask(modelGw.url, 'q=install&mode=summarize&streaming=true')), 'summarize');
    expect(s.text).toContain(FAKE_ANSWER.join(''));
    expect(s.complete._meta.answer_backend).toBe('model');
    // List mode never calls the model.
    const before = llm.requests.length;
    await askJson(await ask(modelGw.url, 'q=install'));
    expect(llm.requests.length).toBe(before);
  });

  it('drops a citation the model made up (a number it was given no source for)', async () => {
    llm.setMode('ok', { pieces: ['Install it with npm [1', '][42]. ', 'See [7] too.'] });
    // A question of its own: the answer to `install` is cached from the test above (one model call per question and build).
    const body = await askJson(await ask(modelGw.url, 'q=install+it&mode=generate'));
    expect(body._meta.answer_backend).toBe('model');
    expect(body.answer!.startsWith('Install it with npm [1]. See too.')).toBe(true);
    expect(body.answer).not.toMatch(/\[(42|7)\]/);
    expect(body.answer).toMatch(/\n\[1\]: https?:\/\/\S+$/);
    expect(body.citations).toHaveLength(1);
    const prompt = llm.requests.at(-1)!.body.messages[0].content as string;
    const first = /^\[1\] .* \((\S+)\)$/m.exec(prompt)![1]!;
    expect(body.answer).toContain(`[1]: ${first}`);
    llm.setMode('ok');
  });

  it('falls back to the extractive answer when the model fails, and says why', async () => {
    llm.setMode('error');
    // a question not asked before: model answers are cached (ask-model-budget.test.ts)
    const body = await askJson(await ask(modelGw.url, 'q=install+when+the+model+fails&mode=generate'));
    expect(body._meta.answer_backend).toBe('extractive');
    expect(body._meta.fallback_reason).toMatch(/\S/);
    expect(body.answer).toMatch(/\S/);
    llm.setMode('ok');
  });

  it('falls back when the model is too slow', async () => {
    const body = await askJson(await ask(slowGw.url, 'q=install&mode=generate'));
    expect(body._meta.answer_backend).toBe('extractive');
    expect(body._meta.fallback_reason).toMatch(/\S/);
    const s = checkStream(await readSse(await ask(slowGw.url, 'q=install&mode=generate&streaming=true')), 'generate');
    expect(s.complete._meta.answer_backend).toBe('extractive');
    expect(s.answer?.answer).toMatch(/\S/);
  });

  it('stops the model call when the client disconnects', async () => {
    llm.setMode('trickle');
    const closedBefore = llm.closedEarly;
    const controller = new AbortController();
    const res = await ask(modelGw.url, 'q=install+and+disconnect&mode=generate&streaming=true', { signal: controller.signal });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!seen.includes('"type":"text"')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended before any text: ${seen}`);
      seen += value;
    }
    controller.abort();
    await reader.cancel().catch(() => {});
    // The gateway aborts its request to the model (whose own timeout is 60 s).
    for (let i = 0; i < 200 && llm.closedEarly === closedBefore; i++) await new Promise((r) => setTimeout(r, 50));
    expect(llm.closedEarly).toBe(closedBefore + 1);
    llm.setMode('ok');
  });
});
