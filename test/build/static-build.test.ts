// The static tree on its own: pages, twins, llms.txt, discovery files and the
// content-type map, checked on the fixture build.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { problemCatalogue } from '../../gateway/contract/problems.ts';
import { RUNTIME_MANIFEST_FILE, loadManifest } from '../../gateway/engine/manifest.ts';
import { bundlePageCount } from '../../gateway/engine/pagefind-bundle.ts';
import { contentTypeFor } from '../../gateway/static/content-types.ts';
import { fixtureSiteUrl } from '../helpers/fixture.ts';
import { startGateway } from '../helpers/gateway.ts';
import { fixtureBuild } from '../helpers/manifest.ts';

const { distDir, manifest } = fixtureBuild();
const site = join(distDir, 'site');
const read = (p: string) => readFileSync(join(site, p), 'utf8');
const json = (p: string) => JSON.parse(read(p));

describe('pages', () => {
  it('has at least 30 pages of every content type', () => {
    expect(manifest.pages.length).toBeGreaterThanOrEqual(30);
    const types = new Set(manifest.pages.map((p) => p.type));
    expect([...types].sort()).toEqual(['agent', 'composition', 'docs', 'hook', 'skill']);
    expect(manifest.site.url).toBe(fixtureSiteUrl);
    expect(manifest.buildId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives every page HTML, a Markdown twin and an llms.txt entry', () => {
    const llms = read('llms.txt');
    for (const page of manifest.pages) {
      expect(page.path).toMatch(/^\/docs\/[a-z0-9-]+\/[a-z0-9-]+$/);
      const html = read(`${page.path.slice(1)}.html`);
      expect(html).toContain(`<link rel="alternate" type="text/markdown" href="${page.path}.md"`);
      expect(html).toContain('/llms.txt');
      expect(html).toContain('data-pagefind-body');
      const md = read(page.md);
      expect(md.startsWith(`# ${page.title}\n`)).toBe(true);
      expect(page.hash).toMatch(/^sha256-[0-9a-f]{64}$/);
      expect(llms).toContain(`](${fixtureSiteUrl}${page.path}.md)`);
    }
  });

  it('puts the title before the breadcrumbs, the prose before the page actions, the navigation last in source order', () => {
    for (const page of manifest.pages) {
      const html = read(`${page.path.slice(1)}.html`);
      const title = html.indexOf('<h1');
      expect(title, page.path).toBeGreaterThan(0);
      for (const part of ['class="breadcrumbs"', 'class="page-actions"', 'id="site__sidebar"']) {
        if (html.includes(part)) expect(html.indexOf(part), `${page.path}: ${part}`).toBeGreaterThan(title);
      }
      // the menu of page actions comes after the prose: nothing but the breadcrumbs between title and content
      expect(html.indexOf('class="page-actions"'), page.path).toBeGreaterThan(html.indexOf('class="prose"'));
    }
  });

  it('records heading ids in the manifest exactly as the HTML carries them', () => {
    let checked = 0;
    for (const page of manifest.pages) {
      const html = read(`${page.path.slice(1)}.html`);
      for (const h of page.headings) {
        expect(html, `${page.path}#${h.slug}`).toContain(`id="${h.slug}"`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(manifest.pages.flatMap((p) => p.headings).some((h) => h.slug.includes('_'))).toBe(true);
  });

  it('puts skills, agents, hooks and compositions in sections of their own', () => {
    for (const [type, section] of [['skill', 'skills'], ['agent', 'agents'], ['hook', 'hooks'], ['composition', 'compositions']]) {
      const pages = manifest.pages.filter((p) => p.type === type);
      expect(pages.length).toBeGreaterThan(0);
      for (const p of pages) expect(p.section).toBe(section);
    }
  });

  it('reduces an MDX page to Markdown without JSX, imports or exports', () => {
    const md = read('docs/fixture/mdx-components.md');
    expect(md).not.toMatch(/^(import|export)\s/m);
    expect(md).not.toMatch(/<\/?[A-Za-z][^>]*>/);
    expect(md).not.toContain('{answer}');
    expect(md).toContain('Content inside a **details** element stays readable Markdown.');
    expect(md).toContain('**Expandable block**');
    expect(md).toContain('## Zebra quokka heading');
    expect(md).not.toContain('&#x');
  });

  it('keeps plain Markdown bodies verbatim under the title and description', () => {
    const md = read('docs/fixture/plain-markdown.md');
    expect(md).toContain('# Plain Markdown fixture\n\n> A plain Markdown test page with headings and a table.\n\n');
    expect(md).toContain('| a | b |');
    expect(md).toContain('echo "code is kept verbatim"');
  });

  it('anchors every Problem type the gateway uses on /docs/api/errors', () => {
    const html = read('docs/api/errors.html');
    for (const slug of Object.keys(problemCatalogue)) expect(html, slug).toContain(`id="${slug}"`);
  });

  it('lands every link to a section of a page on an id of that page', () => {
    const ids = new Map(manifest.pages.map((p) => [p.path, new Set([...read(`${p.path.slice(1)}.html`).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]))]));
    const missed: string[] = [];
    for (const page of manifest.pages) {
      const html = read(`${page.path.slice(1)}.html`);
      const article = html.slice(html.indexOf('<article'), html.indexOf('</article>'));
      for (const [, target = page.path, id] of article.matchAll(/href="(\/docs\/[^"#]+)?#([^"]+)"/g)) {
        if (ids.has(target) && !ids.get(target)!.has(decodeURIComponent(id!))) missed.push(`${page.path} → ${target}#${id}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('serves a helpful 404 page', () => {
    const html = read('404.html');
    expect(html).toContain('/llms.txt');
  });

  it('carries no inline style attribute (the CSP allows none), aligned table columns as classes', () => {
    const withStyle = manifest.pages.filter((p) => /<[a-z][^>]*\sstyle="/i.test(read(`${p.path.slice(1)}.html`)));
    expect(withStyle.map((p) => p.path)).toEqual([]);
    const pages = manifest.pages.map((p) => read(`${p.path.slice(1)}.html`));
    // a table of mixed alignment marks its cells; a table of figures (all right-aligned but the first column) says it once
    expect(pages.filter((html) => /<t[dh] class="align-right">/.test(html)).length).toBeGreaterThan(0);
    const figures = pages.map((html) => /<table class="stack numbers">[\s\S]*?<\/table>/.exec(html)?.[0]).filter((table) => table !== undefined);
    expect(figures.length).toBeGreaterThan(0);
    for (const table of figures) expect(table).not.toMatch(/align-|\n/);
  });
});

describe('llms.txt', () => {
  it('follows llmstxt.org: H1, blockquote, H2 sections of links, under 50,000 characters', () => {
    const llms = read('llms.txt');
    const lines = llms.split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines.find((l) => l.trim() !== '' && !l.startsWith('# '))).toMatch(/^> \S/);
    expect(lines.filter((l) => l.startsWith('## ')).length).toBeGreaterThanOrEqual(5);
    for (const l of lines.filter((l) => l.startsWith('- '))) expect(l).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)]+\.md\)(: .+)?$/);
    expect(llms.length).toBeLessThan(50_000);
  });

  it('names the Markdown of every page of the sitemap but the home page (index pages through their twins)', () => {
    const llms = read('llms.txt');
    const locs = [...read('sitemap.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(locs.length).toBe(manifest.pages.length + new Set(manifest.pages.map((p) => p.section)).size + 2);
    for (const loc of locs.filter((l) => l !== `${fixtureSiteUrl}/`)) {
      expect(llms, loc).toContain(`](${loc}.md)`);
      const twin = read(`${loc.slice(fixtureSiteUrl.length + 1)}.md`);
      expect(twin, loc).toContain(`${fixtureSiteUrl}/llms.txt`);
      const prose = twin.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '');
      for (const link of prose.matchAll(/\]\(([^)]+)\)/g)) expect(link[1], loc).toMatch(/^https?:\/\//);
    }
  });

  it('llms-full.txt carries every page', () => {
    const full = read('llms-full.txt');
    for (const page of manifest.pages) expect(full).toContain(`# ${page.title}\n`);
  });
});

describe('discovery files', () => {
  it('api-catalog is an RFC 9727 linkset', () => {
    const catalog = json('.well-known/api-catalog');
    expect(contentTypeFor('/.well-known/api-catalog')).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    const anchors = catalog.linkset.map((l: { anchor: string }) => l.anchor);
    expect(anchors).toEqual([`${fixtureSiteUrl}/api`, `${fixtureSiteUrl}/ask`, `${fixtureSiteUrl}/api/mcp`]);
    const api = catalog.linkset[0];
    expect(api['service-desc'][0].href).toBe(`${fixtureSiteUrl}/openapi.json`);
    expect(api['service-doc'][0].href).toMatch(/\/docs\/api\//);
    expect(api.status[0].href).toBe(`${fixtureSiteUrl}/api/health`);
  });

  it('agent card has the A2A v1.0 fields and the legacy ones', () => {
    const card = json('.well-known/agent-card.json');
    for (const f of ['name', 'description', 'supportedInterfaces', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills']) {
      expect(card).toHaveProperty(f);
    }
    expect(card.supportedInterfaces[0]).toMatchObject({ url: `${fixtureSiteUrl}/ask`, protocolVersion: expect.any(String) });
    expect(card.skills.length).toBeGreaterThan(0);
    for (const s of card.skills) expect(s).toMatchObject({ id: expect.any(String), name: expect.any(String), description: expect.any(String), tags: expect.any(Array) });
    expect(card.url).toBe(`${fixtureSiteUrl}/ask`);
    expect(card.protocolVersion).toEqual(expect.any(String));
    expect(contentTypeFor('/.well-known/agent-card.json')).toBe('application/json');
  });

  it('oauth-protected-resource says nothing is protected (RFC 9728)', () => {
    const meta = json('.well-known/oauth-protected-resource');
    expect(meta).toMatchObject({ resource: fixtureSiteUrl, authorization_servers: [], bearer_methods_supported: [] });
    expect(meta.resource_documentation).toMatch(/^https:\/\/docs\.example\.test\//);
    expect(contentTypeFor('/.well-known/oauth-protected-resource')).toBe('application/json');
  });

  it('has no oauth-authorization-server document, by design', () => {
    expect(existsSync(join(site, '.well-known/oauth-authorization-server'))).toBe(false);
  });

  it('MCP server card describes the streamable-http endpoint and its tools', () => {
    const card = json('.well-known/mcp/server-card.json');
    const text = JSON.stringify(card);
    expect(text).toContain(`${fixtureSiteUrl}/api/mcp`);
    expect(text).toContain('streamable-http');
    for (const tool of ['search', 'fetch', 'ask']) expect(text).toContain(`"${tool}"`);
  });

  it('openapi.json and /api/openapi are the same document', () => {
    expect(read('api/openapi')).toBe(read('openapi.json'));
    expect(json('openapi.json').info.version).toBe('10.0.0-alpha.47');
    expect(contentTypeFor('/api/openapi')).toBe('application/json');
  });

  it('api-policy.md states the versioning and deprecation policy', () => {
    const policy = read('api-policy.md');
    expect(policy).toContain('/api/v1');
    expect(policy).toMatch(/Sunset/);
    expect(policy).toMatch(/six months/);
    expect(policy).toMatch(/410/);
  });
});

describe('gateway start-up files', () => {
  it('fills the compile cache the gateway enables at start (gateway/compile-cache.ts)', () => {
    const dir = join(distDir, 'compile-cache');
    expect(existsSync(dir)).toBe(true);
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.length).toBeGreaterThan(10);
  });

  it('holds every module a start compiles, its query workers\' included: a start with it compiles nothing', async () => {
    // a copy: other suites start gateways on this build meanwhile
    const cache = mkdtempSync(join(tmpdir(), 'agent-docs-compile-cache-'));
    try {
      cpSync(join(distDir, 'compile-cache'), cache, { recursive: true });
      const cached = () => readdirSync(cache, { recursive: true }).map(String).sort();
      const before = cached();
      const gateway = await startGateway(distDir, { NODE_COMPILE_CACHE: cache });
      try {
        expect((await fetch(`${gateway.url}/api/search?query=gateway&limit=1`)).status).toBe(200);
      } finally {
        await gateway.stop(); // the cache is written as the process exits
      }
      expect(cached()).toEqual(before);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it("writes the manifest's runtime slice beside the engine index, cut from this manifest", async () => {
    const siteDir = join(distDir, 'site');
    const slice = JSON.parse(readFileSync(join(distDir, 'search-index', 'site', RUNTIME_MANIFEST_FILE), 'utf8')) as { sourceSha256: string; manifest: { buildId: string; pages: Record<string, unknown>[] } };
    expect(slice.sourceSha256).toBe(createHash('sha256').update(readFileSync(join(siteDir, 'build-manifest.json'))).digest('hex'));
    expect(slice.manifest.buildId).toBe(manifest.buildId);
    expect(slice.manifest.pages.map((p) => p.path)).toEqual(manifest.pages.map((p) => p.path));
    expect(Object.keys(slice.manifest.pages[0]!).sort()).toEqual(['description', 'md', 'path', 'section', 'title', 'type']);
    expect(await loadManifest(siteDir, { runtimeSlice: join(distDir, 'search-index', 'site', RUNTIME_MANIFEST_FILE) })).toEqual(await loadManifest(siteDir));
  });
});

describe('content types and CDN files', () => {
  it('maps every non-HTML file the build writes to a real media type', () => {
    expect(contentTypeFor('/docs/api/search.md')).toBe('text/markdown; charset=utf-8');
    expect(contentTypeFor('/llms.txt')).toBe('text/plain; charset=utf-8');
    expect(contentTypeFor('/openapi.json')).toBe('application/json');
  });

  it('writes a _headers file and an nginx snippet from the same map', () => {
    const headers = read('_headers');
    expect(headers).toContain('/.well-known/api-catalog\n  Content-Type: application/linkset+json');
    expect(headers).toContain('/*.md\n  Content-Type: text/markdown; charset=utf-8');
    const nginx = readFileSync(join(distDir, 'nginx', 'content-types.conf'), 'utf8');
    expect(nginx).toContain('text/markdown md;');
    expect(nginx).toContain('location = /.well-known/api-catalog');
  });
});

describe('Pagefind index', () => {
  it('is written with its entry file and UI', () => {
    expect(existsSync(join(site, 'pagefind', 'pagefind-entry.json'))).toBe(true);
    expect(existsSync(join(site, 'pagefind', 'pagefind.js'))).toBe(true);
    expect(statSync(join(site, 'pagefind', 'pagefind-ui.js')).size).toBeGreaterThan(0);
    const entry = JSON.parse(read('pagefind/pagefind-entry.json'));
    expect(bundlePageCount([{ dir: join(site, 'pagefind'), entry }])).toBe(manifest.pages.length);
  });
});
