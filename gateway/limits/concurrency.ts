// At most `max` of some async work under way at once; the rest waits its turn, in order.
// Why for file reads: the thread pool finishes small reads from the page cache far faster
// than the event loop comes around, so a burst of them (a cold batch of 50 × 20 twins)
// lands as thousands of completions in one loop turn — one long stall for every other
// request. Bounded, each turn handles at most `max` of them.

export type Limited = <T>(work: () => Promise<T>) => Promise<T>;

export function limitConcurrency(max: number): Limited {
  if (!Number.isInteger(max) || max < 1) throw new RangeError('limitConcurrency: max must be an integer >= 1');
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    running--;
    waiting.shift()?.();
  };
  return <T>(work: () => Promise<T>): Promise<T> => {
    const start = (): Promise<T> => {
      running++;
      let p: Promise<T>;
      try {
        p = work();
      } catch (err) {
        p = Promise.reject(err);
      }
      return p.finally(next);
    };
    if (running < max) return start();
    return new Promise<T>((resolve, reject) => waiting.push(() => start().then(resolve, reject)));
  };
}
