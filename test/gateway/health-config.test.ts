// GET /api/health on a good build, on a build whose manifest or index is missing,
// and the configuration check at startup.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, Health } from '../../gateway/contract/docs-api.ts';
import { startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { loadConfig } from '../../gateway/config.ts';
import { clientIp, parseTrustProxy } from '../../gateway/limits/client-ip.ts';
import { runToExit } from './process.ts';
import { fixtureBuild } from '../helpers/manifest.ts';
import { copyDist, expectApiHeaders, expectProblem, expectValid, roomyEnv } from './helpers.ts';

const { distDir, manifest, site } = fixtureBuild();
const copies: string[] = [];
const gateways: RunningGateway[] = [];

async function start(dir: string, env: Record<string, string> = {}) {
  const gw = await startGateway(dir, { ...roomyEnv, SITE_URL: site, ...env });
  gateways.push(gw);
  return gw;
}
function copy(): string {
  const dir = copyDist(distDir);
  copies.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  for (const c of copies) rmSync(c, { recursive: true, force: true });
});

describe('GET /api/health', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await start(distDir);
  });

  it('is ok while serving, on both paths', async () => {
    for (const path of ['/api/health', '/api/v1/health']) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.status).toBe(200);
      expectApiHeaders(res.headers);
      const body = expectValid(Health, await res.json());
      expect(body).toEqual({ status: 'ok', service: 'docs-read-api', version: API_VERSION });
    }
    expect((await fetch(`${gw.url}/api/health`, { method: 'HEAD' })).status).toBe(200);
    const post = await fetch(`${gw.url}/api/health`, { method: 'POST' });
    await expectProblem(post, 'method-not-allowed', site);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('turns 503 when the manifest becomes unreadable', async () => {
    const dir = copy();
    const broken = await start(dir);
    expect((await fetch(`${broken.url}/api/health`)).status).toBe(200);
    rmSync(join(dir, 'site', 'build-manifest.json'));
    let res = await fetch(`${broken.url}/api/health`);
    for (let i = 0; i < 100 && res.status === 200; i++) {
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 50));
      res = await fetch(`${broken.url}/api/health`);
    }
    expectApiHeaders(res.headers);
    const body = await expectProblem(res, 'service-unavailable', site, '/api/health');
    expect(body.detail).toMatch(/manifest/);
  });
});

