// The deprecation registry (DEPRECATIONS) on the real gateway: headers while an
// endpoint is deprecated, 410 after its Sunset, and the startup check.
import { describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/gateway.ts';
import { fixtureBuild } from '../helpers/manifest.ts';
import { runToExit } from './process.ts';
import { POLICY_LINK, expectApiHeaders, expectProblem, parseLinks, roomyEnv, useGateway } from './helpers.ts';

const { distDir, manifest, site } = fixtureBuild();
const DAY = 86_400_000;
const now = Date.now();
// IMF-fixdates at whole seconds, as the headers carry them.
const imf = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toUTCString();
const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const active = { endpoint: '/api/search', deprecation: imf(now - 30 * DAY), sunset: imf(now + 300 * DAY), replacement: '/api/v2/search', notes: '/docs/api/versioning' };
// The documented alternative spelling: `path`, ISO dates, `link`.
const retired = { path: '/api/md/batch', deprecation: iso(now - 400 * DAY), sunset: iso(now - 10 * DAY), replacement: '/api/v2/md/batch', link: 'https://migrate.example/batch' };
const aliasOnly = { endpoint: '/api/v1/health', deprecation: imf(now - DAY), sunset: imf(now + 200 * DAY), replacement: '/api/v2/health' };

const gw = useGateway(distDir, { ...roomyEnv, DEPRECATIONS: JSON.stringify([active, retired, aliasOnly]) });

describe('a deprecated endpoint', () => {
  it('carries Deprecation, Sunset and the migration links, on the alias too', async () => {
    for (const path of ['/api/search?query=install', '/api/v1/search?query=install']) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.status).toBe(200);
      expectApiHeaders(res.headers);
      expect(res.headers.get('deprecation')).toBe(active.deprecation);
      expect(res.headers.get('sunset')).toBe(active.sunset);
      const links = parseLinks(res.headers.get('link'));
      expect(res.headers.get('link')).toContain(POLICY_LINK);
      expect(links).toEqual(expect.arrayContaining([
        { url: '/docs/api/versioning', rel: 'deprecation' },
        { url: '/api/v2/search', rel: 'successor-version' },
      ]));
    }
    // Errors of a deprecated endpoint say so as well.
    const bad = await fetch(`${gw.url}/api/search`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('sunset')).toBe(active.sunset);
  });

  it('answers 410 Gone after its Sunset, naming the replacement', async () => {
    for (const path of ['/api/md/batch', '/api/v1/md/batch']) {
      const res = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: [manifest.pages[0]!.path] }) });
      expectApiHeaders(res.headers);
      expect(res.headers.get('deprecation')).toBe(new Date(retired.deprecation).toUTCString());
      expect(res.headers.get('sunset')).toBe(new Date(retired.sunset).toUTCString());
      expect(parseLinks(res.headers.get('link'))).toEqual(expect.arrayContaining([{ url: 'https://migrate.example/batch', rel: 'deprecation' }]));
      const body = await expectProblem(res, 'gone', site, path);
      expect(body.replacement).toBe('/api/v2/md/batch');
      expect(body.detail).toContain('/api/v2/md/batch');
    }
  });

  it('can deprecate only the /api/v1 alias', async () => {
    const v1 = await fetch(`${gw.url}/api/v1/health`);
    expect(v1.status).toBe(200);
    expect(v1.headers.get('sunset')).toBe(aliasOnly.sunset);
    const plain = await fetch(`${gw.url}/api/health`);
    expect(plain.headers.get('deprecation')).toBeNull();
    expect(plain.headers.get('sunset')).toBeNull();
  });

  it('leaves other endpoints without Deprecation or Sunset', async () => {
    for (const path of ['/ask?q=install', '/api/jobs/nope', '/api/nope']) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.headers.get('deprecation')).toBeNull();
      expect(res.headers.get('sunset')).toBeNull();
      expect(res.headers.get('link')).toContain(POLICY_LINK);
    }
  });
});

describe('nothing deprecated by default', () => {
  it('sends neither Deprecation nor Sunset', async () => {
    const plain = await startGateway(distDir, roomyEnv);
    try {
      for (const path of ['/api/search?query=a', '/api/health', '/ask?q=a', '/api/openapi']) {
        const res = await fetch(`${plain.url}${path}`);
        expect(res.headers.get('deprecation')).toBeNull();
        expect(res.headers.get('sunset')).toBeNull();
        expect(res.headers.get('link')).toBe(POLICY_LINK);
      }
    } finally {
      await plain.stop();
    }
  });
});

describe('startup validation of DEPRECATIONS', () => {
  const cases: [string, unknown, RegExp][] = [
    ['a Sunset less than 6 months after the Deprecation', [{ ...active, sunset: imf(new Date(active.deprecation).getTime() + 150 * DAY) }], /6 months/],
    ['an unknown endpoint', [{ ...active, endpoint: '/api/nope' }], /must be one of/],
    ['a date that is not an HTTP or ISO date', [{ ...active, deprecation: 'next week' }], /IMF-fixdate/],
    ['a missing replacement', [{ endpoint: active.endpoint, deprecation: active.deprecation, sunset: active.sunset }], /replacement/],
    ['not JSON', 'nope', /not valid JSON/],
  ];
  for (const [what, value, message] of cases) {
    it(`refuses to start with ${what}`, async () => {
      const { code, output } = await runToExit({ DIST_DIR: distDir, DEPRECATIONS: typeof value === 'string' ? value : JSON.stringify(value), PORT: '0' });
      expect(code).toBe(1);
      expect(output).toContain('DEPRECATIONS');
      expect(output).toMatch(message);
    });
  }
});
