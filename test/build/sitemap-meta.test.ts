// What a docs site and an agent audit expect besides the pages: sitemap.xml (and
// its split into a sitemap index), robots.txt, Open Graph / Twitter meta, "Last
// updated", "Edit this page" and the article ahead of the navigation in source order.
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastUpdated, parseGitLog } from '../../src/lib/last-updated.ts';
import { loadSiteConfig } from '../../src/lib/site-config.ts';
import { robotsTxt, sitemapFiles, sitemapUrlLimit } from '../../src/lib/sitemap.ts';
import { fixtureEditUrl, fixtureSiteUrl } from '../helpers/fixture.ts';
import { fixtureBuild } from '../helpers/manifest.ts';

const { distDir, manifest } = fixtureBuild();
const read = (p: string) => readFileSync(join(distDir, 'site', p), 'utf8');
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);

describe('sitemap generator', () => {
  const entries = Array.from({ length: 5 }, (_, i) => ({ path: `/docs/s/p${i}`, lastmod: new Date(Date.UTC(2026, 0, 1 + i)) }));

  it('writes one urlset while the URLs fit in one file', () => {
    const files = sitemapFiles('https://d.test', entries, 5);
    expect(files.map((f) => f.path)).toEqual(['/sitemap.xml']);
    expect(files[0]!.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(files[0]!.body)).toEqual(entries.map((e) => `https://d.test${e.path}`));
    expect(files[0]!.body).toContain('<url><loc>https://d.test/docs/s/p4</loc><lastmod>2026-01-05T00:00:00Z</lastmod></url>');
  });

  it('splits past the limit: sitemap.xml becomes the index of sitemap-<n>.xml, each with its newest lastmod', () => {
    const files = sitemapFiles('https://d.test', entries, 2);
    expect(files.map((f) => f.path)).toEqual(['/sitemap.xml', '/sitemap-1.xml', '/sitemap-2.xml', '/sitemap-3.xml']);
    const index = files[0]!.body;
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(index)).toEqual(['https://d.test/sitemap-1.xml', 'https://d.test/sitemap-2.xml', 'https://d.test/sitemap-3.xml']);
    expect(index).toContain('<loc>https://d.test/sitemap-2.xml</loc><lastmod>2026-01-04T00:00:00Z</lastmod>');
    expect(files.slice(1).flatMap((f) => locs(f.body))).toEqual(entries.map((e) => `https://d.test${e.path}`));
    expect(locs(files[3]!.body)).toHaveLength(1);
  });

  it('keeps the protocol limit of 50,000 URLs per file', () => {
    expect(sitemapUrlLimit).toBe(50_000);
    const many = Array.from({ length: 50_001 }, (_, i) => ({ path: `/p${i}` }));
    expect(sitemapFiles('https://d.test', many).map((f) => f.path)).toEqual(['/sitemap.xml', '/sitemap-1.xml', '/sitemap-2.xml']);
    expect(sitemapFiles('https://d.test', many.slice(1)).map((f) => f.path)).toEqual(['/sitemap.xml']);
  });

  it('escapes URLs for XML', () => {
    const body = sitemapFiles('https://d.test', [{ path: '/docs/a&b/c d' }])[0]!.body;
    expect(body).toContain('<loc>https://d.test/docs/a&amp;b/c%20d</loc>');
  });

  it('robots.txt allows everything and names the sitemap', () => {
    const robots = robotsTxt('https://d.test');
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Allow: \/$/m);
    expect(robots).not.toMatch(/^Disallow:/m);
    expect(robots).toMatch(/^Sitemap: https:\/\/d\.test\/sitemap\.xml$/m);
  });
});

