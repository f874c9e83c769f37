// The shapes of a request counter, apart from the factory (store.ts) that picks one, so
// that the counters (memory.ts, redis.ts) and the factory import them without a cycle.

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
