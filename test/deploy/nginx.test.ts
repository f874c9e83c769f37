// The documented deployment, for real, as compose.yaml runs it: nginx serves the
// static tree with the generated content-type snippet and balances /api/* and /ask
// over two gateways that share one Redis. nginx runs the server block the build
// wrote (dist/nginx/agent-docs.conf), unchanged but for what a container mounts:
// dist/ at the mount point, the gateway list, and the port it listens on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { nginxMountPoint } from '../../src/integration/nginx-site.ts';
import { NGINX_BIN, startNginx, type RunningNginx } from '../../scripts/lib/nginx-process.ts';
import { requireBinary, startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { readManifest } from '../helpers/manifest.ts';
import { REDIS_BIN, startRedis, type RunningRedis } from '../helpers/redis.ts';

const hasNginx = requireBinary(NGINX_BIN, 'nginx');
const hasRedis = requireBinary(REDIS_BIN, 'redis-server');
const distDir = inject('distDir');

/** The build's server block with dist/ and the gateway list where this test keeps them (a container mounts them). */
function mountedServerBlock(gatewaysFile: string, listen: string): string {
  const conf = readFileSync(join(distDir, 'nginx', 'agent-docs.conf'), 'utf8');
  const gatewaysLine = `include ${nginxMountPoint}/nginx/gateways.conf;`;
  expect(conf).toContain(gatewaysLine);
  expect(conf).toMatch(/^  listen 80;$/m);
  return conf
    .replace(gatewaysLine, `include ${gatewaysFile};`)
    .replaceAll(`${nginxMountPoint}/`, `${distDir}/`)
    .replace(/^  listen 80;$/m, `  listen ${listen};`);
}

describe.skipIf(!hasNginx || !hasRedis)('nginx in front of two gateways sharing one Redis', () => {
  let redis: RunningRedis;
  let gateways: RunningGateway[] = [];
  let nginx: RunningNginx | undefined;
  let base = '';

  beforeAll(async () => {
    redis = await startRedis();
    const env = { TRUST_PROXY: '1', RATE_LIMIT_MAX: '3', REDIS_URL: redis.url, SEARCH_WORKERS: '1', ASSISTANT_ENABLED: 'false' };
    // One after the other: two cold starts at once on a busy 2-core machine can outlast the start-up wait.
    gateways = [await startGateway(distDir, env), await startGateway(distDir, env)];
    nginx = await startNginx(
      gateways.map((g) => `127.0.0.1:${g.port}`),
      ({ gatewaysFile, listen }) => mountedServerBlock(gatewaysFile, listen),
      { workerConnections: 256 },
    );
    base = nginx.url;
  });

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(gateways.map((g) => g.stop()));
    await redis?.stop();
  });

  const manifest = () => readManifest(distDir);

  it('serves pages at their extensionless URL and 404.html for unknown ones', async () => {
    const page = manifest().pages[0]!;
    const res = await fetch(`${base}${page.path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const missing = await fetch(`${base}/docs/nope/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('/llms.txt');
  });

  it('sends the security headers with every page, the 404 page included, as the gateway does', async () => {
    const page = manifest().pages[0]!;
    const direct = await fetch(`${gateways[0]!.url}${page.path}`);
    for (const res of [await fetch(`${base}${page.path}`), await fetch(`${base}/docs/nope/nothing-here`, { headers: { accept: 'text/html' } })]) {
      await res.arrayBuffer();
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/=]+'/);
      expect(csp).toBe(direct.headers.get('content-security-policy'));
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('permissions-policy')).toContain('camera=()');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    await direct.arrayBuffer();
  });

  it('serves Markdown twins as text/markdown, also by content negotiation', async () => {
    const page = manifest().pages[0]!;
    const twin = readFileSync(join(distDir, 'site', page.md), 'utf8');
    const direct = await fetch(`${base}${page.path}.md`);
    expect(direct.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await direct.text()).toBe(twin);
    const negotiated = await fetch(`${base}${page.path}`, { headers: { accept: 'text/markdown' } });
    expect(negotiated.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(negotiated.headers.get('vary')).toMatch(/Accept/i);
    expect(await negotiated.text()).toBe(twin);
  });

  it('answers old URLs (_redirects, frontmatter redirect_from) with a 301 to the new page, query kept', async () => {
    for (const [from, to] of [
      ['/old/plain-markdown', '/docs/fixture/plain-markdown'],
      ['/old/plain-markdown/', '/docs/fixture/plain-markdown'],
      ['/old/caf%C3%A9', '/docs/fixture/plain-markdown'],
      ['/old/caf%c3%a9', '/docs/fixture/plain-markdown'],
      ['/docs/fixture/plain?x=1', '/docs/fixture/plain-markdown?x=1'],
    ]) {
      const res = await fetch(`${base}${from}`, { redirect: 'manual' });
      expect(res.status, from).toBe(301);
      expect(new URL(res.headers.get('location')!, base).pathname + new URL(res.headers.get('location')!, base).search, from).toBe(to);
      await res.arrayBuffer();
    }
  });

  it('reads no redirect target as nginx syntax: a `$http_cookie` stays text, a `;}` does not end the block', async () => {
    // nginx started with this snippet, so it parsed; before, `;}` stopped it and `$http_cookie` sent the cookies on
    for (const [from, to] of [
      ['/old/cookie', 'https://example.org/?c=%24http_cookie'],
      ['/old/semicolon', 'https://example.org/a;%7D'],
    ]) {
      const res = await fetch(`${base}${from}`, { redirect: 'manual', headers: { cookie: 'session=secret' } });
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
      await res.arrayBuffer();
    }
  });

  it('sends the precompressed .gz of a page to clients that accept gzip (gzip_static)', async () => {
    const page = manifest().pages[0]!;
    const { request } = await import('node:http');
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request(`${base}${page.path}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers));
      });
      req.on('error', reject);
      req.end();
    });
    expect(headers['content-encoding']).toBe('gzip');
    expect(String(headers.vary)).toMatch(/Accept-Encoding/);
  });

  it('gives discovery files their media types from the generated snippet', async () => {
    const catalog = await fetch(`${base}/.well-known/api-catalog`);
    expect(catalog.headers.get('content-type')).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    expect((await catalog.json()).linkset.length).toBeGreaterThan(0);
    for (const [path, type] of [
      ['/llms.txt', 'text/plain; charset=utf-8'],
      ['/openapi.json', 'application/json'],
      ['/api/openapi', 'application/json'],
      ['/.well-known/oauth-protected-resource', 'application/json'],
      ['/.well-known/agent-card.json', 'application/json'],
    ]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(type);
      await res.arrayBuffer();
    }
  });

  it('proxies the dynamic routes to the gateway', async () => {
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect((await health.json()).status).toBe('ok');
    expect(health.headers.get('ratelimit-policy')).toBe('3;w=60');
    const search = await fetch(`${base}/api/search?query=gateway&limit=2`);
    expect(search.status).toBe(200);
    expect(Number(search.headers.get('x-total-count'))).toBeGreaterThan(0);
    const ask = await fetch(`${base}/ask?query=how+do+I+deploy`);
    expect(ask.status).toBe(200);
    expect((await ask.json())._meta.response_type).toBe('list');
  });

  it('rate-limits the real client behind the proxy across both gateways: a spoofed X-Forwarded-For does not buy a new budget', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base}/api/jobs/not-a-job`, { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
  });

  it('keeps answering when one of the two gateways stops', async () => {
    await gateways[0]!.stop();
    // Two requests: round robin sends one of them to the stopped gateway first (the search budget of 3 has 2 left).
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base}/api/search?query=gateway&limit=1`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
  });
});
