/**
 * A typed array that doubles when full: the index builders' postings and word tables, whose sizes are known only
 * at the end. Typed rather than a plain array so millions of entries cost 4 bytes each, not a boxed number.
 */
export class GrowableArray<T extends Int32Array | Uint32Array | Float32Array> {
  array: T;
  size = 0;
  private readonly make: (n: number) => T;
  constructor(make: (n: number) => T, initial = 4096) {
    this.make = make;
    this.array = make(initial);
  }
  push(v: number): void {
    if (this.size === this.array.length) {
      const b = this.make(this.array.length * 2);
      b.set(this.array);
      this.array = b;
    }
    this.array[this.size++] = v;
  }
}
