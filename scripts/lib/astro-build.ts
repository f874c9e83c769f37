import { spawn, type StdioOptions } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deferEnv, deferValue } from '../../src/integration/search-index.ts';
import { withBuildLock } from './build-lock.ts';
import { exitCode, stopRequested, trackChild } from './child-signals.ts';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

interface BuildOptions {
  env?: Record<string, string>;
  stdio?: StdioOptions;
  onOutput?: (chunk: string) => void;
}

function run(args: string[], env: NodeJS.ProcessEnv, opts: BuildOptions): Promise<number> {
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: opts.stdio ?? 'pipe' });
  trackChild(child);
  child.stdout?.on('data', (d: Buffer) => opts.onOutput?.(d.toString()));
  child.stderr?.on('data', (d: Buffer) => opts.onOutput?.(d.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(exitCode(code, signal))));
}

/**
 * The bundler (rolldown) and Astro's compiler allocate with mimalloc, which keeps freed pages for a while
 * (`MIMALLOC_PURGE_DELAY`, ms): bundling the prerender entry, which inlines the content data store, leaves
 * 0.3–0.6 GB in its arena at 20,000 pages. 0 returns them at once (an operator's own value wins). Measured on the
 * performance pages (Build cost, round 4).
 */
const BUNDLER_PURGE_DELAY = '0';

/**
 * `astro build` with Node 24 and telemetry off, then the search index in a process of
 * its own: Astro's memory (≈1.6–1.8 GB at 10,000 pages) is returned before Pagefind needs
 * its ≈1.4 GB a part, so the build peaks at the larger of the two instead of their sum.
 * A bare `astro build` still indexes in-process. One Astro step at a time per checkout
 * (build-lock.ts: Astro's own files of a build sit in the checkout's `.astro/`). Resolves to
 * the exit code.
 */
export async function runAstroBuild(opts: BuildOptions = {}): Promise<number> {
  const astro = fileURLToPath(new URL('../../node_modules/astro/bin/astro.mjs', import.meta.url));
  const searchIndex = fileURLToPath(new URL('../../src/integration/search-index.ts', import.meta.url));
  const env = { MIMALLOC_PURGE_DELAY: BUNDLER_PURGE_DELAY, ...process.env, ASTRO_TELEMETRY_DISABLED: '1', [deferEnv]: deferValue, ...opts.env };
  const code = await withBuildLock(join(repoRoot, 'node_modules', '.astro', 'build.lock'), () => run([astro, 'build'], env, opts));
  if (code !== 0 || env[deferEnv] !== deferValue) return code;
  const stop = stopRequested();
  if (stop) return exitCode(null, stop);
  return run([searchIndex], env, opts);
}
