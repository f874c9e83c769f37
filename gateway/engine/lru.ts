/**
 * A memo of a pure function that forgets everything when it reaches `limit` entries. For hot lookups of small values
 * (hit ids, fingerprints, expansions, rendered fragments) where the inputs that repeat come back soon: the LRU below
 * moves an entry on every hit, which costs more than recomputing the few values a clear drops.
 */
export class BoundedMemo<K, V> extends Map<K, V> {
  readonly limit: number;

  constructor(limit: number) {
    super();
    this.limit = limit;
  }

  /** Stores `value` for `key` (clearing the memo first when it is full) and returns it. */
  remember(key: K, value: V): V {
    if (this.size >= this.limit) this.clear();
    this.set(key, value);
    return value;
  }
}

/**
 * A small LRU bounded by entry count and by an estimated byte size (Map insertion order = recency). An entry stored
 * with `counted: false` weighs only in bytes: a part of another entry that has a recency of its own (a search
 * answer's serialized bytes beside its ranking), so the count keeps meaning what it bounds.
 */
export class Lru<V> {
  private readonly map = new Map<string, { v: V; bytes: number; counted: boolean }>();
  private total = 0;
  private counted = 0;
  readonly maxEntries: number;
  readonly maxBytes: number;
  hits = 0;
  misses = 0;

  constructor(maxEntries: number, maxBytes = Number.POSITIVE_INFINITY) {
    this.maxEntries = Math.max(0, Math.floor(maxEntries));
    this.maxBytes = maxBytes;
  }

  /** Entries that count toward maxEntries. */
  get size(): number {
    return this.counted;
  }

  get bytes(): number {
    return this.total;
  }

  /** The entry, now the most recent; `count: false` keeps the lookup out of hits and misses (a part looked up beside its whole). */
  get(key: string, count = true): V | undefined {
    const e = this.map.get(key);
    if (!e) {
      if (count) this.misses++;
      return undefined;
    }
    if (count) this.hits++;
    this.map.delete(key);
    this.map.set(key, e);
    return e.v;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  set(key: string, v: V, bytes: number, counted = true): void {
    if (this.maxEntries === 0 || bytes > this.maxBytes) {
      this.delete(key);
      return;
    }
    this.delete(key);
    this.map.set(key, { v, bytes, counted });
    this.total += bytes;
    if (counted) this.counted++;
    this.evict();
  }

  /** Updates the byte size of an entry that grew (no recency change); ignored when the key was evicted. */
  resize(key: string, bytes: number): void {
    const e = this.map.get(key);
    if (!e) return;
    this.total += bytes - e.bytes;
    e.bytes = bytes;
    this.evict(key);
  }

  delete(key: string): void {
    const e = this.map.get(key);
    if (!e) return;
    this.total -= e.bytes;
    if (e.counted) this.counted--;
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
    this.counted = 0;
  }

  private evict(keep?: string): void {
    for (const [k, e] of this.map) {
      if (this.counted <= this.maxEntries && this.total <= this.maxBytes) break;
      if (k === keep && this.map.size === 1) break;
      if (k === keep) continue;
      this.delete(k);
    }
    if (keep !== undefined && this.total > this.maxBytes) this.delete(keep);
  }
}
