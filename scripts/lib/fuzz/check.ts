// What every fuzz response must satisfy, whatever was sent: an answer (never a reset
// or a silence), no 5xx, the right error envelope for the app (RFC 9457 Problem on the
// docs API, `{error, code}` on the assistant's), a content type, the rate-limit headers,
// complete SSE streams, and success bodies that match the contract's schemas. Each
// broken rule is one finding; the report groups them by rule.
import { AskResponse, BatchMarkdownResponse, Health, JobAccepted, JobStatus, Problem, SearchResults } from '../../../gateway/contract/docs-api.ts';
import { AskResponse as AssistantAskResponse, ErrorEnvelope, errorStatus } from '../../../gateway/contract/assistant-api.ts';
import type { z } from 'zod';
import type { FuzzRequest } from './requests.ts';
import type { FuzzResponse } from './send.ts';

export interface Violation {
  rule: string;
  detail: string;
}

const isApiPath = (path: string) => /^\/(api\/|ask(\/|\?|$))/i.test(path);
const wantsHtml = (req: FuzzRequest) => /text\/html/.test(req.headers.accept ?? '');
const header = (res: FuzzResponse, name: string) => {
  const value = res.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Success bodies of the docs API's JSON routes, by route. */
function docsSuccessSchema(req: FuzzRequest, status: number): z.ZodType | undefined {
  const route = req.path.split('?')[0]!.replace(/^\/api\/v1\//, '/api/').replace(/\/$/, '');
  if (route === '/api/search') return SearchResults;
  if (route === '/ask' || route === '/api/v1/ask') return AskResponse;
  if (route === '/api/md/batch') return status === 202 ? JobAccepted : BatchMarkdownResponse;
  if (route.startsWith('/api/jobs/')) return JobStatus;
  if (route === '/api/health') return Health;
  return undefined;
}

function checkEnvelope(req: FuzzRequest, res: FuzzResponse, out: Violation[]): void {
  const type = header(res, 'content-type') ?? '';
  // the path as the server routes it (dot segments resolved): `/api/../x` is the file /x, not an API path; a target
  // is a path even when it starts with `//` (`//llms.txt/api/x` is not the host llms.txt's /api/x)
  const target = req.path.startsWith('/') ? `http://fuzz${req.path}` : req.path;
  const path = URL.canParse(target, 'http://fuzz') ? new URL(target, 'http://fuzz').pathname : req.path.split('?')[0]!;
  if (req.method === 'HEAD' || (res.body === '' && res.status === 304)) return;
  const body = parseJson(res.body);
  // JSON-RPC errors are MCP's own envelope on the MCP endpoint.
  if (req.family === 'mcp' && body && typeof body === 'object' && 'jsonrpc' in body) return;
  if (/text\/html/.test(type) && (!isApiPath(path) || req.raw) && (wantsHtml(req) || res.status === 404)) return;
  if (req.target === 'docs') {
    if (!/^application\/(problem\+)?json/.test(type)) return void out.push({ rule: 'envelope', detail: `docs ${res.status} served as ${type || '(no type)'}` });
    const problem = Problem.safeParse(body);
    if (!problem.success) return void out.push({ rule: 'envelope', detail: `docs ${res.status} body is not a Problem: ${res.body.slice(0, 120)}` });
    if (problem.data.status !== res.status) out.push({ rule: 'envelope', detail: `Problem status ${problem.data.status} on HTTP ${res.status}` });
  } else {
    if (!/^application\/json/.test(type)) return void out.push({ rule: 'envelope', detail: `assistant ${res.status} served as ${type || '(no type)'}` });
    const envelope = ErrorEnvelope.safeParse(body);
    if (!envelope.success) return void out.push({ rule: 'envelope', detail: `assistant ${res.status} body is not {error, code}: ${res.body.slice(0, 120)}` });
    const expected = errorStatus[envelope.data.code as keyof typeof errorStatus];
    // What Node's parser refuses (a request too slow, a URL or headers too large) is a malformed request too.
    const malformed = envelope.data.code === 'invalid_request' && (res.status === 408 || res.status === 431);
    if (expected !== res.status && !malformed) out.push({ rule: 'envelope', detail: `code ${envelope.data.code} on HTTP ${res.status}` });
  }
}

function checkSuccess(req: FuzzRequest, res: FuzzResponse, out: Violation[]): void {
  const type = header(res, 'content-type') ?? '';
  if (req.method === 'HEAD' || res.status === 204 || res.status === 304) return;
  if (/text\/event-stream/.test(type)) {
    if (!/^event: start\n/m.test(res.body)) out.push({ rule: 'sse', detail: 'stream without a start event' });
    else if (res.body.length < 256 * 1024 && !/^event: complete\n/m.test(res.body)) out.push({ rule: 'sse', detail: 'stream ended without a complete event' });
    return;
  }
  if (!type && res.body.length) out.push({ rule: 'content-type', detail: `${res.status} with a body and no Content-Type` });
  if (req.family === 'mcp' || req.raw || res.body.length >= 256 * 1024) return;
  const schema = req.target === 'docs' ? docsSuccessSchema(req, res.status) : req.family === 'assistant-ask' ? AssistantAskResponse : undefined;
  if (!schema) return;
  if (!/^application\/json/.test(type)) return void out.push({ rule: 'content-type', detail: `${req.path.split('?')[0]} answered ${res.status} as ${type}` });
  const parsed = schema.safeParse(parseJson(res.body));
  if (!parsed.success) out.push({ rule: 'contract', detail: `${req.path.split('?')[0]} ${res.status}: ${parsed.error.issues[0]?.message} at ${parsed.error.issues[0]?.path.join('.')}` });
}

/** Every rule the response breaks (empty when it is a good answer). */
export function checkResponse(req: FuzzRequest, res: FuzzResponse): Violation[] {
  const out: Violation[] = [];
  if (res.failure?.startsWith('client-refused')) return out;
  if (res.failure) {
    // A raw request the server closed on without a word is Node's own parser refusing it: noted, not a crash.
    if (req.raw && res.failure === 'closed') return out;
    out.push({ rule: 'no-answer', detail: `${res.failure} (status ${res.status || 'none'})` });
    return out;
  }
  if (res.status >= 500) out.push({ rule: '5xx', detail: `${res.status}: ${res.body.slice(0, 160)}` });
  if (!req.raw) {
    const rateHeader = req.target === 'docs' ? 'ratelimit-limit' : 'x-ratelimit-limit';
    if (header(res, rateHeader) === undefined) out.push({ rule: 'rate-limit-headers', detail: `${res.status} without ${rateHeader}` });
  }
  if (res.status >= 400) checkEnvelope(req, res, out);
  else if (res.status >= 200 && res.status < 300) checkSuccess(req, res, out);
  return out;
}
