// limitConcurrency (gateway/limits/concurrency.ts): at most `max` of the work under way,
// the rest started in order as slots free up, failures passed through without losing a slot.
import { describe, expect, it } from 'vitest';
import { limitConcurrency } from '../../gateway/limits/concurrency.ts';

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('limitConcurrency', () => {
  it('runs at most max at once and starts the rest in order', async () => {
    const limited = limitConcurrency(2);
    const gates = Array.from({ length: 5 }, () => deferred<number>());
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const results = gates.map((g, i) =>
      limited(async () => {
        started.push(i);
        peak = Math.max(peak, ++running);
        try {
          return await g.promise;
        } finally {
          running--;
        }
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1]!.resolve(1);
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates.forEach((g, i) => g.resolve(i));
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it('passes failures through (thrown or rejected) and frees their slot', async () => {
    const limited = limitConcurrency(1);
    const a = limited(() => Promise.reject(new Error('rejected')));
    const b = limited(() => {
      throw new Error('thrown');
    });
    const c = limited(async () => 'ran');
    await expect(a).rejects.toThrow('rejected');
    await expect(b).rejects.toThrow('thrown');
    await expect(c).resolves.toBe('ran');
  });

  it('refuses a limit below 1', () => {
    expect(() => limitConcurrency(0)).toThrow(RangeError);
    expect(() => limitConcurrency(1.5)).toThrow(RangeError);
  });
});
