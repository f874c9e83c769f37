// Shared by the docs gateway tests: a gateway per suite, raw HTTP for paths fetch()
// would normalize, SSE parsing, and checks of the headers every response carries.
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, expect } from 'vitest';
import type { z } from 'zod';
import { Problem } from '../../gateway/contract/docs-api.ts';
import { problemCatalogue, type ProblemSlug } from '../../gateway/contract/problems.ts';
import { copyBuild } from '../helpers/fixture.ts';
import { startGateway, type RunningGateway } from '../helpers/gateway.ts';

/** A private copy of a build (for tests that break it). */
export function copyDist(distDir: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'agent-docs-dist-copy-'));
  copyBuild(distDir, copy);
  return copy;
}

/** Env most gateway tests use: a budget they never hit, one search worker (two cores). */
export const roomyEnv = { RATE_LIMIT_MAX: '100000', SITE_RATE_LIMIT_MAX: '100000', ASK_MODEL_RATE_LIMIT_MAX: '100000', SEARCH_WORKERS: '1', ASSISTANT_ENABLED: 'false' };

/** A gateway for the enclosing suite (or file): started before its tests, stopped after; its fields are set once started. */
export function useGateway(distDir: string, env: Record<string, string> = roomyEnv): RunningGateway {
  const gw = {} as RunningGateway;
  beforeAll(async () => {
    Object.assign(gw, await startGateway(distDir, env));
  });
  afterAll(() => gw.stop?.());
  return gw;
}

/** `n` requests one after the other, bodies read. */
export async function spend(url: string, n: number, init?: RequestInit): Promise<Response[]> {
  const out: Response[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    out.push(res);
  }
  return out;
}

/** Parses a body against a contract schema and fails with the zod issues. */
export function expectValid<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const r = schema.safeParse(data);
  if (!r.success) throw new Error(`does not match the contract: ${JSON.stringify(r.error.issues, null, 1)}\nbody: ${JSON.stringify(data).slice(0, 2000)}`);
  return r.data;
}

export function expectRateLimitHeaders(h: Headers, max?: number): void {
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(h.get(name), name).toMatch(/^\d+$/);
  }
  expect(h.get('ratelimit-policy')).toMatch(/^\d+;w=\d+$/);
  expect(h.get('x-ratelimit-limit')).toBe(h.get('ratelimit-limit'));
  expect(h.get('x-ratelimit-remaining')).toBe(h.get('ratelimit-remaining'));
  expect(h.get('x-ratelimit-reset')).toBe(h.get('ratelimit-reset'));
  if (max !== undefined) {
    expect(h.get('ratelimit-limit')).toBe(String(max));
    expect(h.get('ratelimit-policy')).toMatch(new RegExp(`^${max};w=`));
  }
}

export const POLICY_LINK = '</api-policy.md>; rel="deprecation"';

/** Headers of every API response (success or error). */
export function expectApiHeaders(h: Headers): void {
  expectRateLimitHeaders(h);
  expect(h.get('access-control-allow-origin')).toBe('*');
  expect(h.get('link') ?? '').toContain(POLICY_LINK);
  expect(h.get('www-authenticate')).toBeNull();
}

/** Checks a Problem response and returns its body. */
export async function expectProblem(res: Response, slug: ProblemSlug, siteUrl: string, instance?: string): Promise<z.infer<typeof Problem>> {
  const kind = problemCatalogue[slug];
  expect(res.status).toBe(kind.status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = expectValid(Problem, await res.json());
  expect(body.title).toBe(kind.title);
  expect(body.status).toBe(kind.status);
  expect(body.type).toBe(`${siteUrl}/docs/api/errors#${slug}`);
  expect(typeof body.detail).toBe('string');
  if (instance) expect(body.instance).toBe(instance);
  if (kind.status === 404) {
    expect(Array.isArray(body.links) && body.links.length > 0).toBe(true);
    expect(body.markdown).toMatch(/\S/);
  }
  expectRateLimitHeaders(res.headers);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  return body;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET with the path sent byte for byte (fetch would resolve `..` and re-encode). */
export function rawRequest(base: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: opts.method ?? 'GET', path, headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export interface SseEvent {
  event: string;
  data: unknown;
}

/** Reads a whole event stream; every data line must be JSON. */
export async function readSse(res: Response): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent: (e) => events.push({ event: e.event ?? 'message', data: JSON.parse(e.data) }),
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
  return events;
}

/** Splits a Link header into {url, rel}. */
export function parseLinks(header: string | null): { url: string; rel: string }[] {
  if (!header) return [];
  return [...header.matchAll(/<([^>]*)>\s*;\s*rel="([^"]+)"/g)].map((m) => ({ url: m[1]!, rel: m[2]! }));
}
