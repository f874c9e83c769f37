// Fixed-window request counters, shared by the docs and assistant apps.
// Memory by default; with a Redis URL all gateway instances share one budget
// (and each falls back to memory while Redis does not answer: redis.ts).
import { createMemoryCounter } from './memory.ts';

export interface LimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (at least 1 while a window is open). */
  resetSeconds: number;
}

export interface LimitStore {
  consume(key: string): Promise<LimitResult>;
  close(): Promise<void>;
  /** Resolves once the store is usable (Redis connected, or given up and fell back to memory). */
  ready(): Promise<void>;
  readonly kind: 'memory' | 'redis';
}

export interface LimitStoreOptions {
  max: number;
  windowSeconds: number;
  redisUrl?: string;
  /** How long a Redis command may take before this instance counts in memory (REDIS_TIMEOUT_MS). */
  redisTimeoutMs?: number;
  /** Key namespace, e.g. `docs` or `assistant`. */
  prefix: string;
}

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
