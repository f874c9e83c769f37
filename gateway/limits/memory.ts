// In-process fixed-window counters: one Map lookup per request, swept once a window.
import type { LimitStore, LimitResult } from './types.ts';

interface Window {
  count: number;
  resetAt: number;
}

export function createMemoryCounter(opts: { max: number; windowSeconds: number; prefix: string }): LimitStore {
  const windowMs = opts.windowSeconds * 1000;
  const windows = new Map<string, Window>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  }, windowMs);
  sweep.unref();

  function consumeSync(key: string): LimitResult {
    const now = Date.now();
    let w = windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      windows.set(key, w);
    }
    w.count++;
    return {
      allowed: w.count <= opts.max,
      limit: opts.max,
      remaining: Math.max(0, opts.max - w.count),
      resetSeconds: Math.max(1, Math.ceil((w.resetAt - now) / 1000)),
    };
  }

  return {
    kind: 'memory',
    consume: (key) => Promise.resolve(consumeSync(`${opts.prefix}:${key}`)),
    ready: () => Promise.resolve(),
    close: async () => {
      clearInterval(sweep);
      windows.clear();
    },
  };
}
