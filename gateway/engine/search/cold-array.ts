/**
 * A large array of the search index that queries read only a small part of (page texts for ≤ 20 excerpts, the
 * section postings of the query's terms). A build holds it in memory; a loaded index leaves it in its segment file
 * and reads the parts a query needs with pread: the OS page cache keeps the file, not the gateway's own memory.
 */
import { readSync } from 'node:fs';

export type ColdElements = Uint8Array | Uint16Array | Int32Array;

export interface ColdArray<T extends ColdElements> {
  readonly length: number;
  /** The array itself while in memory (an index being built, a test); undefined when it stays in the file. */
  readonly memory: T | undefined;
  /** Copies elements [from, to) into `into`, starting at element `at`. */
  read(from: number, to: number, into: T, at: number): void;
}

export function inMemory<T extends ColdElements>(a: T): ColdArray<T> {
  return {
    length: a.length,
    memory: a,
    read(from, to, into, at) {
      into.set(a.subarray(from, to) as never, at);
    },
  };
}

/** Elements of `bytesPer` bytes at byte `offset` of the open file `fd` (kept open by whoever loaded the index). */
export function inFile<T extends ColdElements>(fd: number, offset: number, length: number, bytesPer: number): ColdArray<T> {
  return {
    length,
    memory: undefined,
    read(from, to, into, at) {
      if (from < 0 || to > length || from > to) throw new RangeError(`search index: read [${from}, ${to}) of ${length}`);
      const dst = new Uint8Array(into.buffer, into.byteOffset + at * bytesPer, (to - from) * bytesPer);
      let got = 0;
      while (got < dst.length) {
        const n = readSync(fd, dst, got, dst.length - got, offset + from * bytesPer + got);
        if (n <= 0) throw new Error('search index: short read of its segment file');
        got += n;
      }
    },
  };
}
