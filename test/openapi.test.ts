// The OpenAPI description generated from the zod contract: lints clean with
// Redocly's recommended rules, documents every spec path and its /api/v1 alias,
// and matches what the build wrote to /openapi.json and /api/openapi.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lint } from '@redocly/openapi-core';
import { describe, expect, inject, it } from 'vitest';
import { API_VERSION, docsEndpoints, v1Alias } from '../gateway/contract/docs-api.ts';
import { docsOpenApi } from '../gateway/contract/openapi.ts';
import { problemCatalogue } from '../gateway/contract/problems.ts';

type Operation = { operationId: string; parameters?: { name: string; in: string }[]; responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }> };
type Doc = { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const doc = docsOpenApi({ siteUrl: 'https://docs.example.test', siteName: 'Agent Docs', description: 'Test docs.' }) as unknown as Doc;

const specPaths = ['/api/search', '/ask', '/api/md/batch', '/api/jobs/{jobId}', '/api/health', '/api/mcp'];
const discovery = ['/openapi.json', '/api/openapi', '/llms.txt', '/.well-known/api-catalog', '/.well-known/agent-card.json', '/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server'];

describe('docsOpenApi()', () => {
  it('lints without errors (Redocly recommended)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lint({ ref: file, config }).finally(() => rmSync(dir, { recursive: true, force: true }));
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors.map((e) => `${e.ruleId}: ${e.message} at ${e.location?.[0]?.pointer}`)).toEqual([]);
  });

  it('is OpenAPI 3.1 with the contract version', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe(API_VERSION);
  });

  it('documents every spec path, its /api/v1 alias and the discovery files', () => {
    for (const p of specPaths) {
      expect(doc.paths[p], p).toBeDefined();
      expect(doc.paths[v1Alias(p)], v1Alias(p)).toBeDefined();
    }
    expect(doc.paths['/api/v1/ask']).toBeDefined();
    for (const p of discovery) expect(doc.paths[p], p).toBeDefined();
    for (const ep of docsEndpoints) for (const m of ep.methods) expect(doc.paths[ep.path]![m.toLowerCase()], `${m} ${ep.path}`).toBeDefined();
    expect(doc.paths['/ask']!.get && doc.paths['/ask']!.post).toBeTruthy();
    expect(Object.keys(doc.paths['/api/mcp']!).sort()).toEqual(['get', 'post']);
    expect(doc.paths['/api/mcp']!.get!.responses['405']).toBeDefined();
  });

  it('documents every parameter', () => {
    const names = (path: string, method: string) => (doc.paths[path]![method]!.parameters ?? []).map((p) => `${p.in}:${p.name}`).sort();
    expect(names('/api/search', 'get')).toEqual(['query:cursor', 'query:limit', 'query:query', 'query:tag']);
    expect(names('/ask', 'get')).toEqual(['header:Idempotency-Key', 'query:mode', 'query:q', 'query:query', 'query:question', 'query:streaming']);
    expect(names('/ask', 'post')).toEqual(['header:Idempotency-Key']);
    expect(names('/api/md/batch', 'post')).toEqual(['header:Idempotency-Key', 'header:Prefer', 'query:async']);
    expect(names('/api/jobs/{jobId}', 'get')).toEqual(['path:jobId']);
  });

  it('documents every response header and every status with the Problem schema', () => {
    const resolve = (r: unknown): { headers?: Record<string, unknown>; content?: Record<string, { schema?: { $ref?: string } }> } => {
      const ref = (r as { $ref?: string }).$ref;
      if (!ref) return r as never;
      return (doc.components as unknown as Record<string, Record<string, unknown>>)[ref.split('/')[2]!]![ref.split('/')[3]!] as never;
    };
    const seen = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, raw] of Object.entries(op.responses)) {
          const r = resolve(raw);
          for (const h of Object.keys(r.headers ?? {})) seen.add(h);
          if (Number(status) >= 400) expect(r.content?.['application/json']?.schema?.$ref, `${method} ${path} ${status}`).toBe('#/components/schemas/Problem');
        }
      }
    }
    for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Total-Count', 'X-Next-Cursor', 'Link', 'Location', 'Idempotency-Key', 'Retry-After', 'Deprecation', 'Sunset', 'Allow']) {
      expect(seen.has(h), h).toBe(true);
    }
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path]![method]!.responses).sort();
    expect(statuses('/api/search', 'get')).toEqual(expect.arrayContaining(['200', '400', '429', '500']));
    expect(statuses('/ask', 'post')).toEqual(expect.arrayContaining(['200', '400', '413', '415', '429', '500']));
    expect(statuses('/api/md/batch', 'post')).toEqual(expect.arrayContaining(['200', '202', '400', '413', '415', '429', '500']));
    expect(statuses('/api/jobs/{jobId}', 'get')).toEqual(expect.arrayContaining(['200', '404', '429', '500']));
    expect(statuses('/api/health', 'get')).toEqual(expect.arrayContaining(['200', '503']));
    const ask200 = doc.paths['/ask']!.get!.responses['200']!.content!;
    expect(Object.keys(ask200).sort()).toEqual(['application/json', 'text/event-stream']);
  });

  it('has a component schema for every contract body and SSE payload', () => {
    for (const name of ['SearchResult', 'AskRequest', 'NlwebResult', 'AskResponse', 'AskStartEvent', 'AskResultEvent', 'AskCompleteEvent', 'BatchMarkdownRequest', 'BatchMarkdownResponse', 'JobAccepted', 'JobStatus', 'Health', 'Problem']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });

  it('gives every problem of the catalogue a distinct slug and a known status', () => {
    const titles = Object.values(problemCatalogue).map((p) => p.title);
    expect(new Set(titles).size).toBe(titles.length);
    for (const [slug, p] of Object.entries(problemCatalogue)) expect(slug).toBe(p.title.toLowerCase().replace(/ /g, '-'));
  });
});

describe('the built OpenAPI files', () => {
  it('/openapi.json and /api/openapi are the generated description of the fixture site', () => {
    const site = join(inject('distDir'), 'site');
    const written = JSON.parse(readFileSync(join(site, 'openapi.json'), 'utf8')) as Doc;
    expect(readFileSync(join(site, 'api', 'openapi'), 'utf8')).toBe(readFileSync(join(site, 'openapi.json'), 'utf8'));
    expect(Object.keys(written.paths).sort()).toEqual(Object.keys(doc.paths).sort());
    expect(written.info.version).toBe(API_VERSION);
  });
});
