/**
 * Search worker thread: answers the query protocol (query-ops.ts) for the pool (worker-pool.ts), plus
 *   flushCompileCache {} → true (writes this thread's part of Node's compile cache: the build's warm-up,
 *                               gateway/compile-cache.ts; a terminated worker writes nothing)
 * Requests carry an `id`; replies: { id, ok: true, result } | { id, ok: false, error: { message, stack } }, the
 * reply's buffers transferred, not copied.
 */
import { flushCompileCache } from 'node:module';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { type QueryRequest, type QueryState, answerQuery } from './query-ops.ts';

/** Niceness of a query thread (0 normal … 19 lowest). */
const QUERY_THREAD_NICE = 10;

const state: QueryState = {};

// Below the event loop: on Linux a thread's nice value is its own, so this lowers only this query thread. With
// more busy threads than cores, the main thread (cached answers, static files, every other route) then gets the
// CPU first and a long query waits instead of stalling it. Best effort: not every platform allows it.
try {
  setPriority(QUERY_THREAD_NICE);
} catch {
  /* keep the default priority */
}

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');

port.on('message', (req: (QueryRequest | { op: 'flushCompileCache' }) & { id: number }) => {
  try {
    if (req.op === 'flushCompileCache') {
      flushCompileCache();
      port.postMessage({ id: req.id, ok: true, result: true });
      return;
    }
    const { result, transfer } = answerQuery(state, req);
    port.postMessage({ id: req.id, ok: true, result }, transfer);
  } catch (err) {
    const e = err as Error;
    port.postMessage({ id: req.id, ok: false, error: { message: e?.message ?? String(err), stack: e?.stack } });
  }
});
