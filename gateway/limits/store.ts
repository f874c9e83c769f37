// Fixed-window request counters, shared by the docs and assistant apps.
// Memory by default; with a Redis URL all gateway instances share one budget
// (and each falls back to memory while Redis does not answer: redis.ts).
import { createMemoryCounter } from './memory.ts';
import type { LimitStore, LimitStoreOptions } from './types.ts';

export type { LimitResult, LimitStore, LimitStoreOptions } from './types.ts';

const DEFAULT_REDIS_TIMEOUT_MS = 250;

export function createLimitStore(opts: LimitStoreOptions): LimitStore {
  const redisUrl = opts.redisUrl;
  if (!redisUrl) return createMemoryCounter(opts);
  // ioredis and rate-limiter-flexible are loaded only when Redis is configured: ≈90 ms of every start otherwise
  const store = import('./redis.ts').then((m) => m.createRedisCounter({ ...opts, redisUrl, timeoutMs: opts.redisTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS }));
  return {
    kind: 'redis',
    ready: () => store.then((s) => s.ready()),
    consume: (key) => store.then((s) => s.consume(key)),
    close: () => store.then((s) => s.close()),
  };
}
