// Sends one fuzz request and collects what came back: status, headers and body (up to
// a cap, so an unlimited search answer does not fill memory), or how the exchange
// failed (reset, closed without an answer, timed out). Ordinary requests go through
// node:http with a keep-alive agent; raw ones are written to a socket byte for byte.
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import type { FuzzRequest } from './requests.ts';

export interface FuzzResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Set when no complete answer came: 'timeout', 'reset', 'closed' or an error code. */
  failure?: string;
  ms: number;
}

const BODY_CAP = 256 * 1024;
const TIMEOUT_MS = 15_000;

/** The payload of a chunked body (as far as it arrived). */
function dechunk(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
  return out;
}

export function createSender(urls: { docs: string; assistant: string }, concurrency: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const base = { docs: new URL(urls.docs), assistant: new URL(urls.assistant) };

  function sendHttp(req: FuzzRequest): Promise<FuzzResponse> {
    const started = performance.now();
    const url = base[req.target];
    return new Promise((resolve) => {
      let settled = false;
      const finish = (response: Omit<FuzzResponse, 'ms'>) => {
        if (settled) return;
        settled = true;
        resolve({ ...response, ms: performance.now() - started });
      };
      let outgoing;
      try {
        const body = req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body) : Buffer.from(req.body);
        outgoing = request({ agent, host: url.hostname, port: url.port, method: req.method, path: req.path, headers: { ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}) }, timeout: TIMEOUT_MS }, (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < BODY_CAP) chunks.push(chunk);
            size += chunk.length;
          });
          res.on('end', () => finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (error) => finish({ status: res.statusCode ?? 0, headers: res.headers, body: '', failure: (error as NodeJS.ErrnoException).code ?? 'response-error' }));
          res.on('aborted', () => finish({ status: res.statusCode ?? 0, headers: res.headers, body: '', failure: 'aborted' }));
        });
        outgoing.on('timeout', () => {
          outgoing!.destroy();
          finish({ status: 0, headers: {}, body: '', failure: 'timeout' });
        });
        outgoing.on('error', (error) => finish({ status: 0, headers: {}, body: '', failure: (error as NodeJS.ErrnoException).code ?? error.message }));
        outgoing.end(body);
      } catch (error) {
        // The client refused to send it (an invalid header value): not the server's doing.
        finish({ status: -1, headers: {}, body: '', failure: `client-refused: ${(error as Error).message}` });
      }
    });
  }

  function sendRaw(req: FuzzRequest): Promise<FuzzResponse> {
    const started = performance.now();
    const url = base[req.target];
    return new Promise((resolve) => {
      const socket = connect({ host: url.hostname, port: Number(url.port) });
      const chunks: Buffer[] = [];
      let settled = false;
      const finish = (failure?: string) => {
        if (settled) return;
        settled = true;
        socket.destroy();
        const text = Buffer.concat(chunks).toString('latin1');
        const head = text.split('\r\n\r\n', 1)[0] ?? '';
        const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(head);
        const headers: Record<string, string> = {};
        for (const line of head.split('\r\n').slice(1)) {
          const colon = line.indexOf(':');
          if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const payload = text.slice(head.length + 4);
        const body = /chunked/i.test(headers['transfer-encoding'] ?? '') ? dechunk(payload) : payload;
        resolve({ status: statusLine ? Number(statusLine[1]) : 0, headers, body: Buffer.from(body, 'latin1').toString('utf8'), failure: statusLine ? undefined : failure ?? 'closed', ms: performance.now() - started });
      };
      socket.setTimeout(5_000, () => finish('timeout'));
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        // One answer is enough: a raw request is never followed by another.
        const text = Buffer.concat(chunks).toString('latin1');
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end));
        if (length && text.length >= end + 4 + Number(length[1])) finish();
        else if (!length && text.endsWith('\r\n0\r\n\r\n')) finish();
      });
      socket.on('error', () => finish('reset'));
      socket.on('close', () => finish('closed'));
      // Then half-close: a request left incomplete on purpose must be answered or closed, not waited on.
      socket.end(req.raw!);
    });
  }

  return {
    send: (req: FuzzRequest) => (req.raw ? sendRaw(req) : sendHttp(req)),
    close: () => agent.destroy(),
  };
}
