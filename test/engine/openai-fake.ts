/**
 * A loopback HTTP server that speaks the OpenAI chat-completions streaming protocol (the only fake the engine tests
 * use). Each test installs a handler; every request is recorded (headers + parsed JSON body).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface Recorded { method: string; url: string; headers: IncomingMessage['headers']; body: any }
export type Handler = (req: IncomingMessage, res: ServerResponse, body: any, n: number) => void | Promise<void>;

export interface FakeOpenAi {
  baseUrl: string;
  requests: Recorded[];
  handle(h: Handler): void;
  close(): Promise<void>;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  let handler: Handler = (_req, res) => {
    res.writeHead(500).end('no handler');
  };
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (raw += d));
    req.on('end', () => {
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      Promise.resolve(handler(req, res, body, requests.length)).catch((err) => {
        res.destroy(err as Error);
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    handle(h) {
      handler = h;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A fake for the enclosing suite (or file): started before its tests, its record emptied before each, closed after. */
export function useFakeOpenAi(): FakeOpenAi {
  const fake = {} as FakeOpenAi;
  beforeAll(async () => {
    Object.assign(fake, await startFakeOpenAi());
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });
  return fake;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes an SSE chat-completions stream: one chunk per piece (with a pause), then [DONE]. */
export async function streamPieces(res: ServerResponse, pieces: string[], opts: { delayMs?: number; done?: boolean; end?: boolean } = {}): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant' } }] })}\n\n`);
  res.write(': keep-alive\n\n');
  for (const p of pieces) {
    if (opts.delayMs) await sleep(opts.delayMs);
    res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: p } }] })}\n\n`);
  }
  if (opts.done !== false) res.write('data: [DONE]\n\n');
  if (opts.end !== false) res.end();
}

/** A port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
