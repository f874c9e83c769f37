// The assistant (portfolio) site as served by the real gateway with no model
// configured: pages and Markdown twins, every discovery file, the auth declaration,
// agent-skills digests, and the extractive answerer behind /ask and /api/chat.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import {
  AgentAuthDeclaration,
  ASSISTANT_API_VERSION,
  AskResponse,
  CHAT_SOURCES_MARKER,
  OAuthProtectedResource,
} from '../../gateway/contract/assistant-api.ts';
import { BuildManifestSchema } from '../../gateway/engine/manifest.ts';
import type { RunningGateway } from '../helpers/gateway.ts';
import { SITE, chatHeaders, envelope, jsonHeaders, rateHeaders, startAssistantGateway } from './helpers/assistant.ts';

let gw: RunningGateway;
/** GET on the assistant app; absolute https://portfolio.example.test URLs are mapped to it. */
const get = (path: string, init?: RequestInit) => fetch(`${gw.assistantUrl}${path.startsWith(SITE) ? path.slice(SITE.length) || '/' : path}`, init);
const sha256 = (bytes: ArrayBuffer) => createHash('sha256').update(Buffer.from(bytes)).digest('hex');

beforeAll(async () => {
  gw = await startAssistantGateway(inject('distDir'));
});
afterAll(async () => {
  await gw?.stop();
});

const pages = ['/', '/about', '/projects', '/writing', '/contact'];

