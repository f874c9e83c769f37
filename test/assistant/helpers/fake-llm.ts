// A loopback server that speaks the OpenAI chat-completions protocol (streaming and
// not): the only fake in the assistant tests. The gateway talks to it over real HTTP
// exactly as it would talk to Ollama, llama.cpp's server, vLLM or a hosted API.
//
// Modes:
//   ok         stream `pieces` as chunks (a short pause between them), then [DONE]
//   gated      stream the first piece, then wait until release() before the rest
//   hang       accept the request and never answer (the gateway's timeout must fire)
//   error      answer HTTP 500 with an OpenAI-style error body
//   midstream  stream two pieces, then destroy the connection
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FakeMode = 'ok' | 'gated' | 'hang' | 'error' | 'midstream';

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    stream?: boolean;
    messages?: { role: string; content: string }[];
    [k: string]: unknown;
  };
}

export interface FakeLlm {
  /** Base URL to put in LLM_BASE_URL (ends in /v1). */
  baseUrl: string;
  mode: FakeMode;
  /** The answer, as the chunks to stream. */
  pieces: string[];
  requests: RecordedRequest[];
  /** Lets a `gated` answer finish. */
  release(): void;
  close(): Promise<void>;
}

export const defaultPieces = ['Robin led the ', 'Harbor docs search project ', 'in 2024, according to ', 'the Projects page.'];

export async function startFakeLlm(): Promise<FakeLlm> {
  const sockets = new Set<Socket>();
  let releaseGate: () => void = () => {};
  let gate = Promise.resolve();
  const resetGate = () => {
    gate = new Promise<void>((resolve) => (releaseGate = resolve));
  };
  resetGate();

  const fake: FakeLlm = {
    baseUrl: '',
    mode: 'ok',
    pieces: [...defaultPieces],
    requests: [],
    release: () => {
      releaseGate();
      resetGate();
    },
    close: async () => {},
  };

  const chunk = (id: string, model: string, delta: Record<string, string>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model' }] }));
      return;
    }
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      return;
    }
    let raw = '';
    for await (const d of req) raw += d;
    const body = JSON.parse(raw) as RecordedRequest['body'];
    fake.requests.push({ path, headers: req.headers, body });
    const model = body.model ?? 'fake-model';
    const id = `chatcmpl-${fake.requests.length}`;

    switch (fake.mode) {
      case 'hang':
        return; // never answer; the socket stays open until the client gives up
      case 'error':
        res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: 'model crashed', type: 'server_error' } }));
        return;
    }

    if (!body.stream) {
      const content = fake.pieces.join('');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({ id, object: 'chat.completion', model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }),
      );
      return;
    }

    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.flushHeaders();
    res.write(chunk(id, model, { role: 'assistant', content: '' }));
    const pieces = [...fake.pieces];
    for (const [i, piece] of pieces.entries()) {
      if (fake.mode === 'midstream' && i === 2) {
        res.socket?.destroy();
        return;
      }
      if (fake.mode === 'gated' && i === 1) await gate;
      else if (i > 0) await new Promise((r) => setTimeout(r, 25));
      if (res.destroyed) return;
      res.write(chunk(id, model, { content: piece }));
    }
    res.write(chunk(id, model, {}, 'stop'));
    res.end('data: [DONE]\n\n');
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    s.setNoDelay(true);
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      fake.release();
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return fake;
}
