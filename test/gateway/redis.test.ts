// REDIS_URL: two gateway processes on one real redis-server share one budget per
// client and endpoint. Without redis-server: a loud skip locally, a failure in CI.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary, startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { fixtureBuild } from '../helpers/manifest.ts';
import { REDIS_BIN, startRedis, type RunningRedis } from '../helpers/redis.ts';
import { expectProblem, expectRateLimitHeaders } from './helpers.ts';

const { distDir, site } = fixtureBuild();
const MAX = 6;
const haveRedis = requireBinary(REDIS_BIN, 'redis-server');

describe.skipIf(!haveRedis)('rate limits shared through Redis', () => {
  let redis: RunningRedis;
  let redisUrl: string;
  let a: RunningGateway;
  let b: RunningGateway;

  beforeAll(async () => {
    redis = await startRedis();
    redisUrl = redis.url;
    const env = { REDIS_URL: redisUrl, RATE_LIMIT_MAX: String(MAX), SEARCH_WORKERS: '1', ASSISTANT_ENABLED: 'false' };
    a = await startGateway(distDir, env); // one after the other: two cold starts at once on a busy machine are slow
    b = await startGateway(distDir, env);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  it('both processes count against one budget per endpoint', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < MAX; i++) {
      const gw = i % 2 === 0 ? a : b;
      const res = await fetch(`${gw.url}/api/search?query=install`);
      expect(res.status).toBe(200);
      expectRateLimitHeaders(res.headers, MAX);
      remaining.push(res.headers.get('ratelimit-remaining')!);
      await res.arrayBuffer();
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    for (const gw of [a, b]) {
      const over = await fetch(`${gw.url}/api/v1/search?query=install`);
      await expectProblem(over, 'too-many-requests', site);
      expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    // Another endpoint still has its budget on both.
    expect((await fetch(`${b.url}/ask?q=install`)).headers.get('ratelimit-remaining')).toBe(String(MAX - 1));
    expect((await fetch(`${a.url}/ask?q=install`)).headers.get('ratelimit-remaining')).toBe(String(MAX - 2));
  });

  it('keeps the counters in Redis with an expiry', async () => {
    const client = new Redis(redisUrl);
    const keys = await client.keys('rl:docs*');
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(await client.pttl(k)).toBeGreaterThan(0);
    client.disconnect();
  });
});
