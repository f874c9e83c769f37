// What every assistant route needs, created once by createAssistantApp.
import type { H3Event } from 'h3';
import type { GatewayConfig } from '../config.ts';
import type { LlmClient } from '../engine/llm.ts';
import type { SearchEngine } from '../engine/search.ts';
import type { SiteFiles } from '../static/files.ts';
import type { Corpus } from './corpus.ts';
import { AssistantError } from './errors.ts';
import type { OriginGuard } from './origin.ts';
import type { ContentPolicy } from './policy.ts';
import type { AssistantLimiter, RateState } from './rate-limit.ts';

export interface Services {
  engine: SearchEngine;
  corpus: Corpus;
  systemPrompt: string;
}

export interface AssistantContext {
  config: GatewayConfig;
  siteUrl: string;
  limiter: AssistantLimiter;
  guard: OriginGuard;
  policy: ContentPolicy;
  files: SiteFiles;
  llm?: LlmClient;
  deadlineMs: number;
  /** Resolves when the search engine and the corpus are loaded; rejects when the portfolio build is missing. */
  services(): Promise<Services>;
}

/** Per-request state kept on the h3 event context. */
export interface RequestState {
  ip: string;
  rate?: RateState;
}

export function requestState(event: H3Event): RequestState {
  return (event.context as { assistant?: RequestState }).assistant!;
}

/** Counts the request against the client's budget (429 when over it) and records the state for the headers. */
export async function countRequest(ctx: AssistantContext, event: H3Event): Promise<void> {
  const state = requestState(event);
  try {
    state.rate = await ctx.limiter.consume(state.ip);
  } catch (err) {
    state.rate = ctx.limiter.peek(state.ip);
    throw err;
  }
}

export async function loadedServices(ctx: AssistantContext): Promise<Services> {
  try {
    return await ctx.services();
  } catch (err) {
    throw new AssistantError('unavailable', `The assistant's search index is not available (${(err as Error).message}).`, {}, { cause: err });
  }
}

/** Throws 400 `invalid_request` when any text is blocked by the content policy. */
export function enforcePolicy(ctx: AssistantContext, texts: string[]): void {
  for (const text of texts) {
    const reason = ctx.policy.check(text);
    if (reason) throw new AssistantError('invalid_request', `Blocked by the content policy: ${reason}. Ask a question about this site.`);
  }
}

export function methodNotAllowed(method: string, path: string, allow: string[]): AssistantError {
  return new AssistantError('method_not_allowed', `${method} is not allowed on ${path}; use ${allow.filter((m) => m !== 'OPTIONS').join(' or ')}.`, { Allow: allow.join(', ') });
}
