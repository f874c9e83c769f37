// The one configuration loader of both apps (gateway/config.ts): every error names the
// variable, what it allows and what it got, all bad variables at once; the assistant's
// settings come from the same schema as the docs app's; the site URLs follow the build's rule.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../gateway/config.ts';
import { loadSiteConfig } from '../../src/lib/site-config.ts';
import { removeDir, writeTree } from '../helpers/fixture.ts';

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`no error for ${JSON.stringify(env)}`);
}

describe('configuration errors', () => {
  it('name the variable, the values it allows and the value it got', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'abc' }, /PORT: must be a whole number from 0 to 65535 \(got "abc"\)/],
      [{ PORT: '70000' }, /PORT: must be at most 65535 \(got "70000"\)/],
      [{ ASSISTANT_ENABLED: 'yes' }, /ASSISTANT_ENABLED: must be one of true, false, 1, 0 \(got "yes"\)/],
      [{ ASSISTANT_CONTENT_POLICY: 'strict' }, /ASSISTANT_CONTENT_POLICY: must be one of default, off \(got "strict"\)/],
      [{ REDIS_URL: 'http://x' }, /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL \(got "http:\/\/x"\)/],
      [{ ASSISTANT_BLOCKED_PATTERNS: 'casino' }, /ASSISTANT_BLOCKED_PATTERNS: must be a JSON array/],
      [{ ASSISTANT_BLOCKED_PATTERNS: '["foo(?=bar)"]' }, /ASSISTANT_BLOCKED_PATTERNS: "foo\(\?=bar\)" is not a valid RE2 regular expression/],
      [{ ASSISTANT_ALLOWED_ORIGINS: 'https://a.example/path' }, /ASSISTANT_ALLOWED_ORIGINS: "https:\/\/a\.example\/path" is not an origin/],
    ];
    for (const [env, message] of cases) expect(errorOf(env)).toMatch(message);
  });

  it('a site URL is an origin, for the build and the gateway alike', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ SITE_URL: 'https://example.com/docs-site' }, /SITE_URL: must be the origin the site is served at, without a path \(https:\/\/example\.com, not https:\/\/example\.com\/docs-site\)/],
      [{ SITE_URL: 'https://example.com/?ref=x' }, /SITE_URL: must not have a query or fragment/],
      [{ ASSISTANT_SITE_URL: 'https://me:secret@example.com' }, /ASSISTANT_SITE_URL: must not carry a user name or password/],
      [{ SITE_URL: 'example.com' }, /SITE_URL: must be an absolute http\(s\) URL, e.g\. https:\/\/docs\.example\.com/],
    ];
    for (const [env, message] of cases) {
      expect(errorOf(env)).toMatch(message);
      expect(() => loadSiteConfig(env)).toThrow(message);
    }
    // both give the same origin, so a build and a gateway of one site agree
    expect(loadConfig({ SITE_URL: 'HTTPS://Docs.Example.com:443/' }).siteUrl).toBe('https://docs.example.com');
    expect(loadSiteConfig({ SITE_URL: 'HTTPS://Docs.Example.com:443/' }).url).toBe('https://docs.example.com');
    expect(loadSiteConfig({ ASSISTANT_SITE_URL: 'http://[::1]:8080' }).assistantUrl).toBe('http://[::1]:8080');
    // a site given its own name is not described as this product
    expect(loadSiteConfig({ SITE_NAME: 'Vitest' }).description).toBe('Documentation for Vitest.');
    expect(loadSiteConfig({ SITE_NAME: 'Vitest', SITE_DESCRIPTION: 'Next generation testing.' }).description).toBe('Next generation testing.');
    expect(loadSiteConfig({}).description).toMatch(/^Documentation for Agent Docs: /);
  });

  it('a brought tree is named by Mintlify’s docs.json or its home page when SITE_NAME is not set: VitePress’s hero.name, its title, or the heading it opens with', () => {
    const tree = (home: string) => writeTree({ 'index.md': home, 'guide/intro.md': '# Intro\n' }, 'agent-docs-named-');
    const vitepress = tree('---\ntitle: Vitest | Home\nhero:\n  name: Vitest\n  text: Fast tests\n---\n');
    const titled = tree('---\ntitle: "Fastify | Docs"\n---\n');
    const headed = tree('<h1 align="center">Fastify</h1>\n\nThe documentation.\n');
    const atx = writeTree({ 'Index.md': '# Pino &amp; friends {#top}\n\nLogs.\n' }, 'agent-docs-named-');
    const untitled = tree('Welcome.\n\n# Not the name\n');
    const broken = tree('---\ntitle: [unclosed\n---\n');
    const mintlify = writeTree({ 'docs.json': '{"name": "Bun", "navigation": {}}', 'index.mdx': '---\ntitle: Welcome to Bun\n---\n' }, 'agent-docs-named-');
    const badConfig = writeTree({ 'mint.json': '{not json', 'index.mdx': '---\ntitle: Welcome to Bun\n---\n' }, 'agent-docs-named-');
    try {
      expect(loadSiteConfig({ CONTENT_DIR: vitepress })).toMatchObject({ name: 'Vitest', named: true, description: 'Documentation for Vitest.' });
      expect(loadSiteConfig({ CONTENT_DIR: titled })).toMatchObject({ name: 'Fastify', named: true });
      expect(loadSiteConfig({ CONTENT_DIR: vitepress, SITE_NAME: 'Our tests' })).toMatchObject({ name: 'Our tests', named: true });
      expect(loadSiteConfig({ CONTENT_DIR: headed })).toMatchObject({ name: 'Fastify', named: true });
      expect(loadSiteConfig({ CONTENT_DIR: atx })).toMatchObject({ name: 'Pino & friends', named: true });
      for (const dir of [untitled, broken]) expect(loadSiteConfig({ CONTENT_DIR: dir })).toMatchObject({ name: 'Agent Docs', named: false });
      // Mintlify names the site in its docs.json (mint.json before it), not on the home page
      expect(loadSiteConfig({ CONTENT_DIR: mintlify })).toMatchObject({ name: 'Bun', named: true });
      expect(loadSiteConfig({ CONTENT_DIR: badConfig })).toMatchObject({ name: 'Welcome to Bun', named: true });
    } finally {
      [vitepress, titled, headed, atx, untitled, broken, mintlify, badConfig].forEach(removeDir);
    }
  });

  it('a build output and a content folder that hold each other stop the build', () => {
    expect(() => loadSiteConfig({ CONTENT_DIR: '/srv/docs', DIST_DIR: '/srv/docs/dist' })).toThrow(/DIST_DIR \(\/srv\/docs\/dist\) is inside CONTENT_DIR \(\/srv\/docs\): the next build would read this build's output as pages/);
    expect(() => loadSiteConfig({ CONTENT_DIR: '/srv/out/site/docs', DIST_DIR: '/srv/out' })).toThrow(/CONTENT_DIR .* is inside DIST_DIR .*: the build empties its output folder and would delete the pages/);
    expect(loadSiteConfig({ CONTENT_DIR: '/srv/docs', DIST_DIR: '/srv/docs-dist' }).distDir).toBe('/srv/docs-dist');
  });

  it('list every bad variable at once', () => {
    const message = errorOf({ PORT: 'x', RATE_LIMIT_MAX: '0', ASSISTANT_CONTENT_POLICY: 'nope' });
    expect(message.split('\n').filter((l) => l.startsWith('  - ')).map((l) => l.slice(4).split(':')[0])).toEqual(['PORT', 'RATE_LIMIT_MAX', 'ASSISTANT_CONTENT_POLICY']);
  });
});

describe('the assistant settings come from the same loader', () => {
  it('content policy: built-in rules by default, the operator patterns compiled case-insensitive', () => {
    expect(loadConfig({}).assistant.contentPolicy).toEqual({ builtIn: true, patterns: [] });
    const policy = loadConfig({ ASSISTANT_CONTENT_POLICY: 'off', ASSISTANT_BLOCKED_PATTERNS: '["\\\\bcasino\\\\b"]' }).assistant.contentPolicy;
    expect(policy.builtIn).toBe(false);
    expect(policy.patterns.map((p) => p.test('CASINO night'))).toEqual([true]);
  });

  it('keeps every default', () => {
    const c = loadConfig({});
    expect(c.assistant).toMatchObject({ enabled: true, port: 4322, siteUrl: 'http://localhost:4322', rateLimit: { max: 10, windowSeconds: 60 }, allowedOrigins: [] });
    expect(c.bodyLimitBytes).toBe(65_536);
    expect(c.host).toBe('0.0.0.0');
  });
});
