// Redis-backed counters (rate-limiter-flexible + ioredis): every gateway instance
// pointing at the same Redis shares one budget per client and endpoint.
// Redis is never waited on for long: every command has a timeout (REDIS_TIMEOUT_MS),
// and a refused connection, a dropped one or a silent one (a stopped or overloaded
// server that keeps the socket open) switch this instance to its in-process counter
// (fail open) — one log line per switch, not per request. While counting in memory
// no request touches Redis; a probe (PING) once a second decides when Redis answers
// again, and then the shared budget resumes.
import { Redis } from 'ioredis';
import rlf from 'rate-limiter-flexible';
import { createMemoryCounter } from './memory.ts';
import type { LimitResult, LimitStore } from './types.ts';

const { RateLimiterRedis, RateLimiterRes } = rlf;

const READY_TIMEOUT_MS = 5000;
const PROBE_INTERVAL_MS = 1000;

export function createRedisCounter(opts: { max: number; windowSeconds: number; prefix: string; redisUrl: string; timeoutMs: number }): LimitStore {
  const client = new Redis(opts.redisUrl, {
    // Fail fast instead of queueing requests behind a dead or silent connection.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: opts.timeoutMs,
    connectTimeout: Math.max(opts.timeoutMs, 1000),
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  const memory = createMemoryCounter(opts);

  // shared: counting in Redis; otherwise in memory. Starts in memory, silently, until the first `ready`.
  let shared = false;
  let announced = false;
  let closing = false;
  function switchTo(next: boolean, reason: string): void {
    if (next === shared || closing) return;
    shared = next;
    if (next) console.log(`[limits] ${opts.prefix}: ${announced ? 'Redis answers again' : 'Redis connected'}; rate-limit counters are shared`);
    else console.warn(`[limits] ${opts.prefix}: Redis unavailable (${reason}); counting in memory until it answers again`);
    announced = true;
  }
  client.on('ready', () => switchTo(true, ''));
  client.on('error', (err: Error) => switchTo(false, err.message));
  client.on('close', () => switchTo(false, 'connection closed'));

  // A connection that stays open but does not answer gets no `ready` after it recovers: ask it.
  let probing = false;
  const probe = setInterval(() => {
    if (shared || probing || client.status !== 'ready') return;
    probing = true;
    client
      .ping()
      .then(() => switchTo(true, ''))
      .catch(() => {})
      .finally(() => (probing = false));
  }, PROBE_INTERVAL_MS);
  probe.unref();

  const limiter = new RateLimiterRedis({
    storeClient: client,
    keyPrefix: `rl:${opts.prefix}`,
    points: opts.max,
    duration: opts.windowSeconds,
    rejectIfRedisNotReady: true,
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
      if (!announced) console.warn(`[limits] ${opts.prefix}: Redis not reachable after ${READY_TIMEOUT_MS} ms; counting in memory until it is`);
      announced = true;
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
      if (!shared) return memory.consume(key);
      try {
        return toResult(await limiter.consume(key), true);
      } catch (err) {
        if (err instanceof RateLimiterRes) return toResult(err, false);
        switchTo(false, (err as Error)?.message ?? String(err));
        return memory.consume(key);
      }
    },
    async close() {
      closing = true;
      clearInterval(probe);
      await memory.close();
      if (client.status === 'end') return;
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}
