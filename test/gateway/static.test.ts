// The build tree served by the gateway: content types, `/x` → x.html, Markdown
// negotiation, discovery files (with rate-limit and CORS headers), 404s for
// browsers and agents, traversal attempts, unknown /api paths, CORS preflights.
import { describe, expect, it } from 'vitest';
import { OAuthProtectedResource, Problem } from '../../gateway/contract/docs-api.ts';
import { contentTypeFor } from '../../gateway/static/content-types.ts';
import { fixtureBuild, readSiteFile } from '../helpers/manifest.ts';
import { expectApiHeaders, expectProblem, expectRateLimitHeaders, expectValid, rawRequest, useGateway } from './helpers.ts';

const { distDir, manifest, site } = fixtureBuild();
const page = manifest.pages[0]!;
const gw = useGateway(distDir);

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${gw.url}${path}`, { headers });

describe('pages and twins', () => {
  it('serves /docs/<section>/<page> as HTML from <page>.html, with Vary and a Markdown alternate', async () => {
    const res = await get(page.path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('vary')).toMatch(/Accept/);
    expect(res.headers.get('link')).toBe(`<${page.path}.md>; rel="alternate"; type="text/markdown", </api-policy.md>; rel="deprecation"`);
    expect(await res.text()).toBe(readSiteFile(distDir, `${page.path.slice(1)}.html`));
    expectRateLimitHeaders(res.headers);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const html = await get(`${page.path}.html`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('serves the Markdown twin for Accept: text/markdown, byte for byte', async () => {
    const twin = readSiteFile(distDir, page.md);
    for (const accept of ['text/markdown', 'text/markdown, text/html;q=0.9', 'text/plain, text/markdown;q=0.9, text/html;q=0.5']) {
      const res = await get(page.path, { accept });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(res.headers.get('vary')).toMatch(/Accept/);
      expect(await res.text()).toBe(twin);
    }
    for (const accept of ['text/html', 'text/html, text/markdown;q=0.5', '*/*', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8']) {
      const res = await get(page.path, { accept });
      expect(res.headers.get('content-type'), accept).toBe('text/html; charset=utf-8');
    }
    const direct = await get(`${page.path}.md`);
    expect(direct.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await direct.text()).toBe(twin);
  });

  it('answers old URLs with a 301 to the new page (query kept), and lists them nowhere as pages', async () => {
    for (const [from, to] of [
      ['/old/plain-markdown', '/docs/fixture/plain-markdown'],
      ['/old/plain-markdown/', '/docs/fixture/plain-markdown'],
      ['/old/caf%C3%A9', '/docs/fixture/plain-markdown'],
      ['/old/caf%c3%a9', '/docs/fixture/plain-markdown'],
      ['/docs/fixture/plain?x=1', '/docs/fixture/plain-markdown?x=1'],
    ]) {
      const res = await fetch(`${gw.url}${from}`, { redirect: 'manual' });
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
    }
    expect(manifest.pages.map((p) => p.path)).not.toContain('/docs/fixture/plain');
    expect(readSiteFile(distDir, 'llms.txt')).not.toContain('/old/plain-markdown');
    expect((await get('/old/nothing-here')).status).toBe(404);
  });

  it('sends a redirect target as the build made it safe: `$` and characters a URL may not hold percent-encoded', async () => {
    for (const [from, to] of [
      ['/old/cookie', 'https://example.org/?c=%24http_cookie'],
      ['/old/semicolon', 'https://example.org/a;%7D'],
    ]) {
      const res = await fetch(`${gw.url}${from}`, { redirect: 'manual', headers: { cookie: 'session=secret' } });
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
    }
  });

  it('answers conditional requests with 304', async () => {
    const first = await get(`${page.path}.md`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/\S/);
    const again = await get(`${page.path}.md`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expectRateLimitHeaders(again.headers);
    // A list, a weak tag and `*` match too (RFC 9110 §13.1.2); another tag does not.
    const strong = etag.replace(/^W\//, '');
    for (const inm of [`"other", ${etag}`, strong, `W/${strong}`, '*']) expect((await get(`${page.path}.md`, { 'if-none-match': inm })).status, inm).toBe(304);
    const changed = await get(`${page.path}.md`, { 'if-none-match': '"other"' });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
  });

  it('advertises the versioning policy on discovery files too', async () => {
    for (const path of ['/llms.txt', '/openapi.json', '/.well-known/api-catalog']) {
      const res = await get(path);
      expect(res.headers.get('link'), path).toContain('</api-policy.md>; rel="deprecation"');
      await res.arrayBuffer();
    }
  });

  it('serves the home page, /docs and section indexes', async () => {
    for (const path of ['/', '/docs', `/docs/${page.section}`]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
  });
});

describe('discovery files', () => {
  const files = ['/llms.txt', '/llms-full.txt', '/openapi.json', '/api/openapi', '/api-policy.md', '/.well-known/api-catalog', '/.well-known/agent-card.json', '/.well-known/oauth-protected-resource', '/.well-known/mcp/server-card.json', '/build-manifest.json', '/pagefind/pagefind-entry.json'];

  it('serves each with its content type, CORS and rate-limit headers', async () => {
    for (const path of files) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(contentTypeFor(path));
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expectRateLimitHeaders(res.headers);
      expect(await res.text()).toBe(readSiteFile(distDir, path.slice(1)));
    }
    expect((await get('/.well-known/api-catalog')).headers.get('content-type')).toMatch(/^application\/linkset\+json/);
  });

  it('/api/openapi and /api/v1/openapi carry the API headers', async () => {
    for (const path of ['/api/openapi', '/api/v1/openapi']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expectApiHeaders(res.headers);
      expect((await res.json()).info.version).toBe('10.0.0-alpha.47');
    }
  });

  it('/.well-known/oauth-protected-resource says the API is open', async () => {
    const body = expectValid(OAuthProtectedResource, await (await get('/.well-known/oauth-protected-resource')).json());
    expect(body.authorization_servers).toEqual([]);
    expect(body.bearer_methods_supported).toEqual([]);
  });

  it('/.well-known/oauth-authorization-server is 404 by design', async () => {
    await expectProblem(await get('/.well-known/oauth-authorization-server'), 'not-found', site, '/.well-known/oauth-authorization-server');
  });
});

describe('not found', () => {
  it('is a Problem with links and markdown for agents', async () => {
    const body = await expectProblem(await get('/docs/nope/missing'), 'not-found', site, '/docs/nope/missing');
    expect(body.links!.map((l) => l.href)).toEqual(expect.arrayContaining(['/llms.txt', '/openapi.json']));
    expect(body.links!.some((l) => l.href.startsWith('/api/search?query='))).toBe(true);
    expect(body.markdown).toContain('/llms.txt');
  });

  it('is the 404 page for browsers', async () => {
    const res = await get('/docs/nope/missing', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(readSiteFile(distDir, '404.html'));
    expectRateLimitHeaders(res.headers);
  });

  it('405 with Allow for writes to static paths', async () => {
    const res = await fetch(`${gw.url}${page.path}`, { method: 'PUT', body: 'x' });
    await expectProblem(res, 'method-not-allowed', site);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('traversal', () => {
  const attempts = [
    '/../../../../etc/passwd',
    '/docs/../../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/docs/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    '/docs%2f..%2f..%2fetc%2fpasswd',
    '/..%2f..%2f..%2fetc/passwd',
    '/%252e%252e/%252e%252e/etc/passwd',
    '/..\\..\\etc\\passwd',
    '/docs/%5c..%5c..%5cetc%5cpasswd',
    '/etc/passwd',
    '//etc/passwd',
    '/docs/api/search%00.md',
    '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
    '/.env',
    '/.git/config',
    `/docs/${page.section}/%2e%2e/%2e%2e/%2e%2e/etc/passwd`,
  ];
  it('never serves anything outside the site tree', async () => {
    for (const path of attempts) {
      const res = await rawRequest(gw.url, path);
      expect([400, 404], path).toContain(res.status);
      expect(res.body, path).not.toMatch(/root:.*:0:0:/);
      expect(res.body).not.toMatch(/\[core\]/);
      if (res.status === 404) {
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expectValid(Problem, JSON.parse(res.body));
      }
      expect(res.headers['ratelimit-limit']).toMatch(/^\d+$/);
    }
  });

  it('still serves a path whose dot segments resolve inside the tree (URL normalization)', async () => {
    const res = await rawRequest(gw.url, `/docs/${page.section}/../${page.section}/${page.path.split('/').at(-1)}.md`);
    // Either normalized by the URL parser and served, or refused: never another file.
    if (res.status === 200) expect(res.body).toBe(readSiteFile(distDir, page.md));
    else expect(res.status).toBe(404);
  });
});

describe('unknown API paths and CORS', () => {
  it('404 API endpoint not found for unknown /api paths, any method', async () => {
    for (const [path, method] of [
      ['/api', 'GET'],
      ['/api/nope', 'GET'],
      ['/api/v1/nope', 'POST'],
      ['/api/v2/search', 'GET'],
      ['/api/search/extra', 'GET'],
      ['/api/jobs', 'GET'],
    ] as const) {
      const res = await fetch(`${gw.url}${path}`, { method });
      expectApiHeaders(res.headers);
      await expectProblem(res, 'api-endpoint-not-found', site, path);
    }
  });

  it('answers preflights with the endpoint methods and allowed headers', async () => {
    const res = await fetch(`${gw.url}/api/md/batch`, {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, idempotency-key' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('idempotency-key');
    expect(res.headers.get('access-control-max-age')).toMatch(/^\d+$/);
    expectApiHeaders(res.headers);
    const ask = await fetch(`${gw.url}/ask`, { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' } });
    expect(ask.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('exposes the custom headers to browsers', async () => {
    const res = await fetch(`${gw.url}/api/search?query=install&limit=1`, { headers: { origin: 'https://a.example' } });
    const exposed = res.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'x-ratelimit-limit', 'retry-after', 'x-total-count', 'x-next-cursor', 'link', 'location', 'idempotency-key', 'deprecation', 'sunset']) {
      expect(exposed).toContain(h);
    }
  });

  it('never challenges for credentials', async () => {
    for (const path of ['/api/search?query=a', '/api/health', '/ask?q=a', '/api/nope', '/api/mcp']) {
      const res = await get(path, { authorization: 'Bearer whatever' });
      expect(res.status).not.toBe(401);
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
  });
});
