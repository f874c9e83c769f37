import { mkdtempSync, rmSync, truncateSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inFile, inMemory } from '../../gateway/engine/search/cold-array.ts';

const dir = mkdtempSync(join(tmpdir(), 'cold-array-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cold arrays', () => {
  const values = Int32Array.from({ length: 1000 }, (_, k) => k * 7 - 300);
  const file = join(dir, 'a.bin');
  const prefix = 24; // the array at a byte offset inside the file, as in a segment file
  writeFileSync(file, Buffer.concat([Buffer.alloc(prefix, 0xff), Buffer.from(values.buffer)]));

  it('reads element ranges from a file at any destination offset, as the in-memory array does', () => {
    const fd = openSync(file, 'r');
    try {
      const disk = inFile<Int32Array>(fd, prefix, values.length, 4);
      const ram = inMemory(values);
      expect(disk.memory).toBeUndefined();
      expect(ram.memory).toBe(values);
      for (const [from, to, at] of [[0, 1000, 0], [10, 20, 5], [999, 1000, 3], [500, 500, 0]] as const) {
        const a = new Int32Array(1100).fill(1);
        const b = new Int32Array(1100).fill(1);
        disk.read(from, to, a, at);
        ram.read(from, to, b, at);
        expect(a).toEqual(b);
        expect(Array.from(a.subarray(at, at + to - from))).toEqual(Array.from(values.subarray(from, to)));
      }
    } finally {
      closeSync(fd);
    }
  });

  it('refuses a range outside the array and reports a file cut short instead of returning stale bytes', () => {
    const copy = join(dir, 'b.bin');
    writeFileSync(copy, Buffer.concat([Buffer.alloc(prefix), Buffer.from(values.buffer)]));
    const fd = openSync(copy, 'r');
    try {
      const disk = inFile<Int32Array>(fd, prefix, values.length, 4);
      expect(() => disk.read(990, 1001, new Int32Array(20), 0)).toThrow(RangeError);
      expect(() => disk.read(-1, 2, new Int32Array(20), 0)).toThrow(RangeError);
      truncateSync(copy, prefix + 400);
      expect(() => disk.read(0, 1000, new Int32Array(1000), 0)).toThrow(/short read/);
    } finally {
      closeSync(fd);
    }
  });
});
