import { describe, expect, it } from 'vitest';
import { Lru } from '../../gateway/engine/lru.ts';

describe('Lru', () => {
  it('evicts the least recently used entry when over its count or its bytes', () => {
    const lru = new Lru<string>(2, 100);
    lru.set('a', 'A', 10);
    lru.set('b', 'B', 10);
    expect(lru.get('a')).toBe('A'); // a is now the most recent
    lru.set('c', 'C', 10);
    expect([lru.has('a'), lru.has('b'), lru.has('c')]).toEqual([true, false, true]);
    lru.set('d', 'D', 90);
    expect([lru.has('a'), lru.has('c'), lru.has('d')]).toEqual([false, true, true]);
    expect(lru.bytes).toBe(100);
  });

  it('counts an entry stored with counted: false in bytes only', () => {
    const lru = new Lru<string>(2, 100);
    lru.set('ranking 1', 'r1', 10);
    lru.set('body 1', 'b1', 40, false);
    lru.set('ranking 2', 'r2', 10);
    expect(lru.size).toBe(2); // two rankings; the body is not one
    expect([lru.has('ranking 1'), lru.has('body 1'), lru.has('ranking 2')]).toEqual([true, true, true]);
    lru.get('ranking 1');
    lru.set('body 2', 'b2', 50, false); // 110 bytes: the least recent entry, body 1, goes
    expect([lru.has('body 1'), lru.has('ranking 1'), lru.has('ranking 2'), lru.has('body 2')]).toEqual([false, true, true, true]);
    expect(lru.bytes).toBe(70);
    lru.delete('body 2');
    lru.set('ranking 3', 'r3', 10); // a third ranking: over the count, the least recent ranking goes
    expect([lru.has('ranking 2'), lru.has('ranking 1'), lru.has('ranking 3')]).toEqual([false, true, true]);
    expect(lru.size).toBe(2);
  });

  it('never keeps an entry larger than its bytes, and forgets everything on clear', () => {
    const lru = new Lru<string>(10, 50);
    lru.set('big', 'x', 51, false);
    expect(lru.has('big')).toBe(false);
    lru.set('a', 'A', 10);
    lru.set('b', 'B', 10, false);
    lru.clear();
    expect([lru.size, lru.bytes, lru.has('a')]).toEqual([0, 0, false]);
  });
});
