// One Astro build at a time per checkout (scripts/lib/build-lock.ts): a second holder waits for
// the first, and a lock whose owner is gone (a killed build) is taken over.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withBuildLock } from '../../scripts/lib/build-lock.ts';

const root = mkdtempSync(join(tmpdir(), 'agent-docs-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('build lock', () => {
  it('runs holders one after the other, and removes the lock after each', async () => {
    const lock = join(root, 'a', 'build.lock');
    const events: string[] = [];
    const holder = (name: string) =>
      withBuildLock(lock, async () => {
        events.push(`${name} in`);
        await sleep(150);
        events.push(`${name} out`);
      });
    await Promise.all([holder('first'), holder('second')]);
    expect(events).toEqual(['first in', 'first out', 'second in', 'second out']);
    expect(existsSync(lock)).toBe(false);
  });

  it('releases the lock when the work fails', async () => {
    const lock = join(root, 'b.lock');
    await expect(withBuildLock(lock, () => Promise.reject(new Error('build failed')))).rejects.toThrow('build failed');
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock whose owner is gone', async () => {
    const lock = join(root, 'c.lock');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), gone);
    expect(await withBuildLock(lock, async () => 'ran')).toBe('ran');
  });
});
