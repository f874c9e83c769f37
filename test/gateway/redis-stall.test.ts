// A Redis that stops answering (SIGSTOP: the connection stays open, nothing comes
// back) must not stall requests: each command has REDIS_TIMEOUT_MS, after which the
// instance counts in memory (one log line), and once Redis answers again (SIGCONT)
// the instances share one budget again (one more log line).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary, startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { fixtureBuild } from '../helpers/manifest.ts';
import { useOpenAiServer } from '../helpers/openai-server.ts';
import { REDIS_BIN, startRedis, type RunningRedis } from '../helpers/redis.ts';

const { distDir } = fixtureBuild();
const haveRedis = requireBinary(REDIS_BIN, 'redis-server');

const remaining = async (url: string, init?: RequestInit): Promise<number> => {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  expect(res.status, url).toBe(200);
  return Number(res.headers.get('ratelimit-remaining') ?? res.headers.get('x-ratelimit-remaining'));
};

const count = (text: string, pattern: RegExp) => text.split('\n').filter((l) => pattern.test(l)).length;

describe.skipIf(!haveRedis)('a hung Redis (SIGSTOP)', () => {
  const model = useOpenAiServer();
  let redis: RunningRedis;
  let a: RunningGateway;
  let b: RunningGateway;

  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '200', RATE_LIMIT_MAX: '1000', ASSISTANT_RATE_LIMIT_MAX: '1000', SEARCH_WORKERS: '1', LLM_BASE_URL: model.url, LLM_MODEL: 'fake', LLM_RETRIES: '0' };
    [a, b] = await Promise.all([startGateway(distDir, env), startGateway(distDir, env)]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  it('keeps answering health, search, ask and the assistant while Redis is stopped, then shares the budget again', async () => {
    const openapi = (gw: RunningGateway) => remaining(`${gw.url}/api/openapi`);
    // Shared: the two instances count one budget.
    const first = await openapi(a);
    expect(await openapi(b)).toBe(first - 1);

    redis.process.kill('SIGSTOP');
    try {
      for (let round = 0; round < 3; round++) {
        for (const gw of [a, b]) {
          await remaining(`${gw.url}/api/health`);
          await remaining(`${gw.url}/api/search?query=install`);
          await remaining(`${gw.url}/ask?q=install`);
          await remaining(`${gw.url}/api/jobs/nope`).catch(() => {}); // a 404 is an answer too
          await remaining(`${gw.assistantUrl}/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'What is this site about?' }) });
        }
      }
    } finally {
      redis.process.kill('SIGCONT');
    }
    // One line per store and transition, not one per request: each switch to memory but the last is followed by a
    // switch back (a command over REDIS_TIMEOUT_MS on a loaded machine before the stop is a transition too).
    for (const gw of [a, b]) {
      for (const store of ['docs', 'assistant']) {
        const toMemory = count(gw.output(), new RegExp(`\\[limits\\] ${store}: Redis .*counting in memory`));
        const back = count(gw.output(), new RegExp(`\\[limits\\] ${store}: Redis answers again`));
        expect(toMemory).toBeGreaterThanOrEqual(1);
        expect(toMemory).toBeLessThanOrEqual(back + 1);
        expect(toMemory).toBeLessThanOrEqual(3);
      }
    }

    // Back to one budget: a, b, a count down one shared counter (polled until the probe has seen Redis answer).
    let shared = false;
    for (let i = 0; i < 100 && !shared; i++) {
      const x = await openapi(a);
      const y = await openapi(b);
      const z = await openapi(a);
      shared = y === x - 1 && z === y - 1;
      if (!shared) await new Promise((r) => setTimeout(r, 100));
    }
    expect(shared).toBe(true);
    for (const gw of [a, b]) expect(count(gw.output(), /\[limits\] docs: Redis answers again/)).toBe(1);
  }, 60_000);
});