describe('portfolio pages', () => {
  it.each(pages)('%s is HTML with links that stay on the assistant origin', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('data-pagefind-body');
    expect(html).not.toContain('/assistant-site');
    expect(html).not.toContain('/_astro/');
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    for (const href of hrefs.filter((h) => h.startsWith('/'))) {
      const linked = await get(href);
      expect(linked.status, `${path} links ${href}`).toBe(200);
      await linked.arrayBuffer();
    }
    rateHeaders(res);
  });

  it.each(pages)('%s has a Markdown twin, also by content negotiation', async (path) => {
    const twinPath = path === '/' ? '/index.md' : `${path}.md`;
    const twin = await get(twinPath);
    expect(twin.status).toBe(200);
    expect(twin.headers.get('content-type')).toMatch(/^text\/markdown/);
    const md = await twin.text();
    expect(md).toMatch(/^# .+\n\n> .+/);
    expect(md).toContain('EXAMPLE CONTENT');
    const negotiated = await get(path, { headers: { Accept: 'text/markdown' } });
    expect(negotiated.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await negotiated.text()).toBe(md);
  });

  it('marks the shipped portfolio as example content a user replaces', async () => {
    const home = await (await get('/')).text();
    expect(home).toContain('example content');
  });

  it('unknown paths and wrong methods answer in the envelope', async () => {
    const missing = await get('/no-such-page');
    expect(missing.status).toBe(404);
    expect((await envelope(missing)).code).toBe('not_found');
    rateHeaders(missing);
    const post = await get('/about', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
    expect((await envelope(post)).code).toBe('method_not_allowed');
    const traversal = await get('/%2e%2e/site/index.html');
    expect(traversal.status).toBe(404);
    expect((await envelope(traversal)).code).toBe('not_found');
  });

  it('the build manifest lists every page with the hash of its served twin', async () => {
    const manifest = BuildManifestSchema.parse(await (await get('/build-manifest.json')).json());
    expect(manifest.site.url).toBe(SITE);
    expect(manifest.pages.map((p) => p.path)).toEqual(pages);
    for (const page of manifest.pages) {
      const bytes = await (await get(`/${page.md}`)).arrayBuffer();
      expect(page.hash, page.path).toBe(`sha256-${sha256(bytes)}`);
      expect(page.title).toBeTruthy();
      expect(page.description).toBeTruthy();
    }
  });
});

describe('discovery files', () => {
  it('/llms.txt indexes every page by its Markdown twin', async () => {
    const res = await get('/llms.txt');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^# .+\n\n> .+\n/);
    const links = [...text.matchAll(/\]\((https:\/\/portfolio\.example\.test[^)]+)\)/g)].map((m) => m[1]!);
    for (const twin of ['/index.md', '/about.md', '/projects.md', '/writing.md', '/contact.md', '/auth.md']) expect(links).toContain(`${SITE}${twin}`);
    for (const link of links) expect((await get(link)).status, link).toBe(200);
  });

  it('/.well-known/openapi.json is a valid OpenAPI 3.1 description generated from the contract', async () => {
    const res = await get('/.well-known/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const source = await res.text();
    const doc = JSON.parse(source);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe(ASSISTANT_API_VERSION);
    expect(doc.servers[0].url).toBe(SITE);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/chat', '/ask', '/api/mcp']));
    const chat = doc.components.schemas.ChatRequest.properties.messages;
    expect(chat.maxItems).toBe(20);
    expect(doc.components.schemas.ChatMessage.properties.content.maxLength).toBe(2000);
    expect(doc.components.schemas.ChatMessage.properties.role.enum).toEqual(['user', 'assistant']);
    expect(doc.components.schemas.AskRequest.properties.query.maxLength).toBe(2000);
    expect(doc.components.schemas.Error.properties.code.enum).toEqual(
      expect.arrayContaining(['invalid_request', 'forbidden', 'rate_limited', 'internal_error', 'unavailable']),
    );
    expect(Object.keys(doc.paths['/api/chat'].post.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '429', '500', '503']));
    expect(Object.keys(doc.paths['/ask'].post.responses)).toEqual(expect.arrayContaining(['200', '400', '429', '500', '503']));
    expect(doc.paths['/ask'].post.responses['200'].content).toHaveProperty(['text/event-stream']);
    expect(doc.components.headers).toHaveProperty(['X-RateLimit-Remaining']);
    expect(doc.components.headers).not.toHaveProperty(['RateLimit-Remaining']);
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: `${SITE}/.well-known/openapi.json`, config });
    expect(problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('/.well-known/api-catalog is an RFC 9727 linkset pointing at the API and its description', async () => {
    const res = await get('/.well-known/api-catalog');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/linkset\+json/);
    const { linkset } = (await res.json()) as { linkset: { anchor: string; 'service-desc': { href: string }[]; 'service-doc': { href: string }[] }[] };
    expect(linkset.map((l) => l.anchor)).toEqual(expect.arrayContaining([`${SITE}/ask`, `${SITE}/api/chat`, `${SITE}/api/mcp`]));
    for (const item of linkset) {
      expect(item['service-desc'].map((d) => d.href)).toContain(`${SITE}/.well-known/openapi.json`);
      for (const link of [...item['service-desc'], ...item['service-doc']]) expect((await get(link.href)).status, link.href).toBe(200);
    }
  });

  it('/.well-known/agent-skills/index.json follows discovery 0.2.0 and every digest matches the served bytes', async () => {
    const res = await get('/.well-known/agent-skills/index.json');
    expect(res.status).toBe(200);
    const index = (await res.json()) as { $schema: string; skills: { name: string; type: string; description: string; url: string; digest: string }[] };
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index.skills.length).toBeGreaterThan(0);
    for (const skill of index.skills) {
      expect(skill.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(skill.type).toBe('skill-md');
      expect(skill.description.length).toBeGreaterThan(20);
      expect(skill.url).toBe(`${SITE}/.well-known/agent-skills/${skill.name}/SKILL.md`);
      expect(skill.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      const file = await get(skill.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^text\/markdown/);
      const bytes = await file.arrayBuffer();
      expect(skill.digest).toBe(`sha256:${sha256(bytes)}`);
      const text = Buffer.from(bytes).toString('utf8');
      expect(text).toMatch(new RegExp(`^---\\nname: ${skill.name}\\ndescription: .+\\n---\\n`));
    }
  });

  it('/.well-known/mcp/server-card.json describes the MCP endpoint and its ask tool', async () => {
    const card = (await (await get('/.well-known/mcp/server-card.json')).json()) as Record<string, any>;
    expect(card.name).toMatch(/^[^/]+\/[^/]+$/);
    expect(card.version).toBe(ASSISTANT_API_VERSION);
    expect(card.remotes[0]).toMatchObject({ type: 'streamable-http', url: `${SITE}/api/mcp`, authentication: { required: false } });
    expect(card.tools.map((t: { name: string }) => t.name)).toEqual(['ask']);
    expect(card.tools[0].inputSchema.properties.query.maxLength).toBe(2000);
    expect(card.capabilities).toHaveProperty('tools');
  });

  it('the auth page carries the JSON declaration of the spec, in HTML and Markdown', async () => {
    const md = await (await get('/auth.md')).text();
    const block = /```json\n([\s\S]+?)\n```/.exec(md);
    expect(block).not.toBeNull();
    const declaration = AgentAuthDeclaration.parse(JSON.parse(block![1]!));
    expect(declaration).toEqual({
      identity_types_supported: ['anonymous'],
      authentication_required: false,
      registration_supported: false,
      token_revocation_supported: false,
      protected_resource_metadata: `${SITE}/.well-known/oauth-protected-resource`,
      authorization_servers: [],
      bearer_methods_supported: [],
      scopes_supported: [],
    });
    const html = await (await get('/auth')).text();
    const code = /<code class="language-json">([\s\S]+?)<\/code>/.exec(html);
    expect(code).not.toBeNull();
    const unescaped = code![1]!.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    expect(JSON.parse(unescaped)).toEqual(declaration);

    const prm = await get(declaration.protected_resource_metadata);
    expect(prm.status).toBe(200);
    expect(prm.headers.get('content-type')).toMatch(/^application\/json/);
    const metadata = OAuthProtectedResource.parse(await prm.json());
    expect(metadata.resource).toBe(SITE);
    expect((await get(metadata.resource_documentation)).status).toBe(200);
  });

  it('never asks for credentials: an Authorization header changes nothing', async () => {
    for (const path of ['/', '/.well-known/openapi.json', '/auth.md']) {
      const res = await get(path, { headers: { Authorization: 'Bearer nonsense' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('www-authenticate')).toBeNull();
      await res.arrayBuffer();
    }
  });
});

describe('answers without a model backend (extractive)', () => {
  it('POST /ask answers from the pages and names them', async () => {
    const res = await get('/ask', { method: 'POST', headers: jsonHeaders, body: JSON.stringify({ query: 'Harbor docs search Pagefind' }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-answer-backend')).toBe('extractive');
    const body = AskResponse.parse(await res.json());
    expect(body._meta).toMatchObject({ response_type: 'generate', version: ASSISTANT_API_VERSION, answer_backend: 'extractive' });
    expect(body.answer.length).toBeGreaterThan(0);
    expect(body.sources.map((s) => s.url)).toContain(`${SITE}/projects`);
    const limits = rateHeaders(res);
    expect(limits.limit).toBe(10);
    expect(limits.remaining).toBeLessThan(10);
  });

  it("POST /ask chooses passages by the question without the owner's name, which every page and the contact handles hold", async () => {
    const answerOf = async (query: string) => {
      const res = await get('/ask', { method: 'POST', headers: jsonHeaders, body: JSON.stringify({ query }) });
      expect(res.status).toBe(200);
      return AskResponse.parse(await res.json()).answer;
    };
    // the email, in the Contact page's opening, leads; the GitHub and Mastodon handles holding "robin" do not
    const contact = await answerOf('How can I contact Robin?');
    expect(contact.split('\n')[0]).toContain('robin@example.com');
    expect(contact).not.toContain('github.com/robin');
    // "done" is a form of "do", not a word the pages must hold; no page says it, so the Projects page's title still
    // holds every word the site knows and the page leads (not the Contact page's "Project enquiries")
    expect((await answerOf('What projects has Robin done?')).split('\n')[0]).toContain('A selection of recent work');
    // "describe" asks for something and names nothing: the owner is what is asked about
    expect(await answerOf('Describe Robin')).not.toMatch(/^This site does not cover this question/);
    // a portfolio is not documentation
    expect(await answerOf('How do I knit a scarf?')).toMatch(/^This site does not cover this question\. The closest pages are:/);
  });

  it('POST /api/chat streams the extractive answer and its sources', async () => {
    const res = await get('/api/chat', { method: 'POST', headers: chatHeaders, body: JSON.stringify({ messages: [{ role: 'user', content: 'How do I contact Robin by email?' }] }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    const cut = text.lastIndexOf(CHAT_SOURCES_MARKER);
    expect(cut).toBeGreaterThan(0);
    expect(text.slice(cut + CHAT_SOURCES_MARKER.length)).toMatch(/^(\[\d+\] .+: https:\/\/portfolio\.example\.test\/\S*\n)+$/);
    expect(text).toContain(`${SITE}/contact`);
  });

  it('static responses carry the rate-limit headers without spending the budget', async () => {
    const a = rateHeaders(await get('/llms.txt'));
    const b = rateHeaders(await get('/llms.txt'));
    expect(a.limit).toBe(10);
    expect(b.remaining).toBe(a.remaining);
  });
});
