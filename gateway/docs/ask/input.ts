// The question of GET/POST /ask, from the query string, a JSON body (plain or the
// NLWeb structured form) or a form body. Precedence: query > q > question,
// mode > prefer.mode. Streaming is requested by any one of streaming=true,
// prefer.streaming=true or Accept: text/event-stream (the last decided by the route).
import type { H3Event } from 'h3';
import { AskRequest, askModes, type AskMode } from '../../contract/docs-api.ts';
import { parseJsonText, readBody } from '../../http/body.ts';
import { isJsonType } from '../../http/media-type.ts';
import { booleanParam, enumParam, param } from '../params.ts';
import { MISSING_QUERY, ProblemError } from '../problem.ts';

export interface AskInput {
  query: string;
  mode: AskMode;
  /** True when the request asked for streaming; Accept can still ask for it. */
  streaming: boolean;
}

function firstNonEmpty(...values: (string | undefined)[]): string {
  for (const v of values) if (v !== undefined && v.trim() !== '') return v.trim();
  throw new ProblemError('missing-query-parameter', MISSING_QUERY);
}

type Get = (name: string) => string | undefined;

function fromFields(get: Get): AskInput {
  const query = firstNonEmpty(get('query'), get('query.text'), get('q'), get('question'));
  const mode = enumParam('mode', get('mode'), askModes) ?? enumParam('prefer.mode', get('prefer.mode'), askModes) ?? 'list';
  // Both are validated (a bad value is a 400) before either may select streaming.
  const explicit = booleanParam('streaming', get('streaming'));
  const preferred = booleanParam('prefer.streaming', get('prefer.streaming'));
  const streaming = explicit === true || preferred === true;
  return { query, mode, streaming };
}

export function askInputFromQuery(event: H3Event): AskInput {
  return fromFields((name) => param(event, name));
}

function fromForm(text: string): AskInput {
  const form = new URLSearchParams(text);
  return fromFields((name) => {
    const all = form.getAll(name);
    if (all.length > 1) throw new ProblemError('invalid-parameter', `\`${name}\` must be given at most once.`);
    return all[0];
  });
}

const parameterFields = new Set(['mode', 'streaming', 'prefer.mode', 'prefer.streaming']);

function fromJson(data: unknown): AskInput {
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new ProblemError('invalid-request-body', 'The request body must be a JSON object such as {"query": "…"}.');
  }
  // Empty aliases count as absent, so {"query": "", "q": "x"} asks "x" and {"query": ""} is a missing query.
  const body: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const k of ['query', 'q', 'question']) if (typeof body[k] === 'string' && (body[k] as string).trim() === '') delete body[k];
  const q = body.query as { text?: unknown } | undefined;
  if (q && typeof q === 'object' && typeof q.text === 'string' && q.text.trim() === '') delete body.query;

  const parsed = AskRequest.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ pointer: `/${i.path.join('/')}`, detail: i.message, field: i.path.join('.') }));
    const param = issues.find((i) => parameterFields.has(i.field));
    if (param) throw new ProblemError('invalid-parameter', `\`${param.field}\`: ${param.detail}.`);
    throw new ProblemError('invalid-request-body', `The request body does not match AskRequest: ${issues.map((i) => `${i.pointer}: ${i.detail}`).join('; ')}.`, {
      extra: { errors: issues.map(({ pointer, detail }) => ({ pointer, detail })) },
    });
  }
  const r = parsed.data;
  const query = firstNonEmpty(typeof r.query === 'string' ? r.query : r.query?.text, r.q, r.question);
  return { query, mode: r.mode ?? r.prefer?.mode ?? 'list', streaming: r.streaming === true || r.prefer?.streaming === true };
}

export async function askInputFromBody(event: H3Event, limit: number): Promise<AskInput> {
  const { type, text } = await readBody(event.req, { limit, types: ['json', 'application/x-www-form-urlencoded'], endpoint: 'POST /ask' });
  return isJsonType(type) ? fromJson(parseJsonText(text)) : fromForm(text);
}
