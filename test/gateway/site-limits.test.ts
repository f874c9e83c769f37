// The site's own files (pages, their assets, the Pagefind bundle, Markdown twins) are
// served as a CDN would: outside the per-endpoint API budget, under one generous
// per-address flood guard (SITE_RATE_LIMIT_MAX). Discovery files keep the API budget,
// every unknown path shares one bucket per client, and a limited browser gets an HTML
// 429 page with Retry-After.
import { describe, expect, it } from 'vitest';
import { fixtureBuild } from '../helpers/manifest.ts';
import { expectProblem, expectRateLimitHeaders, spend, useGateway } from './helpers.ts';

const { distDir, manifest, site } = fixtureBuild();
const page = manifest.pages[0]!;
const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('defaults: the site is outside the 120/min API budget', () => {
  const gw = useGateway(distDir, { SEARCH_WORKERS: '1', ASSISTANT_ENABLED: 'false' });

  it('serves 130 loads of the Pagefind UI, of a page and of its Markdown twin from one address', async () => {
    for (const path of ['/pagefind/pagefind-ui.js', page.path, `/${page.md}`]) {
      const res = await spend(`${gw.url}${path}`, 130, { headers: { accept: HTML_ACCEPT } });
      expect(res.map((r) => r.status).filter((s) => s !== 200), path).toEqual([]);
      // The flood guard's budget is what the rate-limit headers report on site files.
      expectRateLimitHeaders(res[0]!.headers, 1200);
      expect(res[0]!.headers.get('ratelimit-policy')).toBe('1200;w=60');
    }
  });
});

describe('SITE_RATE_LIMIT_MAX=8, RATE_LIMIT_MAX=5', () => {
  const gw = useGateway(distDir, { RATE_LIMIT_MAX: '5', SITE_RATE_LIMIT_MAX: '8', SEARCH_WORKERS: '1', ASSISTANT_ENABLED: 'false' });

  it('puts every site file of one address under one flood guard; a browser over it gets an HTML 429 with Retry-After', async () => {
    const paths = ['/pagefind/pagefind-ui.js', page.path, `/${page.md}`, '/', '/docs', '/pagefind/pagefind-ui.css', page.path, page.path];
    const ok = [];
    for (const path of paths) ok.push(await fetch(`${gw.url}${path}`));
    expect(ok.map((r) => r.status)).toEqual(paths.map(() => 200));
    expect(ok.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['7', '6', '5', '4', '3', '2', '1', '0']);
    await Promise.all(ok.map((r) => r.arrayBuffer()));

    const html = await fetch(`${gw.url}${page.path}`, { headers: { accept: HTML_ACCEPT } });
    expect(html.status).toBe(429);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(html.headers.get('cache-control')).toBe('no-store');
    expectRateLimitHeaders(html.headers, 8);
    const text = await html.text();
    expect(text).toMatch(/^<!doctype html>/i);
    expect(text).toContain(`${html.headers.get('retry-after')} s`);

    // Anything else that is not a browser gets the Problem.
    const script = await fetch(`${gw.url}/pagefind/pagefind-ui.js`);
    await expectProblem(script, 'too-many-requests', site, '/pagefind/pagefind-ui.js');
    expect(script.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });

  it('keeps discovery files on the API budget, each file its own endpoint', async () => {
    const llms = await spend(`${gw.url}/llms.txt`, 5);
    expect(llms.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expectRateLimitHeaders(llms[0]!.headers, 5);
    await expectProblem(await fetch(`${gw.url}/llms.txt`), 'too-many-requests', site, '/llms.txt');
    for (const path of ['/openapi.json', '/.well-known/api-catalog', '/api-policy.md']) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('ratelimit-remaining'), path).toBe('4');
      await res.arrayBuffer();
    }
  });

  it('counts every unknown path of a client in one bucket', async () => {
    const misses = await spend(`${gw.url}/no-such-page-1`, 1);
    for (let i = 2; i <= 5; i++) misses.push(...(await spend(`${gw.url}/no-such-page-${i}`, 1)));
    expect(misses.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect(misses.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    const sixth = await fetch(`${gw.url}/another-unknown/path.js`);
    await expectProblem(sixth, 'too-many-requests', site);
    const browser = await fetch(`${gw.url}/yet-another-unknown`, { headers: { accept: HTML_ACCEPT } });
    expect(browser.status).toBe(429);
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await browser.arrayBuffer();
  });
});
