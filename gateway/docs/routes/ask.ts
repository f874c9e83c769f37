// GET|POST /ask (and /api/v1/ask): NLWeb-style question answering, JSON or SSE.
import type { H3Event } from 'h3';
import type { AskResponseT } from '../../contract/docs-api.ts';
import type { AnswerOutcome } from '../../engine/answer.ts';
import { modelBudgetRetryAfter } from '../ask/model-budget.ts';
import { acceptsEventStream } from '../../static/negotiate.ts';
import { askInputFromBody, askInputFromQuery } from '../ask/input.ts';
import { askMeta, askResults, generateAnswer, newQueryId } from '../ask/run.ts';
import { askEventStream } from '../ask/sse.ts';
import { requireMethod } from '../methods.ts';
import { checkIdempotencyKey } from '../middleware/idempotency.ts';
import { jsonBytesResponse, jsonResponse } from '../problem.ts';
import { BufferPieces } from '../../http/buffer-pieces.ts';
import { requireEngine } from '../ready.ts';
import type { DocsRuntime } from '../runtime.ts';

/** `X-Model-Budget: spent; retry-after=<s>` on an answer given extractively because the client's model budget is spent. */
function modelBudgetHeader(outcome: AnswerOutcome): Record<string, string> {
  const wait = modelBudgetRetryAfter(outcome);
  return wait === undefined ? {} : { 'x-model-budget': `spent; retry-after=${wait}` };
}

export function askRoute(rt: DocsRuntime) {
  return async (event: H3Event): Promise<Response> => {
    requireMethod(event, ['GET', 'POST']);
    checkIdempotencyKey(event);
    const input = event.req.method === 'POST' ? await askInputFromBody(event, rt.config.bodyLimitBytes) : askInputFromQuery(event);
    requireEngine(rt);
    const signal = event.req.signal;
    const streaming = input.streaming || acceptsEventStream(event.req.headers.get('accept'));
    const queryId = newQueryId();
    // Search before answering with 200, so a failing search is still a Problem.
    const ask = await askResults(rt, input.query, signal);
    const { results, json } = ask;
    if (streaming) return askEventStream(rt, { queryId, query: input.query, mode: input.mode, ask, signal });

    if (input.mode === 'list') {
      // JSON.stringify of { query_id, query, results, _meta }, byte for byte, around the results' cached JSON
      const head = `{"query_id":${JSON.stringify(queryId)},"query":${JSON.stringify(input.query)},"results":`;
      const tail = `,"_meta":${JSON.stringify(askMeta('list', results.length))}}`;
      return jsonBytesResponse(new BufferPieces([Buffer.from(head, 'utf8'), json, Buffer.from(tail, 'utf8')]));
    }
    let text = '';
    const outcome = await generateAnswer(rt, { query: input.query, mode: input.mode, ask, signal, onText: (t) => (text += t) });
    const body: AskResponseT = { query_id: queryId, query: input.query, results: [...results], _meta: askMeta(input.mode, results.length, outcome), answer: text, citations: outcome.citations };
    return jsonResponse(body, 200, modelBudgetHeader(outcome));
  };
}
