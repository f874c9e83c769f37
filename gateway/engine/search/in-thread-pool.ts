/**
 * The query pool of a small index: the query protocol (query-ops.ts) answered on the calling thread, with the
 * worker pool's surface (worker-pool.ts), so the engine does not know which it has.
 *
 * Why: a query worker costs a thread, its own V8 heap and ≈0.3–0.45 s of CPU to boot (module loading), paid at every
 * start while the main index loads. An index of a few pages (the assistant's portfolio) answers any query in well
 * under a millisecond; a bigger one needs its queries off the event loop (IN_THREAD_MAX_PAGES, engine.ts).
 */
import { type SegmentFile, closeSegmentFile } from './index-file.ts';
import { type QueryRequest, type QueryState, answerQuery } from './query-ops.ts';

export class InThreadPool {
  /** One answerer: this thread. */
  readonly size = 1;
  readonly threads = 0;
  requests = 0;
  files: SegmentFile[] | undefined;
  private readonly state: QueryState = {};
  private closed = false;

  send<T>(_slot: number, msg: Record<string, unknown>): Promise<T> {
    return this.run<T>(msg);
  }

  run<T>(msg: Record<string, unknown>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('search engine is closed'));
    this.requests++;
    // after the caller's synchronous part, as a worker's reply would come
    return Promise.resolve().then(() => answerQuery(this.state, msg as unknown as QueryRequest).result as T);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const f of this.files ?? []) closeSegmentFile(f);
  }
}
