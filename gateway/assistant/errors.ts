// The assistant's error envelope `{error, code}`: one class to throw, one function
// that turns anything thrown into the envelope Response. An AssistantError is an h3
// HTTPError, so its headers travel with the throw (h3 drops headers set on event.res when
// a handler throws); HTTPErrors of the shared modules (body reader, MCP wiring) map by status.
import { HTTPError } from 'h3';
import { errorStatus, type ErrorCode } from '../contract/assistant-api.ts';
import { errorHeaders } from '../http/fast-response.ts';

export class AssistantError extends HTTPError {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}, options?: { cause?: unknown }) {
    super({ status: errorStatus[code], message, headers, cause: options?.cause });
    this.code = code;
  }
}

const codeByStatus: Record<number, ErrorCode> = {
  400: 'invalid_request',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

export function errorBody(code: ErrorCode, message: string): string {
  return JSON.stringify({ error: message, code });
}

export function envelopeResponse(code: ErrorCode, message: string, headers: Record<string, string> = {}): Response {
  return new Response(errorBody(code, message), {
    status: errorStatus[code],
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

/** Anything thrown (AssistantError, h3 HTTPError, a bug) → the envelope. Unexpected errors are logged, not leaked. */
export function toErrorResponse(err: unknown): Response {
  if (err instanceof AssistantError) return envelopeResponse(err.code, err.message, errorHeaders(err));
  if (HTTPError.isError(err)) {
    const code = codeByStatus[err.status] ?? (err.status >= 500 ? 'internal_error' : 'invalid_request');
    const headers = errorHeaders(err);
    delete headers['content-type'];
    const message = err.status >= 500 || err.unhandled ? 'Internal server error' : err.message || err.statusText || 'Invalid request';
    if (err.status >= 500) console.error('[assistant]', err.cause ?? err);
    return envelopeResponse(code, message, headers);
  }
  // A client that left mid-request gets no answer anyway; only real faults are logged (an attacker must not fill the log).
  if ((err as Error)?.name !== 'AbortError') console.error('[assistant] unexpected error:', err);
  return envelopeResponse('internal_error', 'Internal server error: the request could not be completed; retry with backoff.');
}
