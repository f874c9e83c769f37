// Redis-backed counters (rate-limiter-flexible + ioredis): every gateway instance
// pointing at the same Redis shares one budget per client and endpoint. While Redis
// is unreachable each instance counts in memory instead of failing requests.
import { Redis } from 'ioredis';
import rlf from 'rate-limiter-flexible';
import type { LimitResult, LimitStore } from './types.ts';

const { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } = rlf;

const READY_TIMEOUT_MS = 5000;

export function createRedisCounter(opts: { max: number; windowSeconds: number; prefix: string; redisUrl: string }): LimitStore {
  const client = new Redis(opts.redisUrl, {
    // Fail fast to the in-memory fallback instead of queueing requests behind a dead connection.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let healthy = false;
  client.on('ready', () => {
    if (!healthy) console.log(`[limits] ${opts.prefix}: Redis connected; rate-limit counters are shared`);
    healthy = true;
  });
  client.on('error', (err: Error) => {
    if (healthy) console.warn(`[limits] ${opts.prefix}: Redis unavailable (${err.message}); counting in memory until it is back`);
    healthy = false;
  });

  const limiter = new RateLimiterRedis({
    storeClient: client,
    keyPrefix: `rl:${opts.prefix}`,
    points: opts.max,
    duration: opts.windowSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: `rl:${opts.prefix}`, points: opts.max, duration: opts.windowSeconds }),
  });

  const toResult = (res: InstanceType<typeof RateLimiterRes>, allowed: boolean): LimitResult => ({
    allowed,
    limit: opts.max,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  });

  const ready = new Promise<void>((resolve) => {
    if (client.status === 'ready') return resolve();
    const timer = setTimeout(() => {
      console.warn(`[limits] ${opts.prefix}: Redis not reachable after ${READY_TIMEOUT_MS} ms; counting in memory until it is`);
      resolve();
    }, READY_TIMEOUT_MS);
    timer.unref();
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });

  return {
    kind: 'redis',
    ready: () => ready,
    async consume(key) {
      try {
        return toResult(await limiter.consume(key), true);
      } catch (err) {
        if (err instanceof RateLimiterRes) return toResult(err, false);
        throw err;
      }
    },
    async close() {
      if (client.status === 'end') return;
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}
