// One `astro build` at a time per checkout. Astro keeps files of a build in the project's own
// `.astro/` folder (the content modules' map, the prerender chunks), whatever the content and
// output folders: two builds of different content from one checkout at once (the test suite's
// fixture and release builds, or a bench and a build) overwrite each other's and fail at random.
// A lock directory (mkdir is atomic) holding the owner's pid; a lock whose owner is gone is taken
// over, so a killed build never blocks the next.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const POLL_MS = 100;

function ownerAlive(lockDir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
  } catch {
    return true; // being written by its owner
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/** Runs `work` holding the lock `lockDir`, waiting for another holder to finish (or to be gone) first. */
export async function withBuildLock<T>(lockDir: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir, { recursive: false });
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!ownerAlive(lockDir)) rmSync(lockDir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
