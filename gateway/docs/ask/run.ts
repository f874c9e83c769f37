// /ask: the best pages for a question (one result per page), and for summarize /
// generate an answer grounded in them — from the model when one is configured,
// extractively otherwise or when the model fails; the request never fails for it.
import { randomUUID } from 'node:crypto';
import { API_VERSION, apiLimits, type AskMetaT, type AskMode, type NlwebResultT } from '../../contract/docs-api.ts';
import { answer, type AnswerOutcome, type AnswerSource, type LlmClient } from '../../engine/answer.ts';
import type { Corrections, SearchHit, TermPages } from '../../engine/search.ts';
import { requireEngine } from '../ready.ts';
import { pageMarkdown } from '../pages.ts';
import type { DocsRuntime } from '../runtime.ts';

/**
 * Pages handed to the answerer, and how much of each: the answerer picks sections from the whole page (the one that
 * answers is often far down a reference page), so only a bound against pathological pages applies.
 */
const SOURCES = 5;
const SOURCE_CHARS = 200_000;

/**
 * The results of a question, their JSON text as UTF-8 (the `results` member of a list answer), what its misspelt
 * words stand for (the answerer looks for those words in the sources) and how common its words are in the site (the
 * answerer's word weights).
 */
export interface AskResults {
  readonly results: readonly NlwebResultT[];
  readonly json: Buffer;
  readonly corrections: Corrections;
  readonly termPages: TermPages;
}

// The engine hands out the same frozen hits array for the same cached ranking slice: the results built from it, and
// their JSON, are kept as long as that array lives (≈30 µs of mapping and JSON.stringify per repeated question).
const resultsOfHits = new WeakMap<readonly SearchHit[], AskResults>();

export async function askResults(rt: DocsRuntime, query: string, signal?: AbortSignal): Promise<AskResults> {
  // A question rarely has every one of its words on one page: rank pages by how many
  // they match ('any') rather than requiring all.
  const { hits, corrections, termPages } = await requireEngine(rt).search(query, { limit: apiLimits.askResults, match: 'any', signal });
  let out = resultsOfHits.get(hits);
  if (!out) {
    const results = toNlwebResults(rt, hits);
    out = Object.freeze({ results, json: Buffer.from(JSON.stringify(results), 'utf8'), corrections, termPages });
    if (Object.isFrozen(hits)) resultsOfHits.set(hits, out);
  }
  return out;
}

/** One result per page (the check below guards that), frozen: they are shared between requests. */
function toNlwebResults(rt: DocsRuntime, hits: readonly SearchHit[]): readonly NlwebResultT[] {
  const byPage = new Map<string, NlwebResultT>();
  for (const hit of hits) {
    if (byPage.has(hit.path)) continue;
    const page = rt.pages.get(hit.path);
    byPage.set(hit.path, {
      id: hit.id,
      name: hit.title,
      title: hit.title,
      url: `${rt.siteUrl}${hit.path}`,
      site: rt.siteUrl,
      score: hit.score,
      description: page?.description || hit.content,
      content: hit.content,
    });
    if (byPage.size >= apiLimits.askResults) break;
  }
  return Object.freeze([...byPage.values()].map((r) => Object.freeze(r)));
}

async function sourcesFor(rt: DocsRuntime, results: readonly NlwebResultT[]): Promise<AnswerSource[]> {
  return Promise.all(
    results.slice(0, SOURCES).map(async (r) => {
      const page = rt.pages.get(new URL(r.url).pathname);
      let content = r.content ?? '';
      if (page) content = (await pageMarkdown(rt, page).catch(() => content)).slice(0, SOURCE_CHARS);
      return { url: r.url, title: r.name, content };
    }),
  );
}

export async function generateAnswer(
  rt: DocsRuntime,
  opts: { query: string; mode: Exclude<AskMode, 'list'>; ask: AskResults; signal?: AbortSignal; onText: (text: string) => void },
): Promise<AnswerOutcome> {
  const { results, corrections, termPages } = opts.ask;
  const produce = async (llm: LlmClient | undefined, onText: (text: string) => void) =>
    answer({ query: opts.query, mode: opts.mode, sources: await sourcesFor(rt, results), corrections, termPages, llm, onModelFailure: 'extractive', signal: opts.signal, onText });
  // Model answers go through the per-client model budget and the answer cache (model-budget.ts).
  if (!rt.llm || !rt.modelBudget) return produce(rt.llm, opts.onText);
  return rt.modelBudget.answer({ buildId: rt.manifest?.buildId ?? '', mode: opts.mode, query: opts.query, onText: opts.onText }, rt.llm, produce);
}

export function askMeta(mode: AskMode, count?: number, outcome?: AnswerOutcome): AskMetaT {
  const meta: AskMetaT = { response_type: mode, version: API_VERSION };
  if (count !== undefined) meta.count = count;
  if (outcome) {
    meta.answer_backend = outcome.backend;
    if (outcome.fallbackReason) meta.fallback_reason = outcome.fallbackReason;
    if (outcome.status) meta.answer_status = outcome.status;
  }
  return meta;
}

export const newQueryId = () => randomUUID();
