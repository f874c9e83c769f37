// A response body made of Buffers, written to the Node response one after another
// (corked: one writev) instead of concatenated: a batch answer is ≈120 KB, and a
// fresh Buffer of that size per response is memory outside the V8 heap whose
// growth (≈300 MB/s under load) forced a full GC every ≈200 ms.
import type { Writable } from 'node:stream';

/**
 * srvx's FastResponse hands a body with a `pipe` method (and no `on`) the Node response
 * after writing the head; only valid as a FastResponse body (never read as a web stream).
 */
export class BufferPieces {
  readonly pieces: readonly Buffer[];
  readonly length: number;
  constructor(pieces: readonly Buffer[]) {
    this.pieces = pieces;
    let n = 0;
    for (const p of pieces) n += p.length;
    this.length = n;
  }

  pipe<T extends Writable>(dest: T): T {
    dest.cork();
    for (const p of this.pieces) dest.write(p);
    dest.end(); // flushes the corked writes
    return dest;
  }

  /** The whole body as one Buffer (tests, or a consumer that is not the Node adapter). */
  toBuffer(): Buffer {
    return Buffer.concat(this.pieces as Buffer[], this.length);
  }
}
