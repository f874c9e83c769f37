// POST /api/chat: multi-turn, browser-facing, CSRF-guarded by Origin. The answer
// streams as text/plain while it is generated, then a blank line, `Sources:` and one
// `[n] <title>: <url>` line per page the answer was grounded in (format: contract
// chatFormatDescription); `[n]` markers in the answer refer to these numbers.
import type { H3Event } from 'h3';
import { CHAT_INTERRUPTED_MARKER, CHAT_PATH, CHAT_SOURCES_MARKER, ChatRequest, assistantLimits } from '../../contract/assistant-api.ts';
import { startAnswer } from '../answering.ts';
import { countRequest, enforcePolicy, loadedServices, methodNotAllowed, readJsonBody, type AssistantContext } from '../context.ts';
import { answerSource } from '../corpus.ts';

const ALLOW = ['POST', 'OPTIONS'];

function corsHeaders(ctx: AssistantContext, origin: string | null): Record<string, string> {
  if (!origin) return {};
  try {
    const o = new URL(origin).origin;
    return ctx.guard.isCrossOrigin(o) ? { 'Access-Control-Allow-Origin': o, Vary: 'Origin' } : {};
  } catch {
    return {};
  }
}

export function sourcesBlock(pages: { title: string; url: string }[]): string {
  return CHAT_SOURCES_MARKER + pages.map((p, i) => `[${i + 1}] ${p.title.replace(/[\r\n]+/g, ' ')}: ${p.url}\n`).join('');
}

export function chatHandler(ctx: AssistantContext) {
  return async (event: H3Event): Promise<Response> => {
    const req = event.req as unknown as Request;
    const origin = req.headers.get('origin');
    if (req.method === 'OPTIONS') {
      // CORS preflight: only configured cross-origin sites get CORS headers.
      const cors = corsHeaders(ctx, origin);
      const preflight = Object.keys(cors).length
        ? { ...cors, 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '600' }
        : {};
      return new Response(null, { status: 204, headers: { Allow: ALLOW.join(', '), ...preflight } });
    }
    if (req.method !== 'POST') throw methodNotAllowed(req.method, CHAT_PATH, ALLOW);

    await countRequest(ctx, event);
    ctx.guard.check(origin);
    const body = await readJsonBody(req, ChatRequest, assistantLimits.chatBodyMaxBytes);
    enforcePolicy(ctx, body.messages.map((m) => m.content));

    const services = await loadedServices(ctx);
    const question = body.messages[body.messages.length - 1]!.content;
    // Retrieval: the question, else the question with the previous user turn (follow-ups like "and the year?").
    let { pages } = await services.corpus.retrieve(question, { signal: req.signal });
    const previousUser = body.messages.slice(0, -1).filter((m) => m.role === 'user').at(-1);
    if (previousUser && pages.length === 1 && pages[0]!.path === '/') {
      ({ pages } = await services.corpus.retrieve(`${previousUser.content} ${question}`, { signal: req.signal }));
    }

    const run = await startAnswer({
      query: question,
      mode: 'chat',
      sources: pages.map(answerSource),
      history: body.messages.slice(0, -1),
      system: services.systemPrompt,
      llm: ctx.llm,
      deadlineMs: ctx.deadlineMs,
      signal: req.signal,
    });

    const encoder = new TextEncoder();
    const iterator = run.pieces[Symbol.asyncIterator]();
    let done = false;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (done) return;
        try {
          const next = await iterator.next();
          if (!next.done) {
            controller.enqueue(encoder.encode(next.value));
            return;
          }
          await run.outcome;
          controller.enqueue(encoder.encode(sourcesBlock(pages)));
        } catch {
          // The answer had started: the status is sent, so the body says what happened.
          controller.enqueue(encoder.encode(CHAT_INTERRUPTED_MARKER));
        }
        done = true;
        controller.close();
      },
      cancel() {
        done = true;
        run.abort();
      },
    });

    return new Response(stream, {
      status: 200,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
        'X-Content-Type-Options': 'nosniff',
        'X-Answer-Backend': run.backend,
        ...corsHeaders(ctx, origin),
      },
    });
  };
}
