// 10 requests per IP per minute (ASSISTANT_RATE_LIMIT_MAX / _WINDOW_S), shared by
// POST /api/chat, POST /ask and MCP tool calls, with X-RateLimit-* on EVERY response.
// Requests that do not count (pages, discovery files, errors before routing) report
// the client's last known counter without consuming it: the shared LimitStore has
// no read-only peek, so this instance remembers what it last saw per client.
import { createLimitStore, type LimitResult, type LimitStore } from '../limits/store.ts';
import { AssistantError } from './errors.ts';

export interface RateState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface AssistantLimiter {
  /** Counts one request; throws 429 `rate_limited` (with Retry-After and X-RateLimit-*) when over the limit. */
  consume(ip: string): Promise<RateState>;
  /** The client's current state without counting a request. */
  peek(ip: string): RateState;
  readonly store: LimitStore;
  close(): Promise<void>;
}

const MAX_REMEMBERED = 50_000;

export function rateLimitHeaders(s: RateState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(s.limit),
    'X-RateLimit-Remaining': String(s.remaining),
    'X-RateLimit-Reset': String(s.resetSeconds),
  };
}

export function createAssistantLimiter(opts: { max: number; windowSeconds: number; redisUrl?: string; redisTimeoutMs?: number }): AssistantLimiter {
  const store = createLimitStore({ ...opts, prefix: 'assistant' });
  const window = opts.windowSeconds === 60 ? 'minute' : `${opts.windowSeconds} s`;
  const seen = new Map<string, { remaining: number; resetAt: number }>();

  const remember = (ip: string, r: LimitResult) => {
    if (seen.size >= MAX_REMEMBERED) {
      const now = Date.now();
      for (const [k, v] of seen) if (v.resetAt <= now) seen.delete(k);
      if (seen.size >= MAX_REMEMBERED) seen.clear();
    }
    seen.set(ip, { remaining: r.remaining, resetAt: Date.now() + r.resetSeconds * 1000 });
  };

  return {
    store,
    async consume(ip) {
      const r = await store.consume(ip);
      remember(ip, r);
      const state = { limit: r.limit, remaining: r.remaining, resetSeconds: r.resetSeconds };
      if (!r.allowed) {
        throw new AssistantError(
          'rate_limited',
          `Too many requests: at most ${r.limit} per ${window} from one IP address. Retry after ${r.resetSeconds} s.`,
          { ...rateLimitHeaders(state), 'Retry-After': String(Math.max(1, r.resetSeconds)) },
        );
      }
      return state;
    },
    peek(ip) {
      const now = Date.now();
      const s = seen.get(ip);
      if (!s || s.resetAt <= now) return { limit: opts.max, remaining: opts.max, resetSeconds: opts.windowSeconds };
      return { limit: opts.max, remaining: s.remaining, resetSeconds: Math.max(1, Math.ceil((s.resetAt - now) / 1000)) };
    },
    close: () => store.close(),
  };
}
