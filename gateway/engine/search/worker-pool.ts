/**
 * The query workers: a fixed pool of worker threads, each holding the whole index (search-index.ts) over the same
 * shared segment buffers, and the request/reply protocol to them (worker.ts). A request goes to the least-busy live
 * worker; a worker that dies (out of memory, a crash) fails only its own in-flight requests and is replaced, the
 * index installed into the replacement.
 *
 * Why threads and not the main thread: a broad query on a big index takes tens of ms, which on the event loop would
 * stall every other route; why a pool of equals: any worker can answer any query (the index is shared, not
 * partitioned), so the least busy one does.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type SegmentFile, closeSegmentFile } from './index-file.ts';

/**
 * V8 heap caps of a query worker: the index, its page table included, lives in SharedArrayBuffers (outside the
 * heap); a worker's heap holds up to 1,024 decoded pages, memos of query-term variants and excerpt words, and one
 * query's transient strings (the body itself is built in an ArrayBuffer). Without a cap, V8 lets garbage grow to
 * hundreds of MB per worker before collecting. A worker that still runs out is replaced (its in-flight requests fail).
 * The cap sits well above what a worker keeps alive (≈20 MB): a cap close to the live set makes V8 run a full
 * collection every few hundred queries, each one a pause of every query queued on that worker (measurements on the
 * performance docs page).
 */
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 };

export function defaultWorkerCount(): number {
  return Math.max(2, Math.min(4, availableParallelism()));
}

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void }

const WORKER_URL = new URL('./worker.ts', import.meta.url);

export class WorkerPool {
  private readonly workers: { w: Worker; busy: number; dead: boolean }[] = [];
  private readonly pending = new Map<number, Pending & { slot: number }>();
  private nextId = 1;
  /** Where the least-busy search starts (round-robin among equals). */
  private nextSlot = 0;
  private closed = false;
  requests = 0;
  /** Set once the index is installed: used to re-install it into a replacement worker. */
  files: SegmentFile[] | undefined;

  constructor(n: number) {
    for (let k = 0; k < n; k++) this.workers.push(this.spawn(k));
  }

  get size(): number {
    return this.workers.length;
  }

  /** Worker threads (the same as size: every answerer is a thread; in-thread-pool.ts has none). */
  get threads(): number {
    return this.workers.length;
  }

  private spawn(slot: number): { w: Worker; busy: number; dead: boolean } {
    const w = new Worker(WORKER_URL, { name: `search-${slot}`, resourceLimits: WORKER_RESOURCE_LIMITS });
    const rec = { w, busy: 0, dead: false };
    w.on('message', (msg: { id: number; ok: boolean; result?: unknown; error?: { message: string; stack?: string } }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      this.done(rec);
      if (msg.ok) p.resolve(msg.result);
      else {
        const e = new Error(msg.error?.message ?? 'search worker error');
        if (msg.error?.stack) e.stack = msg.error.stack;
        p.reject(e);
      }
    });
    const fail = (err: Error) => {
      if (rec.dead) return;
      rec.dead = true;
      for (const [id, p] of this.pending) {
        if (p.slot !== slot || this.workers[slot] !== rec) continue;
        this.pending.delete(id);
        p.reject(err);
      }
      rec.busy = 0;
      if (!this.closed) this.replace(slot);
    };
    w.on('error', (err) => fail(err instanceof Error ? err : new Error(String(err))));
    w.on('exit', (code) => fail(new Error(`search worker exited with code ${code}`)));
    w.unref();
    return rec;
  }

  private replace(slot: number): void {
    const rec = this.spawn(slot);
    this.workers[slot] = rec;
    if (this.files) {
      this.send(slot, { op: 'install', files: this.files }).catch(() => {
        /* a failing replacement reports through its own 'error' handler */
      });
    }
  }

  private done(rec: { w: Worker; busy: number }): void {
    rec.busy = Math.max(0, rec.busy - 1);
    if (rec.busy === 0) rec.w.unref();
  }

  /** Send to a specific worker slot. */
  send<T>(slot: number, msg: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new Error('search engine is closed'));
    const rec = this.workers[slot]!;
    const id = this.nextId++;
    this.requests++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, slot });
      if (rec.busy++ === 0) rec.w.ref();
      rec.w.postMessage({ ...msg, id }, transfer);
    });
  }

  /** Send to the least-busy live worker (round-robin among equals). */
  run<T>(msg: Record<string, unknown>): Promise<T> {
    const n = this.workers.length;
    let best = -1;
    for (let j = 0; j < n; j++) {
      const k = (this.nextSlot + j) % n;
      const rec = this.workers[k]!;
      if (rec.dead) continue;
      if (best < 0 || rec.busy < this.workers[best]!.busy) best = k;
    }
    this.nextSlot = (this.nextSlot + 1) % n;
    if (best < 0) return Promise.reject(new Error('no search worker available'));
    return this.send<T>(best, msg);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new Error('search engine is closed'));
    }
    await Promise.all(this.workers.map((r) => ((r.dead = true), r.w.terminate())));
    for (const f of this.files ?? []) closeSegmentFile(f); // no worker reads them any more
  }
}

