// The Node server under both apps (gateway/http/node-server.ts): Node's own client
// errors in each API's envelope, the request and header timeouts, and the graceful
// shutdown on SIGTERM with SSE streams of both apps in flight.
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Problem } from '../../gateway/contract/docs-api.ts';
import { problemCatalogue, type ProblemSlug } from '../../gateway/contract/problems.ts';
import { startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { fixtureBuild } from '../helpers/manifest.ts';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server.ts';
import { expectValid, roomyEnv } from './helpers.ts';

const { distDir, site } = fixtureBuild();

interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Writes `bytes` on a fresh connection (and `more` after a pause, if given) and reads until the server closes it. */
function raw(baseUrl: string, bytes: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`));
      resolve({ status: Number(text.split(' ')[1]), head: text.slice(0, split).toLowerCase(), body: text.slice(split + 4) });
    });
    socket.write(bytes);
  });
}

function expectRawProblem(answer: RawAnswer, slug: ProblemSlug): void {
  const kind = problemCatalogue[slug];
  expect(answer.status).toBe(kind.status);
  expect(answer.head).toContain('content-type: application/json');
  expect(answer.head).toContain('connection: close');
  const body = expectValid(Problem, JSON.parse(answer.body));
  expect(body.type).toBe(`${site}/docs/api/errors#${slug}`);
  expect(body.title).toBe(kind.title);
}

describe("Node's own client errors and the timeouts", () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway(distDir, { ...roomyEnv, ASSISTANT_ENABLED: 'true', SITE_URL: site, REQUEST_TIMEOUT_MS: '2000', HEADERS_TIMEOUT_MS: '1000' });
  });
  afterAll(() => gw?.stop());

  it('answers a URL over 16 KiB with a 431 Problem (docs) and the envelope (assistant)', async () => {
    const long = `GET /api/search?query=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`;
    expectRawProblem(await raw(gw.url, long), 'request-header-fields-too-large');
    const assistant = await raw(gw.assistantUrl, long);
    expect(assistant.status).toBe(431);
    expect(JSON.parse(assistant.body)).toEqual({ error: expect.any(String), code: 'invalid_request' });
  });

  it('answers a control byte in a header with a 400 Problem (docs) and the envelope (assistant)', async () => {
    const bad = 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n';
    expectRawProblem(await raw(gw.url, bad), 'bad-request');
    const assistant = await raw(gw.assistantUrl, bad);
    expect(assistant.status).toBe(400);
    expect(JSON.parse(assistant.body).code).toBe('invalid_request');
  });

  it('closes a request whose body stalls with a 408 Problem, and one whose headers stall', async () => {
    // 100 bytes announced, 5 sent: the request timeout (2 s here) ends it, not Node's 300 s
    const stalledBody = 'POST /api/md/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"pat';
    expectRawProblem(await raw(gw.url, stalledBody), 'request-timeout');
    expectRawProblem(await raw(gw.url, 'GET /api/health HTTP/1.1\r\nHost: x\r\n'), 'request-timeout');
    // the server still answers
    expect((await fetch(`${gw.url}/api/health`)).status).toBe(200);
  });
});

describe('SIGTERM drains both apps', () => {
  let gw: RunningGateway;
  let llm: OpenAiServer;
  beforeAll(async () => {
    llm = await startOpenAiServer({ mode: 'gated', pieces: ['First piece. ', 'Second piece.'] });
    gw = await startGateway(distDir, { ...roomyEnv, ASSISTANT_ENABLED: 'true', SITE_URL: site, LLM_BASE_URL: llm.url, LLM_MODEL: 'fake-model', LLM_RETRIES: '0' });
  });
  afterAll(async () => {
    await gw?.stop();
    await llm?.close();
  });

  /** GET on a kept-alive connection of `agent`. */
  const get = (agent: Agent, url: string) =>
    new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      request(url, { agent }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      })
        .on('error', reject)
        .end();
    });

  /** Starts an SSE answer and resolves once its first bytes arrived; `rest` resolves with the whole text. */
  async function streamInFlight(res: Promise<Response>): Promise<{ rest: Promise<string> }> {
    const reader = (await res).body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = (await reader.read()).value ?? '';
    const rest = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += value;
      }
    })();
    return { rest };
  }

  it('stops accepting, answers health 503 meanwhile, lets the streams finish, then exits 0', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(agent, `${gw.url}/api/health`)).status).toBe(200);
    const docsStream = await streamInFlight(fetch(`${gw.url}/ask?query=install&mode=generate&streaming=true`));
    const assistantStream = await streamInFlight(
      fetch(`${gw.assistantUrl}/ask`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ query: 'What does Robin do?' }) }),
    );
    while (llm.requests.length < 2) await new Promise((r) => setTimeout(r, 20));

    const exited = once(gw.process, 'exit');
    gw.process.kill('SIGTERM');
    while (!gw.output().includes('SIGTERM: draining')) await new Promise((r) => setTimeout(r, 10));

    // a request on a connection already open is answered, and told to close it
    const health = await get(agent, `${gw.url}/api/health`);
    expect(health.status).toBe(503);
    expect(health.connection).toBe('close');
    expect(expectValid(Problem, JSON.parse(health.body)).detail).toMatch(/shutting down/);
    // new connections are refused, on both ports
    for (const url of [gw.url, gw.assistantUrl]) {
      const { hostname, port } = new URL(url);
      const socket = connect(Number(port), hostname);
      const [err] = (await once(socket, 'error')) as [NodeJS.ErrnoException];
      expect(err.code).toBe('ECONNREFUSED');
    }
    expect(gw.process.exitCode).toBeNull();

    llm.release();
    const [docsText, assistantText] = await Promise.all([docsStream.rest, assistantStream.rest]);
    expect(docsText).toContain('Second piece.');
    expect(docsText).toContain('event: complete');
    expect(assistantText).toContain('event: complete');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(gw.output()).toContain('SIGTERM: stopped');
    agent.destroy();
  });
});
