// A short fuzz run inside `npm test` (the long one is `npm run fuzz`): contract-made
// and hostile requests against a real gateway on the fixture build, every response
// checked (no 5xx, the app's envelope, content type, rate-limit headers, contract
// shapes), /api/health watched throughout, the process alive at the end.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkResponse } from '../scripts/lib/fuzz/check.ts';
import { fuzzReportMarkdown, runFuzz } from '../scripts/lib/fuzz/run.ts';
import { startGateway, type RunningGateway } from './helpers/gateway.ts';

const ORIGIN = 'https://fuzz.example.test';
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(inject('distDir'), { RATE_LIMIT_MAX: '1000000000', SITE_RATE_LIMIT_MAX: '1000000000', ASSISTANT_RATE_LIMIT_MAX: '1000000000', ASSISTANT_ALLOWED_ORIGINS: ORIGIN });
});
afterAll(async () => {
  await gateway?.stop();
});

it('answers 2,000 generated requests with no finding', { timeout: 180_000 }, async () => {
  const manifest = JSON.parse(readFileSync(join(inject('distDir'), 'site', 'build-manifest.json'), 'utf8')) as { pages: { path: string }[] };
  const report = await runFuzz({
    docsUrl: gateway.url,
    assistantUrl: gateway.assistantUrl,
    pages: manifest.pages.map((p) => p.path).filter((p) => p.startsWith('/docs/')),
    assistantOrigin: ORIGIN,
    requests: 2_000,
    seed: 20261125,
    concurrency: 8,
    alive: () => gateway.process.exitCode === null,
    // Other test files run beside this one on two cores: only a real stall, not a busy machine, counts here.
    healthStallMs: 5_000,
  });
  expect(report.requests).toBe(2_000);
  expect(report.shapes).toBeGreaterThan(100);
  expect(report.findings, fuzzReportMarkdown(report)).toEqual([]);
  expect(report.gatewayAlive).toBe(true);
});

it("reads a request target as the server routes it: `//x/api/y` is a path, not the host x's /api/y", () => {
  const html404 = { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html>', ms: 1 };
  const request = (path: string) => ({ target: 'docs' as const, family: 'static', variant: 'GET', method: 'GET', path, headers: {} });
  expect(checkResponse(request('//llms.txt/api/%00'), html404).filter((v) => v.rule === 'envelope')).toEqual([]);
  // a path that is an API path still needs the Problem envelope
  expect(checkResponse(request('/api/%00'), html404).map((v) => v.rule)).toContain('envelope');
});
