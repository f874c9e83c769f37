// Starts the real gateway (`node gateway/server.ts`) for the assistant tests and
// waits until the assistant app (ASSISTANT_PORT) answers too.
import { startGateway, type RunningGateway } from '../../helpers/gateway.ts';
import { startOpenAiServer, type OpenAiServer } from '../../helpers/openai-server.ts';

export const SITE = 'https://portfolio.example.test';

/** The model's answer in the assistant tests, as the chunks it streams. */
export const defaultPieces = ['Robin led the ', 'Harbor docs search project ', 'in 2024, according to ', 'the Projects page.'];

/** The loopback model backend: answers with `defaultPieces`, a short pause before each so that they arrive as several chunks. */
export function startModelServer(): Promise<OpenAiServer> {
  return startOpenAiServer({ pieces: defaultPieces, delayMs: 25 });
}

export async function startAssistantGateway(distDir: string, env: Record<string, string> = {}): Promise<RunningGateway> {
  const gw = await startGateway(distDir, { ASSISTANT_SITE_URL: SITE, ...env });
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      // A static file: does not count against the rate limit.
      const res = await fetch(`${gw.assistantUrl}/llms.txt`);
      await res.arrayBuffer();
      if (res.status === 200) return gw;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await gw.stop();
      throw new Error(`assistant app did not answer on ${gw.assistantUrl}:\n${gw.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const jsonHeaders = { 'Content-Type': 'application/json' };
export const chatHeaders = { ...jsonHeaders, Origin: SITE };

export function chatBody(...contents: string[]): string {
  return JSON.stringify({ messages: contents.map((content, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content })) });
}

/** Reads a body chunk by chunk as the client receives it. */
export async function readChunks(res: Response): Promise<string[]> {
  const chunks: string[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return chunks;
    if (value) chunks.push(value);
  }
}

export interface SseEvent {
  event: string;
  data: unknown;
}

export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      return { event, data: JSON.parse(data) };
    });
}

/** The error envelope, checked: exactly `{error, code}` with a string message. */
export async function envelope(res: Response): Promise<{ error: string; code: string }> {
  const ct = res.headers.get('content-type') ?? '';
  if (!ct.startsWith('application/json')) throw new Error(`expected a JSON error envelope, got ${res.status} ${ct}: ${await res.text()}`);
  const body = (await res.json()) as { error: string; code: string };
  if (typeof body.error !== 'string' || typeof body.code !== 'string' || Object.keys(body).sort().join(',') !== 'code,error') {
    throw new Error(`not an error envelope: ${JSON.stringify(body)}`);
  }
  return body;
}

export function rateHeaders(res: Response): { limit: number; remaining: number; reset: number } {
  const get = (n: string) => {
    const v = res.headers.get(n);
    if (v === null || !/^\d+$/.test(v)) throw new Error(`${n} missing or not an integer on ${res.status} ${res.url}: ${v}`);
    return Number(v);
  };
  return { limit: get('X-RateLimit-Limit'), remaining: get('X-RateLimit-Remaining'), reset: get('X-RateLimit-Reset') };
}
