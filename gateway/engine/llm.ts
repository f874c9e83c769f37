/**
 * OpenAI-compatible chat completions client with streaming (no SDK: fetch + a small SSE reader).
 * Works with OpenAI, Ollama (`http://localhost:11434/v1`), llama.cpp's server (`http://localhost:8080/v1`), vLLM, …
 *
 * - POST `<baseUrl>/chat/completions` with `stream: true`; reads `data: {choices:[{delta:{content}}]}` … `data: [DONE]`
 *   (a non-streaming JSON answer is accepted too).
 * - `Authorization: Bearer <apiKey>` when an API key is configured.
 * - connectTimeoutMs bounds each attempt until the response headers arrive; totalTimeoutMs bounds the whole call
 *   (all attempts, backoff and streaming); the caller's signal aborts everything.
 * - Before the first token only: connect errors, connect timeouts, 5xx and 429 are retried up to `retries` times with
 *   exponential backoff (250 ms, 500 ms, 1 s, … capped at 4 s; a short Retry-After is honoured).
 * - Everything that makes the backend unusable surfaces as LlmUnavailableError; an abort by the caller's signal
 *   rethrows the signal's reason.
 */

export interface LlmConfig {
  baseUrl: string;
  model: string;
  apiKey?: string;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  retries: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface StreamChatOptions {
  signal?: AbortSignal;
  temperature?: number;
  maxTokens?: number;
}

export interface LlmClient {
  readonly model: string;
  /** Streams the assistant's reply as text pieces. Throws LlmUnavailableError when the backend is unusable. */
  streamChat(messages: ChatMessage[], opts?: StreamChatOptions): AsyncIterable<string>;
}

export type LlmFailureKind = 'connect' | 'timeout' | 'http' | 'protocol';

export class LlmUnavailableError extends Error {
  override name = 'LlmUnavailableError';
  readonly kind: LlmFailureKind;
  readonly status: number | undefined;
  readonly attempts: number;
  /** True when part of the answer had already been streamed when the failure happened. */
  readonly partial: boolean;
  constructor(message: string, opts: { kind: LlmFailureKind; status?: number; attempts?: number; partial?: boolean; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.kind = opts.kind;
    this.status = opts.status;
    this.attempts = opts.attempts ?? 1;
    this.partial = opts.partial ?? false;
  }
}

const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 4000;

/** Backoff before retry `attempt` (1-based): 250 ms · 2^(attempt-1), capped. */
export function backoffMs(attempt: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

export function chatCompletionsUrl(baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  return /\/chat\/completions$/.test(base) ? base : `${base}/chat/completions`;
}

class RetryableError extends Error {
  readonly kind: LlmFailureKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  constructor(message: string, kind: LlmFailureKind, status?: number, retryAfterMs?: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.kind = kind;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function describeFetchError(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const code = e?.cause?.code;
  return code ? `${code}${e.cause?.message ? ` (${e.cause.message})` : ''}` : (e?.cause?.message ?? e?.message ?? String(err));
}

function parseRetryAfter(v: string | null): number | undefined {
  if (!v) return undefined;
  const s = Number(v);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const d = Date.parse(v);
  return Number.isFinite(d) ? Math.max(0, d - Date.now()) : undefined;
}

/** Extracts text from one parsed chunk (streaming delta, or a whole non-streaming message). */
function chunkText(json: unknown): string {
  const choices = (json as { choices?: unknown })?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return '';
  const c = choices[0] as { delta?: { content?: unknown }; message?: { content?: unknown }; text?: unknown };
  const v = c.delta?.content ?? c.message?.content ?? c.text;
  return typeof v === 'string' ? v : '';
}

export function createLlmClient(cfg: LlmConfig): LlmClient {
  const url = chatCompletionsUrl(cfg.baseUrl);
  const retries = Math.max(0, Math.floor(cfg.retries));

  async function* streamChat(messages: ChatMessage[], opts: StreamChatOptions = {}): AsyncGenerator<string> {
    const caller = opts.signal;
    caller?.throwIfAborted();
    const total = AbortSignal.timeout(cfg.totalTimeoutMs);
    const overall = caller ? AbortSignal.any([caller, total]) : total;
    const body = JSON.stringify({
      model: cfg.model,
      messages,
      stream: true,
      ...(opts.temperature === undefined ? {} : { temperature: opts.temperature }),
      ...(opts.maxTokens === undefined ? {} : { max_tokens: opts.maxTokens }),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream, application/json' };
    if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;

    /** Maps an abort to the right error: caller → its reason; total timeout → LlmUnavailableError. */
    const abortError = (attempts: number, partial: boolean): unknown => {
      if (caller?.aborted) return caller.reason;
      return new LlmUnavailableError(`model backend timed out after ${cfg.totalTimeoutMs} ms`, { kind: 'timeout', attempts, partial });
    };

    let attempt = 0;
    let last: RetryableError | undefined;
    for (;;) {
      attempt++;
      if (attempt > 1) {
        const wait = Math.max(backoffMs(attempt - 1), Math.min(last?.retryAfterMs ?? 0, BACKOFF_CAP_MS));
        try {
          await sleep(wait, overall);
        } catch {
          throw abortError(attempt - 1, false);
        }
      }
      const connect = new AbortController();
      const connectTimer = setTimeout(() => connect.abort(new Error('connect timeout')), cfg.connectTimeoutMs);
      const signal = AbortSignal.any([overall, connect.signal]);
      let res: Response;
      try {
        res = await fetch(url, { method: 'POST', headers, body, signal });
      } catch (err) {
        clearTimeout(connectTimer);
        if (overall.aborted) throw abortError(attempt, false);
        last = connect.signal.aborted
          ? new RetryableError(`no response within ${cfg.connectTimeoutMs} ms`, 'timeout', undefined, undefined, err)
          : new RetryableError(`cannot reach ${url}: ${describeFetchError(err)}`, 'connect', undefined, undefined, err);
        if (attempt <= retries) continue;
        throw new LlmUnavailableError(`model backend unavailable: ${last.message}`, { kind: last.kind, attempts: attempt, cause: err });
      }
      clearTimeout(connectTimer);

      if (!res.ok) {
        let detail = '';
        try {
          detail = (await res.text()).slice(0, 300).replace(/\s+/g, ' ').trim();
        } catch {
          /* ignore */
        }
        const msg = `HTTP ${res.status}${detail ? `: ${detail}` : ''}`;
        if (res.status >= 500 || res.status === 429) {
          last = new RetryableError(msg, 'http', res.status, parseRetryAfter(res.headers.get('retry-after')));
          if (attempt <= retries) continue;
        }
        throw new LlmUnavailableError(`model backend answered ${msg}`, { kind: 'http', status: res.status, attempts: attempt });
      }

      // Stream the body. From here on nothing is retried once a token has been yielded.
      let yielded = false;
      const ctype = res.headers.get('content-type') ?? '';
      try {
        if (!res.body) throw new LlmUnavailableError('model backend sent no body', { kind: 'protocol', attempts: attempt });
        if (ctype.includes('application/json')) {
          const text = chunkText(JSON.parse(await res.text()));
          if (text) {
            yielded = true;
            yield text;
          }
        } else {
          const decoder = new TextDecoder();
          let buf = '';
          let data: string[] = [];
          let done = false;
          const reader = res.body.getReader();
          try {
            while (!done) {
              const { value, done: eof } = await reader.read();
              if (eof) break;
              buf += decoder.decode(value, { stream: true });
              let nl: number;
              while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
                const line = buf.slice(0, nl);
                buf = buf.slice(nl + (buf[nl] === '\r' && buf[nl + 1] === '\n' ? 2 : 1));
                if (line === '') {
                  // end of event
                  if (data.length) {
                    const payload = data.join('\n');
                    data = [];
                    if (payload.trim() === '[DONE]') {
                      done = true;
                      break;
                    }
                    let json: unknown;
                    try {
                      json = JSON.parse(payload);
                    } catch {
                      throw new LlmUnavailableError(`model backend sent invalid JSON in its stream: ${payload.slice(0, 100)}`, { kind: 'protocol', attempts: attempt, partial: yielded });
                    }
                    const err = (json as { error?: { message?: string } | string })?.error;
                    if (err) throw new LlmUnavailableError(`model backend reported an error: ${typeof err === 'string' ? err : (err.message ?? JSON.stringify(err))}`, { kind: 'protocol', attempts: attempt, partial: yielded });
                    const text = chunkText(json);
                    if (text) {
                      yielded = true;
                      yield text;
                    }
                  }
                  continue;
                }
                if (line.startsWith(':')) continue; // comment / keep-alive
                const colon = line.indexOf(':');
                const field = colon < 0 ? line : line.slice(0, colon);
                let value2 = colon < 0 ? '' : line.slice(colon + 1);
                if (value2.startsWith(' ')) value2 = value2.slice(1);
                if (field === 'data') data.push(value2);
              }
            }
            // a final event without its blank line
            if (!done && data.length && data.join('\n').trim() !== '[DONE]') {
              const text = chunkText(JSON.parse(data.join('\n')));
              if (text) {
                yielded = true;
                yield text;
              }
            }
          } finally {
            reader.cancel().catch(() => {});
          }
        }
      } catch (err) {
        if (overall.aborted) throw abortError(attempt, yielded);
        if (err instanceof LlmUnavailableError) throw err;
        throw new LlmUnavailableError(`model stream failed: ${describeFetchError(err)}`, { kind: 'protocol', attempts: attempt, partial: yielded, cause: err });
      }
      if (!yielded) throw new LlmUnavailableError('model backend returned an empty answer', { kind: 'protocol', attempts: attempt });
      return;
    }
  }

  return { model: cfg.model, streamChat };
}
