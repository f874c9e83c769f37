// /ask as Server-Sent Events: `start`, then `result` events (one per result, then
// the generated text as it arrives, then the whole answer), then `complete`.
// Every data line is one JSON object. A client that goes away aborts the work.
import type { AskMode } from '../../contract/docs-api.ts';
import type { AnswerOutcome } from '../../engine/answer.ts';
import type { DocsRuntime } from '../runtime.ts';
import { type AskResults, askMeta, generateAnswer } from './run.ts';

const encoder = new TextEncoder();

export function askEventStream(
  rt: DocsRuntime,
  opts: { queryId: string; query: string; mode: AskMode; ask: AskResults; signal: AbortSignal },
): Response {
  const abort = new AbortController();
  const onClientGone = () => abort.abort(opts.signal.reason);
  if (opts.signal.aborted) onClientGone();
  else opts.signal.addEventListener('abort', onClientGone, { once: true });

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: string, data: unknown) => {
        if (abort.signal.aborted) return;
        try {
          controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        } catch {
          abort.abort();
        }
      };
      const { queryId, query, mode, ask } = opts;
      const { results } = ask;
      send('start', { query_id: queryId, query, _meta: askMeta(mode) });
      for (const result of results) send('result', { type: 'result', result });
      let outcome: AnswerOutcome | undefined;
      if (mode !== 'list' && !abort.signal.aborted) {
        let text = '';
        try {
          outcome = await generateAnswer(rt, {
            query,
            mode,
            ask,
            signal: abort.signal,
            onText: (piece) => {
              text += piece;
              send('result', { type: 'text', text: piece });
            },
          });
          send('result', { type: 'answer', answer: text, citations: outcome.citations });
        } catch (err) {
          if (!abort.signal.aborted) console.error('[docs] /ask answer failed:', err);
        }
      }
      send('complete', { _meta: askMeta(mode, results.length, outcome) });
      opts.signal.removeEventListener('abort', onClientGone);
      try {
        controller.close();
      } catch {
        // already closed by a cancelled reader
      }
    },
    cancel() {
      abort.abort();
    },
  });

  return new Response(stream, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
  });
}
