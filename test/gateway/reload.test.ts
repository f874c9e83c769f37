// Zero-downtime content updates: a gateway on a release link (DIST_DIR=<root>/current)
// keeps answering while `npm run release` builds a new release and switches the link;
// it then serves the new build (a page that only the new build has is searchable and
// served), and a cursor or job id of the old build gets the documented 400 / 404.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyBuild, fixtureAssistantUrl, fixtureSiteUrl, makeFixtureContent, removeDir } from '../helpers/fixture.ts';
import { startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { expectProblem, roomyEnv } from './helpers.ts';

const distDir = inject('distDir');
const releaseScript = fileURLToPath(new URL('../../scripts/release.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const WORD = 'quokkafrobnication';
const NEW_PAGE = '/docs/getting-started/release-check';

describe('a release switched under load', () => {
  let root: string;
  let content: string;
  let gw: RunningGateway;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'agent-docs-releases-'));
    mkdirSync(join(root, 'releases'));
    copyBuild(distDir, join(root, 'releases', 'initial'));
    symlinkSync(join('releases', 'initial'), join(root, 'current'));
    content = makeFixtureContent();
    writeFileSync(
      join(content, 'docs', 'getting-started', 'release-check.md'),
      `---\ntitle: Release check\ndescription: A page only the second release has.\n---\n\nThe ${WORD} page exists only after the switch.\n`,
    );
    gw = await startGateway(join(root, 'current'), { ...roomyEnv, SITE_URL: fixtureSiteUrl, RELOAD_CHECK_MS: '200' });
  });
  afterAll(async () => {
    await gw?.stop();
    removeDir(root);
    removeDir(content);
  });

  it('answers every request during the build and the switch, then serves the new build', async () => {
    // of the old build: a cursor and a job id
    const first = await fetch(`${gw.url}/api/search?query=gateway&limit=1`);
    const oldCursor = first.headers.get('x-next-cursor')!;
    expect(oldCursor, `${first.status} ${await first.text()}\n${gw.output()}`).toBeTruthy();
    const accepted = await fetch(`${gw.url}/api/md/batch?async=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"paths":["/docs/api/search"]}' });
    const oldJob = new URL(accepted.headers.get('location')!, gw.url).pathname;
    expect((await fetch(`${gw.url}${oldJob}`)).status).toBe(200);
    expect(Number((await fetch(`${gw.url}/api/search?query=${WORD}`)).headers.get('x-total-count'))).toBe(0);

    // the load: three clients in a loop until the new page is found
    const requests = [
      () => fetch(`${gw.url}/api/search?query=search+index&limit=5`),
      () => fetch(`${gw.url}/ask?query=how+do+I+deploy`),
      () => fetch(`${gw.url}/api/md/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"paths":["/docs/api/search","/docs/api/ask"]}' }),
      () => fetch(`${gw.url}/docs/api/search`),
      () => fetch(`${gw.url}/api/health`),
    ];
    let sent = 0;
    const failures: string[] = [];
    let switched = false;
    const client = async (k: number) => {
      for (let i = k; !switched || i % 50 !== 0; i++) {
        const res = await requests[i % requests.length]!().catch((err: Error) => err);
        sent++;
        if (res instanceof Error) failures.push(`#${i % requests.length}: ${res.message}`);
        else {
          await res.arrayBuffer();
          if (res.status !== 200) failures.push(`#${i % requests.length}: ${res.status}`);
        }
      }
    };
    let releaseDone = false;
    const watcher = (async () => {
      for (let afterRelease = 0; afterRelease < 100; afterRelease += releaseDone ? 1 : 0) {
        const res = await fetch(`${gw.url}/api/search?query=${WORD}`);
        const total = Number(res.headers.get('x-total-count'));
        if (total > 0) return (switched = true);
        await new Promise((r) => setTimeout(r, 200));
      }
      return (switched = true); // not found 20 s after the switch: the assertions below say so
    })();
    const clients = [0, 1, 2].map(client);

    let releaseLog = '';
    const release = spawn(process.execPath, [releaseScript], {
      cwd: repoRoot,
      env: { ...process.env, DIST_DIR: join(root, 'current'), CONTENT_DIR: content, SITE_URL: fixtureSiteUrl, ASSISTANT_SITE_URL: fixtureAssistantUrl, ASTRO_CACHE_DIR: join(root, '.astro-cache') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    release.stdout!.on('data', (d: Buffer) => (releaseLog += d.toString()));
    release.stderr!.on('data', (d: Buffer) => (releaseLog += d.toString()));
    const [code] = await new Promise<[number | null]>((r) => release.on('exit', (c) => r([c])));
    releaseDone = true;
    expect(code, releaseLog).toBe(0);
    expect(readlinkSync(join(root, 'current'))).toMatch(/^releases\/\d{8}T\d{6}/);
    await watcher;
    await Promise.all(clients);
    console.log(`reload under load: ${sent} requests, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(gw.output()).toMatch(/serving build [0-9a-f]{16} from .*releases\/\d{8}T\d{6}/);

    // the new build, whole: search, the page, its twin in a batch
    const hits = await (await fetch(`${gw.url}/api/search?query=${WORD}`)).json();
    expect(hits[0].url).toContain(NEW_PAGE);
    expect((await fetch(`${gw.url}${NEW_PAGE}`)).status).toBe(200);
    const batch = await (await fetch(`${gw.url}/api/md/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: [NEW_PAGE] }) })).json();
    expect(batch.results[0].markdown).toContain(WORD);
    // the old build's cursor and job id: the documented answers
    await expectProblem(await fetch(`${gw.url}/api/search?query=gateway&limit=1&cursor=${encodeURIComponent(oldCursor)}`), 'invalid-cursor', fixtureSiteUrl);
    await expectProblem(await fetch(`${gw.url}${oldJob}`), 'not-found', fixtureSiteUrl);
  }, 300_000);
});

