// The docs /ask model answers: an answer cache (identical questions → one model call)
// and a per-client model budget (ASK_MODEL_RATE_LIMIT_MAX, default 10 a minute) that
// only requests reaching the model spend. Over budget the answer is extractive,
// marked in `_meta.fallback_reason` and, on JSON, in `X-Model-Budget`. The MCP `ask`
// tool and SSE go through the same budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { fixtureBuild } from '../helpers/manifest.ts';
import { useOpenAiServer } from '../helpers/openai-server.ts';
import { readSse } from './helpers.ts';

const { distDir } = fixtureBuild();

interface AskBody {
  answer?: string;
  _meta: { answer_backend?: string; fallback_reason?: string };
}

describe('docs /ask with a model', () => {
  const model = useOpenAiServer({ pieces: ['The fixture ', 'answer [1].'] });
  let gw: RunningGateway;
  // after the model server's own beforeAll: its url is known from then on
  beforeAll(async () => {
    const env = { RATE_LIMIT_MAX: '100000', TRUST_PROXY: '1', SEARCH_WORKERS: '1', ASSISTANT_ENABLED: 'false', LLM_BASE_URL: model.url, LLM_MODEL: 'fake', LLM_RETRIES: '0' };
    gw = await startGateway(distDir, env);
  });
  afterAll(() => gw?.stop());
  const from = (ip: string, extra: Record<string, string> = {}) => ({ headers: { 'x-forwarded-for': ip, ...extra } });
  const ask = async (query: string, ip: string, mode = 'generate') => {
    const res = await fetch(`${gw.url}/ask?mode=${mode}&q=${encodeURIComponent(query)}`, from(ip));
    expect(res.status).toBe(200);
    return { res, body: (await res.json()) as AskBody };
  };

  it('answers three identical questions (up to case, spacing and the question mark) with one model call', async () => {
    const answers = [await ask('How do I install it?', '198.51.100.1'), await ask('how do  I INSTALL it', '198.51.100.2'), await ask('How do I install it?', '198.51.100.3')];
    expect(model.requests.length).toBe(1);
    for (const { res, body } of answers) {
      expect(body._meta.answer_backend).toBe('model');
      expect(body.answer).toContain('The fixture answer [1].');
      expect(res.headers.get('x-model-budget')).toBeNull();
    }
    // summarize is another question
    await ask('How do I install it?', '198.51.100.1', 'summarize');
    expect(model.requests.length).toBe(2);
  });

  it('limits one address to 10 model answers a minute; the 11th is extractive and says why', async () => {
    const ip = '198.51.100.20';
    for (let i = 1; i <= 10; i++) {
      const { body } = await ask(`configure search workers ${i}`, ip);
      expect(body._meta.answer_backend, `question ${i}`).toBe('model');
    }
    expect(model.requests.length).toBe(10);
    const { res, body } = await ask('configure search workers 11', ip);
    expect(model.requests.length).toBe(10);
    expect(body._meta.answer_backend).toBe('extractive');
    expect(body._meta.fallback_reason).toMatch(/^model budget spent: .*retry in \d+ s/);
    expect(res.headers.get('x-model-budget')).toMatch(/^spent; retry-after=[1-9]\d*$/);
    expect(body.answer).toMatch(/\S/);

    // What does not reach the model spends nothing: a cached answer and list mode still work for this address.
    expect((await ask('configure search workers 3', ip)).body._meta.answer_backend).toBe('model');
    expect((await ask('anything else', ip, 'list')).res.headers.get('x-model-budget')).toBeNull();
    // Another address has its own budget.
    expect((await ask('configure search workers 11', '198.51.100.21')).body._meta.answer_backend).toBe('model');
    expect(model.requests.length).toBe(11);

    // SSE and the MCP ask tool go through the same budget.
    const sse = await fetch(`${gw.url}/ask?mode=generate&streaming=true&q=${encodeURIComponent('a streamed question')}`, from(ip));
    const complete = (await readSse(sse)).find((e) => e.event === 'complete')!.data as AskBody;
    expect(complete._meta.fallback_reason).toMatch(/^model budget spent/);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: { query: 'a question over MCP', mode: 'generate' } } };
    const mcp = await fetch(`${gw.url}/api/mcp`, { method: 'POST', body: JSON.stringify(call), ...from(ip, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }) });
    const text = await mcp.text();
    expect(mcp.status, text).toBe(200);
    expect(text).toContain('model budget spent');
    expect(model.requests.length).toBe(11);
  });
});
