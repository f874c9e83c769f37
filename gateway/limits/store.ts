// Fixed-window request counters, shared by the docs and assistant apps.
// Memory by default; with a Redis URL all gateway instances share one budget.
import { createMemoryCounter } from './memory.ts';
import type { LimitStore, LimitStoreOptions } from './types.ts';

export type { LimitResult, LimitStore, LimitStoreOptions } from './types.ts';

export function createLimitStore(opts: LimitStoreOptions): LimitStore {
  const redisUrl = opts.redisUrl;
  if (!redisUrl) return createMemoryCounter(opts);
  // ioredis and rate-limiter-flexible are loaded only when Redis is configured: ≈90 ms of every start otherwise
  const store = import('./redis.ts').then((m) => m.createRedisCounter({ ...opts, redisUrl }));
  return {
    kind: 'redis',
    ready: () => store.then((s) => s.ready()),
    consume: (key) => store.then((s) => s.consume(key)),
    close: () => store.then((s) => s.close()),
  };
}
