// What every assistant route needs, created once by createAssistantApp, and the steps
// every route takes: count the request, read and validate the body, apply the content policy.
import type { H3Event } from 'h3';
import type { z } from 'zod';
import type { GatewayConfig } from '../config.ts';
import { parseJsonText, readBody } from '../http/body.ts';
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

/** One readable sentence naming every problem, e.g. "messages.0.content: content must be at most 2000 characters". */
export function validationMessage(error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((i) => {
    const path = i.path.map(String).join('.');
    return path ? `${path}: ${i.message}` : i.message;
  });
  return `Invalid request: ${parts.join('; ')}${error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : ''}.`;
}

/** A JSON body read by the shared reader (415, 413 and 400 as HTTPErrors) and validated with the contract (400 `invalid_request`). */
export async function readJsonBody<T extends z.ZodType>(req: Request, schema: T, limit: number): Promise<z.infer<T>> {
  const { text } = await readBody(req, { limit, types: ['json'], endpoint: `${req.method} ${new URL(req.url).pathname}` });
  const result = schema.safeParse(parseJsonText(text));
  if (!result.success) throw new AssistantError('invalid_request', validationMessage(result.error));
  return result.data;
}
