// A loopback server speaking OpenAI chat completions (streaming and not), whose
// behaviour the test switches: answer, fail, hang, or trickle forever.
import { createServer, type Server } from 'node:http';

export type LlmMode = 'ok' | 'error' | 'hang' | 'trickle';

export interface FakeLlm {
  baseUrl: string;
  mode: LlmMode;
  /** Requests received / requests whose client (the gateway) went away before the end. */
  received: number;
  closedEarly: number;
  close(): Promise<void>;
}

export const FAKE_ANSWER = ['The fake ', 'model says: ', 'see the docs.'];

export async function startFakeLlm(initial: LlmMode = 'ok'): Promise<FakeLlm> {
  const state = { mode: initial, received: 0, closedEarly: 0 };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (!req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      state.received++;
      let finished = false;
      res.on('close', () => {
        if (!finished) state.closedEarly++;
      });
      const stream = (() => {
        try {
          return Boolean((JSON.parse(body) as { stream?: boolean }).stream);
        } catch {
          return false;
        }
      })();
      const mode = state.mode;
      if (mode === 'error') {
        finished = true;
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
        return;
      }
      if (mode === 'hang') return; // never answers
      if (!stream) {
        finished = true;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: FAKE_ANSWER.join('') }, finish_reason: 'stop' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (content: string) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
      if (mode === 'trickle') {
        res.write(chunk('Thinking'));
        const timer = setInterval(() => res.write(chunk('.')), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      for (const piece of FAKE_ANSWER) res.write(chunk(piece));
      res.write('data: [DONE]\n\n');
      finished = true;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get mode() {
      return state.mode;
    },
    set mode(m: LlmMode) {
      state.mode = m;
    },
    get received() {
      return state.received;
    },
    get closedEarly() {
      return state.closedEarly;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
