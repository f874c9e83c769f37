// POST /ask: one question, no Origin needed. JSON `{query_id, query, answer, sources, _meta}`,
// or Server-Sent Events (start, result…, complete) with Accept: text/event-stream or
// prefer.streaming: true.
import { randomUUID } from 'node:crypto';
import type { H3Event } from 'h3';
import { ASK_PATH, ASSISTANT_API_VERSION, AskRequest, assistantLimits, type AskResponseT } from '../../contract/assistant-api.ts';
import { acceptsEventStream } from '../../static/negotiate.ts';
import { startAnswer, type AnswerRun } from '../answering.ts';
import { countRequest, enforcePolicy, loadedServices, methodNotAllowed, readJsonBody, type AssistantContext } from '../context.ts';
import { answerSource, apiSource, type CorpusPage } from '../corpus.ts';

const ALLOW = ['POST', 'OPTIONS'];

export interface AskResult {
  run: AnswerRun;
  pages: CorpusPage[];
}

/** Retrieval + answer start, shared by /ask and the MCP `ask` tool. Throws AssistantError (e.g. 503) before the first piece. */
export async function startAsk(ctx: AssistantContext, query: string, signal?: AbortSignal): Promise<AskResult> {
  const services = await loadedServices(ctx);
  const { pages, corrections, termPages, searched } = await services.corpus.retrieve(query, { signal });
  const run = await startAnswer({
    query,
    focus: searched,
    mode: 'generate',
    sources: pages.map(answerSource),
    corrections,
    termPages,
    system: services.systemPrompt,
    llm: ctx.llm,
    deadlineMs: ctx.deadlineMs,
    signal,
  });
  return { run, pages };
}

/** Collects the whole answer (JSON responses, MCP). */
export async function collectAnswer({ run, pages }: AskResult): Promise<{ answer: string; sources: ReturnType<typeof apiSource>[] }> {
  let answer = '';
  for await (const piece of run.pieces) answer += piece;
  await run.outcome;
  return { answer: answer.trim(), sources: pages.map(apiSource) };
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function askHandler(ctx: AssistantContext) {
  return async (event: H3Event): Promise<Response> => {
    const req = event.req as unknown as Request;
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: ALLOW.join(', ') } });
    if (req.method !== 'POST') throw methodNotAllowed(req.method, ASK_PATH, ALLOW);

    await countRequest(ctx, event);
    const body = await readJsonBody(req, AskRequest, assistantLimits.askBodyMaxBytes);
    enforcePolicy(ctx, [body.query]);
    const streaming = body.prefer?.streaming === true || acceptsEventStream(req.headers.get('accept'));

    const queryId = randomUUID();
    const started = await startAsk(ctx, body.query, req.signal);
    const meta = { response_type: 'generate' as const, version: ASSISTANT_API_VERSION, answer_backend: started.run.backend };
    const headers = { 'Cache-Control': 'no-store', 'X-Answer-Backend': started.run.backend, 'X-Content-Type-Options': 'nosniff' };

    if (!streaming) {
      const { answer, sources } = await collectAnswer(started);
      const payload: AskResponseT = { query_id: queryId, query: body.query, answer, sources, _meta: { ...meta, count: sources.length } };
      return new Response(JSON.stringify(payload), { status: 200, headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' } });
    }

    const encoder = new TextEncoder();
    const { run, pages } = started;
    const iterator = run.pieces[Symbol.asyncIterator]();
    let answer = '';
    let phase: 'start' | 'text' | 'done' = 'start';
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (phase === 'done') return;
        if (phase === 'start') {
          phase = 'text';
          controller.enqueue(encoder.encode(sse('start', { query_id: queryId, query: body.query, _meta: meta })));
          return;
        }
        try {
          const next = await iterator.next();
          if (!next.done) {
            answer += next.value;
            controller.enqueue(encoder.encode(sse('result', { type: 'text', text: next.value })));
            return;
          }
          await run.outcome;
          const sources = pages.map(apiSource);
          controller.enqueue(encoder.encode(sse('result', { type: 'answer', answer: answer.trim(), sources })));
          controller.enqueue(encoder.encode(sse('complete', { _meta: { ...meta, count: sources.length }, status: 'complete' })));
        } catch (err) {
          const code = (err as { code?: string }).code === 'internal_error' ? 'internal_error' : 'unavailable';
          controller.enqueue(encoder.encode(sse('result', { type: 'error', error: (err as Error).message, code })));
          controller.enqueue(encoder.encode(sse('complete', { _meta: { ...meta, count: 0 }, status: 'interrupted' })));
        }
        phase = 'done';
        controller.close();
      },
      cancel() {
        phase = 'done';
        run.abort();
      },
    });
    return new Response(stream, {
      status: 200,
      headers: { ...headers, 'Content-Type': 'text/event-stream; charset=utf-8', 'X-Accel-Buffering': 'no' },
    });
  };
}
