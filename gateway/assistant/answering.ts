// Runs one answer (model backend or extractive) and exposes it as a stream whose
// first piece is awaited before anything is sent: a backend that is down, refuses
// or times out before the first token becomes a clean 503 `unavailable` response,
// while an answer that has started streams to the client as it is generated.
import { answer, type AnswerOutcome, type AnswerSource } from '../engine/answer.ts';
import { LlmUnavailableError, type LlmClient } from '../engine/llm.ts';
import type { Corrections, TermPages } from '../engine/search.ts';
import { AssistantError } from './errors.ts';

export interface AnswerRun {
  backend: 'model' | 'extractive';
  /** The pieces of the answer, in order (the first is already buffered). Throws AssistantError on failure midway. */
  pieces: AsyncIterable<string>;
  /** Settles when the answer is complete. */
  outcome: Promise<AnswerOutcome>;
  /** Stops the work (client went away). */
  abort(): void;
}

export interface StartAnswerOptions {
  query: string;
  mode: 'chat' | 'generate';
  sources: AnswerSource[];
  /** What the question's misspelt words stand for, and how common its words are in the portfolio (answer.ts). */
  corrections?: Corrections;
  termPages?: TermPages;
  /** The question as the search ran it (answer.ts). */
  focus?: string;
  history?: { role: 'user' | 'assistant'; content: string }[];
  system?: string;
  llm?: LlmClient;
  /** Hard upper bound for the whole answer (ms); past it the answer is abandoned as `unavailable`. */
  deadlineMs: number;
  signal?: AbortSignal;
}

class DeadlineError extends Error {
  override name = 'DeadlineError';
}

export function toAnswerError(err: unknown): AssistantError {
  if (err instanceof AssistantError) return err;
  if (err instanceof LlmUnavailableError || err instanceof DeadlineError) {
    return new AssistantError('unavailable', `The model backend is temporarily unavailable (${(err as Error).message}). Retry with backoff (1 s, 2 s, 4 s).`, {}, { cause: err });
  }
  console.error('[assistant] answer failed:', err);
  return new AssistantError('internal_error', 'Internal server error while answering; retry with backoff.', {}, { cause: err });
}

/** Starts the answer and resolves once its first piece exists (or it ended); rejects with an AssistantError before that. */
export async function startAnswer(opts: StartAnswerOptions): Promise<AnswerRun> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = setTimeout(() => controller.abort(new DeadlineError(`no complete answer within ${Math.round(opts.deadlineMs / 1000)} s`)), opts.deadlineMs);

  const queue: string[] = [];
  let finished = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const wait = () => new Promise<void>((resolve) => (wake = resolve));

  const outcome = answer({
    query: opts.query,
    mode: opts.mode,
    sources: opts.sources,
    corrections: opts.corrections,
    termPages: opts.termPages,
    focus: opts.focus,
    coverageSubject: 'This site',
    history: opts.history,
    llm: opts.llm,
    onModelFailure: 'throw',
    signal: controller.signal,
    onText: (text: string) => {
      if (!text) return;
      queue.push(text);
      notify();
    },
    system: opts.system,
    // The routes list the sources themselves (chat trailer, /ask `sources`).
    appendSources: false,
  });

  const settled = outcome.then(
    (o: AnswerOutcome) => {
      finished = true;
      notify();
      return o;
    },
    (err: unknown) => {
      // An abort by the deadline surfaces as the deadline's error, not a bare AbortError.
      failure = controller.signal.reason instanceof DeadlineError ? controller.signal.reason : err;
      finished = true;
      notify();
      throw failure;
    },
  );
  settled.catch(() => {}).finally(() => {
    clearTimeout(deadline);
    opts.signal?.removeEventListener('abort', onAbort);
  });

  while (queue.length === 0 && !finished) await wait();
  if (queue.length === 0 && failure !== undefined) throw toAnswerError(failure);

  async function* pieces(): AsyncGenerator<string> {
    for (;;) {
      if (queue.length) {
        yield queue.shift()!;
        continue;
      }
      if (finished) {
        if (failure !== undefined) throw toAnswerError(failure);
        return;
      }
      await wait();
    }
  }

  return {
    backend: opts.llm ? 'model' : 'extractive',
    pieces: pieces(),
    outcome: settled,
    abort: () => controller.abort(new Error('client closed the connection')),
  };
}

/**
 * Upper bound for one answer. The LLM client already bounds a whole call (all attempts, backoff and streaming)
 * by LLM_TIMEOUT_MS; this is a safety net on top of it.
 */
export function answerDeadlineMs(llm: { totalTimeoutMs: number } | undefined): number {
  return llm ? llm.totalTimeoutMs + 2000 : 30_000;
}
