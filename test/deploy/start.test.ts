// `npm start` as a process manager runs it (scripts/start.ts): signals reach the child
// that runs (the build or the gateway) and start exits with it, leaving nothing behind
// on the ports; it rebuilds when the environment asks for other settings than the build
// has; the gateway on its own refuses such a build, naming the variable.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { contentHash, settingsDrift, settingsFromEnv } from '../../src/lib/build-settings.ts';
import { loadSiteConfig } from '../../src/lib/site-config.ts';
import { copyDist } from '../gateway/helpers.ts';
import { runToExit } from '../gateway/process.ts';
import { fixtureAssistantUrl, fixtureSiteUrl } from '../helpers/fixture.ts';
import { freePort } from '../helpers/gateway.ts';

const distDir = inject('distDir');
const contentDir = inject('contentDir');
const startScript = fileURLToPath(new URL('../../scripts/start.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cleanup: string[] = [];
afterAll(() => cleanup.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Started {
  child: ChildProcess;
  output: () => string;
}

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [startScript], {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', SEARCH_WORKERS: '1', SITE_URL: fixtureSiteUrl, ASSISTANT_SITE_URL: fixtureAssistantUrl, CONTENT_DIR: contentDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  return { child, output: () => log };
}

async function until(what: string, ok: () => boolean, s: Started): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!ok()) {
    if (s.child.exitCode !== null || Date.now() > deadline) throw new Error(`${what} did not happen:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map(Number).filter(Boolean);
  } catch {
    return []; // ps exits 1 when there is none
  }
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const refused = async (port: number) => {
  const socket = connect(port, '127.0.0.1');
  const [event] = await Promise.race([once(socket, 'error').then((e) => ['error', e]), once(socket, 'connect').then(() => ['connect'])]);
  socket.destroy();
  return event === 'error';
};

describe('npm start and signals', () => {
  it('passes SIGTERM to the gateway, exits with its code 0 and frees both ports', async () => {
    const [port, assistantPort] = [await freePort(), await freePort()];
    const s = start({ DIST_DIR: distDir, PORT: String(port), ASSISTANT_PORT: String(assistantPort) });
    await until('the gateway listening', () => s.output().includes('assistant listening'), s);
    expect(s.output()).not.toContain('Building');
    const [gatewayPid] = childrenOf(s.child.pid!);
    expect(gatewayPid).toBeGreaterThan(0);
    const exited = once(s.child, 'exit');
    s.child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code, s.output()).toBe(0);
    expect(s.output()).toContain('SIGTERM: stopped');
    expect(alive(gatewayPid!)).toBe(false);
    expect(await refused(port)).toBe(true);
    expect(await refused(assistantPort)).toBe(true);
  });

  it('rebuilds when SITE_URL differs from the build, and SIGTERM during the build stops the build too', async () => {
    const copy = copyDist(distDir);
    cleanup.push(copy);
    const s = start({ DIST_DIR: copy, ASTRO_CACHE_DIR: join(copy, '.astro-cache'), SITE_URL: 'https://moved.example.test', PORT: String(await freePort()), ASSISTANT_PORT: String(await freePort()) });
    await until('the build starting', () => s.output().includes('Building the site first') && childrenOf(s.child.pid!).length > 0, s);
    expect(s.output()).toContain('SITE_URL: the build has https://docs.example.test, the environment asks for https://moved.example.test');
    const builders = childrenOf(s.child.pid!);
    const exited = once(s.child, 'exit');
    s.child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).not.toBe(0);
    expect(s.output()).not.toContain('listening');
    // the build's process is gone with it (no orphan)
    for (const pid of builders) {
      for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
      expect(alive(pid), `build process ${pid}`).toBe(false);
    }
  });
});

describe('build settings', () => {
  it('records the settings in the manifest, equal to what the same environment asks for', () => {
    const wanted = settingsFromEnv({ SITE_URL: fixtureSiteUrl, ASSISTANT_SITE_URL: fixtureAssistantUrl, CONTENT_DIR: contentDir }, repoRoot);
    const manifest = JSON.parse(execFileSync('cat', [join(distDir, 'site', 'build-manifest.json')], { encoding: 'utf8' }));
    expect(manifest.settings).toEqual(wanted);
    expect(settingsDrift(manifest.settings, wanted)).toEqual([]);
  });

  it('names what drifted: a URL, the content folder, the content', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-docs-settings-'));
    cleanup.push(dir);
    writeFileSync(join(dir, 'a.md'), '# A\n');
    const before = settingsFromEnv({ CONTENT_DIR: dir }, repoRoot);
    expect(contentHash(dir)).toBe(before.contentHash);
    writeFileSync(join(dir, 'a.md'), '# A, edited\n');
    const after = settingsFromEnv({ CONTENT_DIR: dir, ASSISTANT_SITE_URL: 'https://me.example' }, repoRoot);
    expect(settingsDrift(before, after)).toEqual([
      `ASSISTANT_SITE_URL: the build has http://localhost:4322, the environment asks for https://me.example`,
      `the content in ${dir} changed since the build`,
    ]);
  });

  it('follows PORT and ASSISTANT_PORT when the URLs are unset', () => {
    const site = loadSiteConfig({ PORT: '5000', ASSISTANT_PORT: '5001' });
    expect(site.url).toBe('http://localhost:5000');
    expect(site.assistantUrl).toBe('http://localhost:5001');
  });

  it('makes the gateway on its own refuse a build made for other URLs, naming the variable', async () => {
    for (const [name, value] of [
      ['SITE_URL', 'https://other.example.test'],
      ['ASSISTANT_SITE_URL', 'https://other-portfolio.example.test'],
      ['CONTENT_DIR', '/somewhere/else'],
    ] as const) {
      const { code, output } = await runToExit({ DIST_DIR: distDir, PORT: '0', [name]: value });
      expect(code, output).toBe(1);
      expect(output).toContain(`${name} is ${value}, but the build in ${distDir} was made for`);
    }
  });
});