describe('a build without a search index', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    const dir = copy();
    rmSync(join(dir, 'site', 'pagefind', 'pagefind-entry.json'));
    gw = await start(dir);
  });

  it('reports 503 on health and search, and keeps serving pages and Markdown', async () => {
    const health = await expectProblem(await fetch(`${gw.url}/api/health`), 'service-unavailable', site);
    expect(health.detail).toMatch(/search index/);
    await expectProblem(await fetch(`${gw.url}/api/search?query=install`), 'service-unavailable', site);
    await expectProblem(await fetch(`${gw.url}/ask?q=install`), 'service-unavailable', site);
    const page = manifest.pages[0]!;
    expect((await fetch(`${gw.url}${page.path}`)).status).toBe(200);
    const batch = await fetch(`${gw.url}/api/md/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: [page.path] }) });
    expect(batch.status).toBe(200);
  });
});

describe('a build without a manifest', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    const dir = copy();
    rmSync(join(dir, 'site', 'build-manifest.json'));
    gw = await start(dir);
  });

  it('reports 503 and uses SITE_URL for Problem types', async () => {
    const body = await expectProblem(await fetch(`${gw.url}/api/health`), 'service-unavailable', site);
    expect(body.detail).toMatch(/manifest/);
    await expectProblem(
      await fetch(`${gw.url}/api/md/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"paths":["/docs/a/b"]}' }),
      'service-unavailable',
      site,
    );
    await expectProblem(await fetch(`${gw.url}/api/jobs/j1.x.AAAAAAAA`), 'not-found', site);
    const accepted = await fetch(`${gw.url}/api/md/batch?async=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"paths":["/docs/a/b"]}' });
    expect(accepted.status).toBe(202);
    await expectProblem(await fetch(new URL(accepted.headers.get('location')!, gw.url)), 'service-unavailable', site);
    expect((await fetch(`${gw.url}/llms.txt`)).status).toBe(200);
  });
});

describe('configuration errors stop startup with the variable named', () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ RATE_LIMIT_MAX: '0' }, 'RATE_LIMIT_MAX'],
    [{ RATE_LIMIT_WINDOW_S: '1.5' }, 'RATE_LIMIT_WINDOW_S'],
    [{ TRUST_PROXY: 'sometimes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/99' }, 'TRUST_PROXY'],
    [{ REDIS_URL: 'http://localhost:6379' }, 'REDIS_URL'],
    [{ LLM_BASE_URL: 'http://localhost:11434/v1' }, 'LLM_MODEL'],
    [{ LLM_BASE_URL: 'not a url', LLM_MODEL: 'm' }, 'LLM_BASE_URL'],
    [{ BODY_LIMIT_BYTES: '10' }, 'BODY_LIMIT_BYTES'],
    [{ SEARCH_CACHE_MB: '-1' }, 'SEARCH_CACHE_MB'],
    [{ ASSISTANT_ENABLED: 'true', PORT: '0', ASSISTANT_PORT: '0', ASSISTANT_BLOCKED_PATTERNS: '["(unclosed"]' }, 'ASSISTANT_BLOCKED_PATTERNS'],
  ];
  for (const [env, name] of cases) {
    it(`${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')} → exit 1 naming ${name}`, async () => {
      const { code, output } = await runToExit({ DIST_DIR: distDir, ...env });
      expect(code).toBe(1);
      expect(output).toContain('Invalid configuration');
      expect(output).toContain(name);
      // Nothing listens before every setting is known good.
      expect(output).not.toContain('listening');
    });
  }

  it('accepts every documented TRUST_PROXY form', () => {
    for (const value of ['false', 'true', '0', '2', '127.0.0.1,10.0.0.0/8', 'loopback, ::1/128', 'private']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).not.toThrow();
    }
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    // the search cache's memory bound: MiB in, bytes out; unset leaves the engine's default
    expect(loadConfig({ SEARCH_CACHE_MB: '64' }).search.cacheBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({}).search.cacheBytes).toBeUndefined();
  });

  it('resolves client addresses as documented', () => {
    const list = parseTrustProxy('10.0.0.0/8');
    expect(clientIp(false, '10.0.0.1', '1.1.1.1')).toBe('10.0.0.1');
    expect(clientIp(true, '10.0.0.1', '1.1.1.1, 2.2.2.2')).toBe('1.1.1.1');
    expect(clientIp({ hops: 1 }, '10.0.0.1', '1.1.1.1, 2.2.2.2')).toBe('2.2.2.2');
    expect(clientIp({ hops: 2 }, '10.0.0.1', '1.1.1.1, 2.2.2.2')).toBe('1.1.1.1');
    expect(clientIp({ hops: 5 }, '10.0.0.1', '1.1.1.1')).toBe('1.1.1.1');
    expect(clientIp(list, '10.0.0.1', '1.1.1.1, 10.2.3.4')).toBe('1.1.1.1');
    expect(clientIp(list, '192.168.1.1', '1.1.1.1')).toBe('192.168.1.1');
    expect(clientIp(list, '::ffff:10.0.0.1', 'garbage, 1.1.1.1')).toBe('1.1.1.1');
  });

  it('reads CONFIG_FILE (KEY=value lines); the environment wins over it', async () => {
    const dir = copy();
    const file = join(dir, 'gateway.env');
    writeFileSync(file, '# gateway settings\nRATE_LIMIT_MAX=3\nRATE_LIMIT_WINDOW_S="30"\n');
    const gw = await start(distDir, { CONFIG_FILE: file, RATE_LIMIT_MAX: '' });
    const res = await fetch(`${gw.url}/api/search?query=install`);
    expect(res.headers.get('ratelimit-policy')).toBe('3;w=30');
    expect(loadConfig({ CONFIG_FILE: file, RATE_LIMIT_MAX: '9' }).rateLimit).toEqual({ max: 9, windowSeconds: 30 });
    const missing = await runToExit({ DIST_DIR: distDir, CONFIG_FILE: join(dir, 'nope.env') });
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('CONFIG_FILE');
  });

  it('reads a CONFIG_FILE saved with a byte-order mark and CRLF, and names a misspelt setting in it', () => {
    const dir = copy();
    const windows = join(dir, 'windows.env');
    writeFileSync(windows, '\ufeffRATE_LIMIT_MAX=4\r\nRATE_LIMIT_WINDOW_S=20\r\n');
    expect(loadConfig({ CONFIG_FILE: windows }).rateLimit).toEqual({ max: 4, windowSeconds: 20 });
    const typo = join(dir, 'typo.env');
    // other programs' variables are no concern of the gateway's; a near miss of one of its own is
    writeFileSync(typo, 'NODE_ENV=production\nSITE_NAME=Docs\nRATE_LIMT_MAX=5\n');
    expect(() => loadConfig({ CONFIG_FILE: typo })).toThrow(/CONFIG_FILE: \S+typo\.env sets RATE_LIMT_MAX \(did you mean RATE_LIMIT_MAX\?\), which is no setting of the gateway/);
  });

  it('defaults match the spec', () => {
    const c = loadConfig({});
    expect(c.port).toBe(4321);
    expect(c.rateLimit).toEqual({ max: 120, windowSeconds: 60 });
    expect(c.deprecations).toEqual([]);
    expect(c.llm).toBeUndefined();
    expect(c.assistant.port).toBe(4322);
  });
});