describe('last updated', () => {
  it('takes the newest commit that touched a file from one git log', () => {
    const log = '\x011764000000\n\ndocs/a.md\n\x011763000000\n\ndocs/a.md\ndocs/b.md\n';
    const times = parseGitLog(log);
    expect(times.get('docs/a.md')!.getTime()).toBe(1764000000_000);
    expect(times.get('docs/b.md')!.getTime()).toBe(1763000000_000);
  });

  it('falls back to the file time outside a repository', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-docs-updated-'));
    try {
      writeFileSync(join(dir, 'page.md'), '# Page\n');
      const when = new Date(Date.UTC(2025, 4, 6, 7, 8, 9));
      utimesSync(join(dir, 'page.md'), when, when);
      expect(lastUpdated(dir, join(dir, 'page.md')).getTime()).toBe(when.getTime());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sitemap.xml and robots.txt of the build', () => {
  it('lists the home page, /docs, every section and every page with absolute URLs and a lastmod', () => {
    const xml = read('sitemap.xml');
    expect(xml).toContain('<urlset');
    const urls = locs(xml);
    expect(urls).toContain(`${fixtureSiteUrl}/`);
    expect(urls).toContain(`${fixtureSiteUrl}/docs`);
    expect(urls).toContain(`${fixtureSiteUrl}/docs/api`);
    for (const page of manifest.pages) expect(urls).toContain(`${fixtureSiteUrl}${page.path}`);
    expect(urls).not.toContain(`${fixtureSiteUrl}/404`);
    expect(new Set(urls).size).toBe(urls.length);
    const entries = [...xml.matchAll(/<url>(.*?)<\/url>/g)].map((m) => m[1]!);
    for (const entry of entries) expect(entry).toMatch(/<lastmod>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/lastmod>/);
  });

  it('robots.txt names the sitemap on the site URL', () => {
    expect(read('robots.txt')).toContain(`Sitemap: ${fixtureSiteUrl}/sitemap.xml`);
  });
});

describe('page meta', () => {
  const page = manifest.pages.find((p) => p.path === '/docs/api/search')!;
  const html = read(`${page.path.slice(1)}.html`);
  const meta = (attr: string, name: string) => html.match(new RegExp(`<meta ${attr}="${name}" content="([^"]*)"`))?.[1];

  it('carries Open Graph and Twitter card meta', () => {
    expect(meta('property', 'og:type')).toBe('article');
    expect(meta('property', 'og:title')).toBe(page.title);
    expect(meta('property', 'og:url')).toBe(`${fixtureSiteUrl}${page.path}`);
    expect(meta('property', 'og:site_name')).toBeTruthy();
    expect(meta('property', 'og:description')).toBeTruthy();
    expect(meta('property', 'article:modified_time')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(meta('name', 'twitter:card')).toBe('summary');
    // X falls back to og:title / og:description: no twitter:title repeating them.
    expect(meta('name', 'twitter:title')).toBeUndefined();
    const home = read('index.html');
    expect(home).toContain('<meta property="og:type" content="website"');
    expect(home).toContain(`<meta property="og:url" content="${fixtureSiteUrl}/"`);
  });

  it('says when the page last changed, the same time as the sitemap', () => {
    const time = html.match(/Last updated <time datetime="([^"]+)">([^<]+)<\/time>/);
    expect(time).not.toBeNull();
    expect(meta('property', 'article:modified_time')).toBe(time![1]);
    const sitemapEntry = read('sitemap.xml').match(new RegExp(`<loc>${fixtureSiteUrl}${page.path}</loc><lastmod>([^<]+)</lastmod>`));
    expect(new Date(sitemapEntry![1]!).getTime()).toBe(Math.floor(new Date(time![1]!).getTime() / 1000) * 1000);
  });

  it('links "Edit this page" to the page\'s file under SITE_EDIT_URL', () => {
    expect(html).toContain(`<a class="doc-edit" href="${fixtureEditUrl}/docs/api/search.md"`);
    const mdx = manifest.pages.find((p) => read(`${p.path.slice(1)}.html`).includes('.mdx"'));
    expect(mdx, 'an MDX page links its .mdx file').toBeDefined();
  });

  it('puts the article before the navigation in source order', () => {
    const main = html.indexOf('<main');
    expect(main).toBeGreaterThan(0);
    expect(html.indexOf('<article')).toBeGreaterThan(main);
    expect(html.indexOf('id="site__sidebar"')).toBeGreaterThan(html.indexOf('</article>'));
    expect(html.indexOf('class="toc"')).toBeGreaterThan(html.indexOf('</article>'));
  });
});

describe('SITE_EDIT_URL', () => {
  it('is optional, and a bad value names the variable', () => {
    expect(loadSiteConfig({}).editUrl).toBeUndefined();
    expect(loadSiteConfig({ SITE_EDIT_URL: 'https://git.test/edit/main/docs/' }).editUrl).toBe('https://git.test/edit/main/docs');
    expect(() => loadSiteConfig({ SITE_EDIT_URL: 'not a url' })).toThrow(/SITE_EDIT_URL/);
    expect(() => loadSiteConfig({ SITE_EDIT_URL: 'ftp://git.test/x' })).toThrow(/SITE_EDIT_URL/);
  });
});
