// Fixed-window request counters, shared by the docs and assistant apps.
// Memory by default; with a Redis URL all gateway instances share one budget.
import { createMemoryCounter } from './memory.ts';
import { createRedisCounter } from './redis.ts';

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
  /** Key namespace, e.g. `docs` or `assistant`. */
  prefix: string;
}

export function createLimitStore(opts: LimitStoreOptions): LimitStore {
  return opts.redisUrl ? createRedisCounter({ ...opts, redisUrl: opts.redisUrl }) : createMemoryCounter(opts);
}
