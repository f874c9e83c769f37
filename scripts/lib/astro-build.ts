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

function run(step: string, args: string[], env: NodeJS.ProcessEnv, opts: BuildOptions): Promise<number> {
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: opts.stdio ?? 'pipe' });
  trackChild(child);
  child.stdout?.on('data', (d: Buffer) => opts.onOutput?.(d.toString()));
  child.stderr?.on('data', (d: Buffer) => opts.onOutput?.(d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      // a crash in native code says nothing of its own; one asked for (Ctrl+C, a stop) needs no words
      if (signal && signal !== 'SIGINT' && signal !== 'SIGTERM' && !stopRequested()) {
        const line = `[build] ${step} crashed (${signal}) in native code: the bundler, a Markdown compiler or Pagefind. A page nested hundreds of levels deep is one known cause (docs: Building, "When the build crashes").\n`;
        if (opts.onOutput) opts.onOutput(line);
        else process.stderr.write(line);
      }
      resolve(exitCode(code, signal));
    }),
  );
}

/**
 * The stack of the Rust threads the bundler (rolldown) works on, in bytes (`RUST_MIN_STACK`; an operator's own value
 * wins). Rust's default is 2 MiB, and rolldown walks a module's syntax tree recursively on such a thread: an MDX page
 * whose lists, quotes or components nest ~250 levels deep compiles to JavaScript nested that deep, and the default
 * stack overflowed there, a segmentation fault that named no page. With 8 MiB such a page builds, and one nested
 * deeper still fails in V8's own parser with an error that names the page ("Maximum call stack size exceeded").
 * Reserved, not touched: only a deep module uses the memory. Measured on the Building docs page.
 */
const BUNDLER_THREAD_STACK = String(8 * 1024 * 1024);

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
  const env = { MIMALLOC_PURGE_DELAY: BUNDLER_PURGE_DELAY, RUST_MIN_STACK: BUNDLER_THREAD_STACK, ...process.env, ASTRO_TELEMETRY_DISABLED: '1', [deferEnv]: deferValue, ...opts.env };
  const code = await withBuildLock(join(repoRoot, 'node_modules', '.astro', 'build.lock'), () => run('The Astro step', [astro, 'build'], env, opts));
  if (code !== 0 || env[deferEnv] !== deferValue) return code;
  const stop = stopRequested();
  if (stop) return exitCode(null, stop);
  return run('The search index step', [searchIndex], env, opts);
}
