// The soak's traffic: an open-loop mix of every dynamic route at a fixed rate (a
// closed loop would slow down with the server and hide stalls), most of it through
// nginx as readers and agents reach it, a share sent straight to each gateway so an
// error can be pinned on the instance that made it. Every exchange is recorded with
// its route, target, status, latency and whether the body arrived whole (an SSE
// stream must end with its `complete` event).
export type SoakTarget = 'nginx' | 'gateway-0' | 'gateway-1';

export interface Exchange {
  route: string;
  target: SoakTarget;
  status: number;
  ms: number;
  at: number;
  /** Why the exchange is an error ('' when it is not). 429 is never an error. */
  error: string;
}

export interface LoadTargets {
  nginxUrl: string;
  gatewayUrls: () => string[];
  assistantUrls: () => string[];
  pages: string[];
  origin: string;
}

const words = ['search', 'cursor', 'rate limit', 'deploy', 'nginx', 'redis', 'markdown', 'mcp', 'agent', 'health', 'batch', 'jobs', 'streaming', 'cache', 'content', 'build', 'llms.txt', 'openapi', 'errors', 'versioning'];
const questions = ['how do I deploy behind nginx', 'what is the rate limit', 'how do cursors work', 'how do I fetch pages as markdown', 'which content types exist', 'how do I connect an MCP client'];

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

interface Route {
  name: string;
  weight: number;
  /** Docs routes can go through nginx or straight to a gateway; assistant routes go to a gateway's assistant port. */
  app: 'docs' | 'assistant';
  send(base: string, targets: LoadTargets): Promise<{ status: number; error: string }>;
}

async function exchange(url: string, init: RequestInit = {}, check?: (body: string) => string): Promise<{ status: number; error: string }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    const body = await res.text();
    if (res.status === 429) return { status: 429, error: '' };
    if (res.status >= 400) return { status: res.status, error: `${res.status} ${/"code":"(\w+)"/.exec(body)?.[1] ?? ''} ${body.slice(0, 120)}` };
    return { status: res.status, error: check?.(body) ?? '' };
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string } }).cause?.code;
    return { status: 0, error: `no answer: ${cause ?? (error as Error).name}` };
  }
}

const json = (body: unknown, extra: Record<string, string> = {}): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json', ...extra }, body: JSON.stringify(body) });
const streamComplete = (body: string) => (/^event: complete$/m.test(body) ? '' : 'stream lost before its complete event');

const routes: Route[] = [
  { name: 'search (limit 10)', weight: 20, app: 'docs', send: (base) => exchange(`${base}/api/search?query=${encodeURIComponent(pick(words))}&limit=10`) },
  { name: 'search (unlimited)', weight: 4, app: 'docs', send: (base) => exchange(`${base}/api/search?query=${encodeURIComponent(pick(words))}`) },
  { name: 'ask (JSON)', weight: 10, app: 'docs', send: (base) => exchange(`${base}/ask?query=${encodeURIComponent(pick(questions))}`) },
  { name: 'ask (SSE)', weight: 5, app: 'docs', send: (base) => exchange(`${base}/ask?query=${encodeURIComponent(pick(questions))}&streaming=true`, {}, streamComplete) },
  { name: 'ask generate (model)', weight: 3, app: 'docs', send: (base) => exchange(`${base}/ask`, json({ query: pick(questions), mode: 'generate' })) },
  { name: 'batch', weight: 8, app: 'docs', send: (base, t) => exchange(`${base}/api/md/batch`, json({ paths: Array.from({ length: 5 }, () => pick(t.pages)) })) },
  {
    name: 'batch job + poll',
    weight: 4,
    app: 'docs',
    async send(base, t) {
      const accepted = await fetch(`${base}/api/md/batch?async=1`, { ...json({ paths: [pick(t.pages)] }), signal: AbortSignal.timeout(30_000) }).catch(() => undefined);
      if (!accepted) return { status: 0, error: 'no answer: job submit' };
      const body = (await accepted.json().catch(() => ({}))) as { status_url?: string };
      if (accepted.status === 429) return { status: 429, error: '' };
      if (accepted.status !== 202 || !body.status_url) return { status: accepted.status, error: `job submit ${accepted.status}` };
      return exchange(`${base}${body.status_url}`);
    },
  },
  { name: 'health', weight: 2, app: 'docs', send: (base) => exchange(`${base}/api/health`) },
  {
    name: 'mcp tools/call search',
    weight: 5,
    app: 'docs',
    send: (base) => exchange(`${base}/api/mcp`, json({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: pick(words), limit: 5 } } }, { accept: 'application/json, text/event-stream' }), (body) => (body.includes('"result"') ? '' : `MCP answer without a result: ${body.slice(0, 120)}`)),
  },
  { name: 'page', weight: 8, app: 'docs', send: (base, t) => exchange(`${base}${pick(t.pages)}`) },
  { name: 'assistant ask', weight: 3, app: 'assistant', send: (base) => exchange(`${base}/ask`, json({ query: 'What does Robin write about?' })) },
  { name: 'assistant chat', weight: 3, app: 'assistant', send: (base, t) => exchange(`${base}/api/chat`, json({ messages: [{ role: 'user', content: 'Which projects has Robin led?' }] }, { origin: t.origin })) },
];
const totalWeight = routes.reduce((n, r) => n + r.weight, 0);

function pickRoute(): Route {
  let at = Math.random() * totalWeight;
  for (const route of routes) if ((at -= route.weight) < 0) return route;
  return routes[0]!;
}

/** Sends `rate` requests a second for `seconds`, at most `maxInFlight` at once; resolves with every exchange and how many were not sent for the cap. */
export async function runLoad(targets: LoadTargets, options: { rate: number; seconds: number; maxInFlight: number; directShare: number; started: number }): Promise<{ exchanges: Exchange[]; skipped: number }> {
  const exchanges: Exchange[] = [];
  let inFlight = 0;
  let skipped = 0;
  const pending = new Set<Promise<void>>();
  const tickMs = 20;
  const perTick = (options.rate * tickMs) / 1000;
  let credit = 0;
  const end = Date.now() + options.seconds * 1000;
  while (Date.now() < end) {
    credit += perTick;
    while (credit >= 1) {
      credit--;
      if (inFlight >= options.maxInFlight) {
        skipped++;
        continue;
      }
      const route = pickRoute();
      const index = Math.floor(Math.random() * 2);
      const direct = route.app === 'assistant' || Math.random() < options.directShare;
      const target: SoakTarget = direct ? (`gateway-${index}` as SoakTarget) : 'nginx';
      const base = route.app === 'assistant' ? targets.assistantUrls()[index]! : direct ? targets.gatewayUrls()[index]! : targets.nginxUrl;
      const sent = performance.now();
      const at = (Date.now() - options.started) / 1000;
      inFlight++;
      const promise = route.send(base, targets).then(({ status, error }) => {
        inFlight--;
        exchanges.push({ route: route.name, target, status, ms: performance.now() - sent, at, error });
      });
      pending.add(promise);
      void promise.finally(() => pending.delete(promise));
    }
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  await Promise.all(pending);
  return { exchanges, skipped };
}
