// A loopback HTTP server that speaks the OpenAI chat-completions protocol: the only
// fake in the tests (test/helpers/openai-server.ts binds it to a suite), and the model
// of the soak run. The code under test talks to it over real HTTP exactly as it
// would talk to Ollama, llama.cpp's server, vLLM or a hosted API.
//
// POST …/chat/completions is recorded, then answered according to the mode:
//   ok         stream `pieces` as SSE chunks (`delayMs` before each), then `data: [DONE]`
//   gated      stream the first piece, then wait until release() before the rest
//   trickle    stream the pieces, then a '.' every `delayMs` (default 100) until the client leaves
//   midstream  stream the pieces, then drop the connection (no [DONE])
//   hang       accept the request and never answer
//   error      answer HTTP `status` (default 500) with an OpenAI-style error body carrying `message`
//   json       answer one non-streaming chat.completion (the pieces joined), whatever was asked
// or by a custom handler, for tests of the client's handling of the wire itself.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { freePort } from './gateway-process.ts';

export type Mode = 'ok' | 'gated' | 'trickle' | 'midstream' | 'hang' | 'error' | 'json';

/** Answers the n-th recorded request (1-based) itself. */
export type Handler = (res: ServerResponse, n: number) => void | Promise<void>;

export interface Answer {
  /** The answer, as the chunks to stream. */
  pieces?: string[];
  /** Pause before each piece (and before a midstream drop); the trickle interval. */
  delayMs?: number;
  /** `error` mode: the HTTP status and the error message. */
  status?: number;
  message?: string;
}

export interface RecordedRequest {
  method: string;
  /** As sent, with any query string. */
  url: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: { model: string; stream?: boolean; messages: { role: string; content: string }[]; [k: string]: unknown };
}

export interface OpenAiServer {
  /** Base URL for the client (LLM_BASE_URL): http://127.0.0.1:<port>/v1 */
  url: string;
  requests: RecordedRequest[];
  /** Answers that ended before they were complete (the client went away, or a midstream drop). */
  closedEarly: number;
  /** Switches the behaviour; what `answer` leaves out comes from the options the server was started with. */
  setMode(mode: Mode | Handler, answer?: Answer): void;
  /** Lets a `gated` answer finish. */
  release(): void;
  close(): Promise<void>;
}

const chunk = (delta: { role?: string; content?: string }, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** One SSE event carrying a piece of the answer. */
export const sseChunk = (content: string): string => chunk({ content });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes and resolves once the data has been handed to the socket. */
const send = (res: ServerResponse, data: string) => new Promise<void>((resolve) => res.write(data, () => resolve()));

export type Options = Answer & { mode?: Mode };

export async function startOpenAiServer(options: Options = {}): Promise<OpenAiServer> {
  const { api, listen } = openAiServer(options);
  await listen();
  return api;
}

/** A loopback port with nothing listening on it: connections are refused. */
export const closedPort = freePort;

export function openAiServer(options: Options): { api: OpenAiServer; listen(): Promise<void> } {
  const started = { pieces: ['Hello from ', 'the fake model.'], delayMs: 0, status: 500, message: 'model crashed', ...options };
  let mode: Mode | Handler = options.mode ?? 'ok';
  let answer: Required<Answer> = started;
  let release = () => {};
  let gate = new Promise<void>((r) => (release = r));

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
      else res.destroy();
    });
  });

  const api: OpenAiServer = {
    url: '',
    requests: [],
    closedEarly: 0,
    setMode(m, a = {}) {
      mode = m;
      answer = { ...started, ...a };
    },
    release() {
      release();
      gate = new Promise<void>((r) => (release = r));
    },
    async close() {
      api.release();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const path = new URL(url, 'http://x').pathname;
    let raw = '';
    for await (const d of req) raw += d;
    const fail = (status: number, message: string, type: string) =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, type } }));
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) return fail(404, 'not found', 'invalid_request_error');
    let body: RecordedRequest['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      return fail(400, 'invalid JSON', 'invalid_request_error');
    }
    api.requests.push({ method: req.method, url, path, headers: req.headers, body });
    res.on('close', () => {
      if (!res.writableFinished) api.closedEarly++;
    });

    const m = mode;
    const { pieces, delayMs, status, message } = answer;
    if (typeof m === 'function') return m(res, api.requests.length);
    switch (m) {
      case 'hang':
        return;
      case 'error':
        return fail(status, message, 'server_error');
      case 'json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: pieces.join('') }, finish_reason: 'stop' }] }));
        return;
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant' }));
    res.write(': keep-alive\n\n');
    for (const [i, piece] of pieces.entries()) {
      if (m === 'gated' && i === 1) await gate;
      if (delayMs) await sleep(delayMs);
      if (res.destroyed) return;
      await send(res, sseChunk(piece));
    }
    if (m === 'midstream') {
      if (delayMs) await sleep(delayMs);
      res.destroy();
      return;
    }
    if (m === 'trickle') {
      const timer = setInterval(() => res.write(sseChunk('.')), delayMs || 100);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  }

  server.on('connection', (s) => {
    s.setNoDelay(true);
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  async function listen(): Promise<void> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }
  return { api, listen };
}
