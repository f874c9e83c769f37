// What the docs /ask may spend on the model backend (summarize and generate, as JSON,
// as SSE and through the MCP `ask` tool alike: all of them start the answer in run.ts).
//   Answer cache: an LRU of model answers keyed by build id, mode and the normalized
//     question (case, spacing, trailing punctuation), ASK_ANSWER_CACHE_SIZE entries.
//     Identical questions asked at once wait for the first one's answer instead of
//     each calling the model. Fallback (extractive) answers are not cached.
//   Budget: ASK_MODEL_RATE_LIMIT_MAX model calls per client IP per window, counted
//     only for requests that reach the model (a cache hit, list mode or a gateway
//     without a model spend nothing). Over budget the request is still answered, from
//     the extractive answerer, with `_meta.fallback_reason` starting with
//     MODEL_BUDGET_REASON — the same graceful path as a failing model — because an SSE
//     stream or an MCP result has committed to success before the model is reached.
import type { GatewayConfig } from '../../config.ts';
import type { AnswerOutcome, LlmClient } from '../../engine/answer.ts';
import { createLimitStore, type LimitResult, type LimitStore } from '../../limits/store.ts';
import { currentRequestState } from '../request-state.ts';

/** `_meta.fallback_reason` of an answer given extractively because the client's model budget is spent. */
export const MODEL_BUDGET_REASON = 'model budget spent';

const spentAnswers = new WeakMap<AnswerOutcome, number>();

/** Seconds until the client's model budget resets, for an answer given extractively because it was spent; else undefined. */
export const modelBudgetRetryAfter = (outcome: AnswerOutcome): number | undefined => spentAnswers.get(outcome);

/** Produces an answer with the given model (undefined: extractively), writing text through `onText`. */
export type ProduceAnswer = (llm: LlmClient | undefined, onText: (text: string) => void) => Promise<AnswerOutcome>;

export interface AskQuestion {
  buildId: string;
  mode: string;
  query: string;
  onText: (text: string) => void;
}

export interface ModelBudget {
  answer(question: AskQuestion, llm: LlmClient, produce: ProduceAnswer): Promise<AnswerOutcome>;
  close(): Promise<void>;
}

interface Cached {
  text: string;
  outcome: AnswerOutcome;
}

/** Longer model answers are served but not kept. */
const MAX_CACHED_CHARS = 64 * 1024;

/** Case, Unicode form, spacing and trailing punctuation do not make another question. */
export function normalizeQuestion(query: string): string {
  return query
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?!.。？！]+$/u, '')
    .trim();
}

export function createModelBudget(config: GatewayConfig): ModelBudget {
  const { max, windowSeconds, cacheSize } = config.askModel;
  const store: LimitStore = createLimitStore({ max, windowSeconds, redisUrl: config.redisUrl, redisTimeoutMs: config.redisTimeoutMs, prefix: 'docs-model' });
  const cache = new Map<string, Cached>();
  const pending = new Map<string, Promise<Cached | undefined>>();

  const remember = (key: string, entry: Cached) => {
    if (cacheSize === 0 || entry.text.length > MAX_CACHED_CHARS) return;
    cache.delete(key);
    cache.set(key, entry);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
  };
  const recall = (key: string): Cached | undefined => {
    const hit = cache.get(key);
    if (hit) {
      // most recently used last
      cache.delete(key);
      cache.set(key, hit);
    }
    return hit;
  };
  const replay = (hit: Cached, onText: (text: string) => void): AnswerOutcome => {
    onText(hit.text);
    return { ...hit.outcome, citations: [...hit.outcome.citations] };
  };

  async function spend(): Promise<LimitResult | undefined> {
    const ip = currentRequestState()?.ip ?? 'unknown';
    try {
      return await store.consume(ip);
    } catch (err) {
      // a broken counter store must not take answers down: the model is used, as without a budget
      console.error('[docs] model budget store failed:', err);
      return undefined;
    }
  }

  return {
    async answer(question, llm, produce) {
      const key = `${question.buildId}\u0000${question.mode}\u0000${normalizeQuestion(question.query)}`;
      const hit = recall(key) ?? (await pending.get(key));
      if (hit) return replay(hit, question.onText);

      const budget = await spend();
      if (budget && !budget.allowed) {
        const outcome = await produce(undefined, question.onText);
        const reason = `${MODEL_BUDGET_REASON}: more than ${max} model answers in ${windowSeconds} s from your address; retry in ${budget.resetSeconds} s (this answer is extractive)`;
        const spent = { ...outcome, fallbackReason: reason };
        spentAnswers.set(spent, budget.resetSeconds);
        return spent;
      }

      let text = '';
      let done: (entry: Cached | undefined) => void = () => {};
      pending.set(key, new Promise((resolve) => (done = resolve)));
      let entry: Cached | undefined;
      try {
        const outcome = await produce(llm, (piece) => {
          text += piece;
          question.onText(piece);
        });
        if (outcome.backend === 'model' && !outcome.fallbackReason) {
          entry = { text, outcome: { ...outcome, citations: [...outcome.citations] } };
          remember(key, entry);
        }
        return outcome;
      } finally {
        pending.delete(key);
        done(entry);
      }
    },
    close: () => store.close(),
  };
}