describe('a release that must not be switched to', () => {
  let root: string;
  let gw: RunningGateway;
  const link = () => join(root, 'current');
  /** Points the link at `releases/<name>` the way npm run release does (one rename). */
  const switchTo = (name: string) => {
    symlinkSync(join('releases', name), `${link()}.next`);
    renameSync(`${link()}.next`, link());
  };
  const waitForLog = async (text: string) => {
    for (let i = 0; i < 300 && !gw.output().includes(text); i++) await new Promise((r) => setTimeout(r, 50));
    expect(gw.output()).toContain(text);
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'agent-docs-releases-'));
    for (const name of ['good', 'broken', 'elsewhere']) copyBuild(distDir, join(root, 'releases', name));
    rmSync(join(root, 'releases', 'broken', 'site', 'build-manifest.json'));
    const manifestFile = join(root, 'releases', 'elsewhere', 'site', 'build-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    manifest.settings.siteUrl = 'https://elsewhere.example.test';
    writeFileSync(manifestFile, JSON.stringify(manifest));
    symlinkSync(join('releases', 'good'), link());
    gw = await startGateway(link(), { ...roomyEnv, SITE_URL: fixtureSiteUrl, RELOAD_CHECK_MS: '100' });
  });
  afterAll(async () => {
    await gw?.stop();
    if (root) removeDir(root);
  });

  it('keeps serving the old build when the new one does not load or was made for another SITE_URL', async () => {
    switchTo('broken');
    await waitForLog(`the build in ${join(root, 'releases', 'broken')} did not load; still serving ${join(root, 'releases', 'good')}`);
    expect((await fetch(`${gw.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${gw.url}/api/search?query=gateway`)).status).toBe(200);
    switchTo('elsewhere');
    await waitForLog('SITE_URL is https://docs.example.test, but the build in');
    expect(gw.output()).toContain(`not switching to the build in ${join(root, 'releases', 'elsewhere')}`);
    expect((await fetch(`${gw.url}/api/health`)).status).toBe(200);
    // each refused build is tried once per switch, not on every check
    await new Promise((r) => setTimeout(r, 500));
    expect(gw.output().split('not switching to the build').length).toBe(2);
  });
});
