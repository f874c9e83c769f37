// Rate limits on the real gateway: one budget per client IP and endpoint, the
// /api/v1 alias sharing its endpoint's budget, 429 with Retry-After, headers on
// every response, X-Forwarded-For only per TRUST_PROXY, and the real default of 120.
// (The site's own files and unknown paths: site-limits.test.ts.)
import { describe, expect, it } from 'vitest';
import { fixtureBuild } from '../helpers/manifest.ts';
import { expectProblem, expectRateLimitHeaders, spend, useGateway } from './helpers.ts';

const { distDir, manifest, site } = fixtureBuild();
const page = manifest.pages[0]!;
const MAX = 5;

const env = (extra: Record<string, string> = {}) => ({ RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_WINDOW_S: '60', SEARCH_WORKERS: '1', ASSISTANT_ENABLED: 'false', ...extra });

describe(`RATE_LIMIT_MAX=${MAX}`, () => {
  const gw = useGateway(distDir, env());

  it('counts down per endpoint, then answers 429 with an integer Retry-After', async () => {
    const url = `${gw.url}/api/search?query=install`;
    const ok = await spend(url, MAX);
    ok.forEach((res, i) => {
      expect(res.status).toBe(200);
      expectRateLimitHeaders(res.headers, MAX);
      expect(res.headers.get('ratelimit-policy')).toBe(`${MAX};w=60`);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(MAX - 1 - i));
      const reset = Number(res.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    });
    const over = await fetch(url);
    expect(over.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    const body = await expectProblem(over, 'too-many-requests', site, '/api/search');
    expect(body.detail).toMatch(/retry in \d+ s/);
  });

  it('keeps a separate budget per endpoint, and the /api/v1 alias shares its endpoint budget', async () => {
    // Search is spent by the test above; the others are untouched. (The start-up
    // probe of the test helper used /api/health, so this uses /api/openapi.)
    expect((await fetch(`${gw.url}/api/v1/search?query=install`)).status).toBe(429);
    const plain = await spend(`${gw.url}/api/openapi`, 3);
    expect(plain.map((r) => r.status)).toEqual([200, 200, 200]);
    const v1 = await spend(`${gw.url}/api/v1/openapi`, 2);
    expect(v1.map((r) => r.status)).toEqual([200, 200]);
    expect(v1[1]!.headers.get('ratelimit-remaining')).toBe('0');
    const sixth = await fetch(`${gw.url}/api/openapi`);
    await expectProblem(sixth, 'too-many-requests', site);
    // Other endpoints still have their whole budget.
    const ask = await fetch(`${gw.url}/api/v1/ask?q=install`);
    expect(ask.status).toBe(200);
    expect(ask.headers.get('ratelimit-remaining')).toBe(String(MAX - 1));
    const batch = await fetch(`${gw.url}/api/md/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: [page.path] }) });
    expect(batch.headers.get('ratelimit-remaining')).toBe(String(MAX - 1));
  });

  it('limits discovery files, each file its own budget; pages are under the site flood guard instead', async () => {
    const llms = await spend(`${gw.url}/llms.txt`, MAX);
    expect(llms.every((r) => r.status === 200)).toBe(true);
    const over = await fetch(`${gw.url}/llms.txt`);
    await expectProblem(over, 'too-many-requests', site, '/llms.txt');
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    // Pages: one flood guard for the whole site (test/gateway/site-limits.test.ts).
    const pages = await spend(`${gw.url}${page.path}`, MAX + 1);
    expect(pages.every((r) => r.status === 200)).toBe(true);
    expectRateLimitHeaders(pages[0]!.headers, 1200);
    const catalog = await fetch(`${gw.url}/.well-known/api-catalog`);
    expect(catalog.status).toBe(200);
    expect(catalog.headers.get('ratelimit-remaining')).toBe(String(MAX - 1));
  });

  it('counts errors too, and puts the headers on them', async () => {
    const res = await spend(`${gw.url}/api/nope`, MAX + 1);
    expect(res.slice(0, MAX).every((r) => r.status === 404)).toBe(true);
    expect(res[MAX]!.status).toBe(429);
    for (const r of res) expectRateLimitHeaders(r.headers, MAX);
  });

  it('ignores X-Forwarded-For by default (TRUST_PROXY unset)', async () => {
    const url = `${gw.url}/api/jobs/nope`;
    await spend(url, MAX, { headers: { 'x-forwarded-for': '203.0.113.1' } });
    const res = await fetch(url, { headers: { 'x-forwarded-for': '203.0.113.2' } });
    expect(res.status).toBe(429);
  });
});

describe('every endpoint', () => {
  const gw = useGateway(distDir, env());

  const json = (body: unknown, extra: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra },
    body: JSON.stringify(body),
  });
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  const endpoints: [string, string, RequestInit | undefined][] = [
    ['search', '/api/search?query=install', undefined],
    ['ask', '/ask?q=install', undefined],
    ['md-batch', '/api/md/batch', json({ paths: [page.path] })],
    ['jobs', '/api/jobs/j1.nope.AAAAAAAA', undefined],
    ['health', '/api/health', undefined],
    ['mcp', '/api/mcp', json(initialize)],
    ['openapi', '/api/openapi', undefined],
  ];

  it('has its own budget and answers 429 with Retry-After once it is spent', async () => {
    for (const [name, path, init] of endpoints) {
      let served = 0;
      let res = await fetch(`${gw.url}${path}`, init);
      while (res.status !== 429 && served <= MAX) {
        expectRateLimitHeaders(res.headers, MAX);
        await res.arrayBuffer();
        served++;
        res = await fetch(`${gw.url}${path}`, init);
      }
      // The test helper's start-up probe already spent one /api/health request.
      expect(served, name).toBe(name === 'health' ? MAX - 1 : MAX);
      await expectProblem(res, 'too-many-requests', site);
      expect(res.headers.get('retry-after'), name).toMatch(/^[1-9]\d*$/);
    }
  });
});

describe('TRUST_PROXY', () => {
  const gw = useGateway(distDir, env({ TRUST_PROXY: '1' }));

  it('with 1 trusted hop, the right-most X-Forwarded-For address is the client', async () => {
    const url = `${gw.url}/api/health`;
    const a = await spend(url, MAX, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(a.every((r) => r.status === 200)).toBe(true);
    expect((await fetch(url, { headers: { 'x-forwarded-for': '198.51.100.7' } })).status).toBe(429);
    // A different client behind the same proxy has its own budget.
    expect((await fetch(url, { headers: { 'x-forwarded-for': '198.51.100.8' } })).status).toBe(200);
    // A client cannot escape by prepending addresses: only the hop the proxy added counts.
    expect((await fetch(url, { headers: { 'x-forwarded-for': '10.9.9.9, 198.51.100.7' } })).status).toBe(429);
  });
});

describe('defaults', () => {
  const gw = useGateway(distDir, { SEARCH_WORKERS: '1', ASSISTANT_ENABLED: 'false' });

  it('allows 120 requests per 60 s per endpoint, the 121st is 429', async () => {
    const url = `${gw.url}/api/openapi`;
    const res = await spend(url, 120);
    expect(res.every((r) => r.status === 200)).toBe(true);
    expect(res[0]!.headers.get('ratelimit-policy')).toBe('120;w=60');
    expect(res[0]!.headers.get('ratelimit-limit')).toBe('120');
    expect(res[119]!.headers.get('ratelimit-remaining')).toBe('0');
    const over = await fetch(url);
    await expectProblem(over, 'too-many-requests', site, '/api/openapi');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another endpoint is unaffected.
    expect((await fetch(`${gw.url}/api/search?query=install`)).status).toBe(200);
  });
});
