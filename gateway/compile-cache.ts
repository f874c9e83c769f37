// Node's module compile cache for the gateway: V8 code cache plus the output of
// TypeScript type stripping, kept on disk. Without it every start strips and compiles
// the gateway's modules again (≈0.3 s of a ≈1.3 s start at 10,000 pages).
//
// Where: NODE_COMPILE_CACHE when set (Node's own variable; set it empty to turn the
// cache off), else `<DIST_DIR>/compile-cache`, which `npm run build` fills (in a process
// of its own, warmCompileCacheCommand), so even the first start after a build finds it,
// and a start where the directory is read-only compiles nothing. The directory is only a
// cache: a stale or unwritable one costs a recompile, never an error. Imports only node:
// modules and process-tunables.ts (which imports only node: modules), so enabling it comes
// before anything worth caching is loaded.
import { constants, enableCompileCache, flushCompileCache } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { compileCacheDir, tuneHeapGrowth } from './process-tunables.ts';

/** Enables the cache for this process and (through the environment) its worker threads. */
export function enableGatewayCompileCache(distDir = process.env.DIST_DIR || 'dist'): string | undefined {
  if (process.env.NODE_COMPILE_CACHE === '') return undefined;
  const base = process.env.NODE_COMPILE_CACHE || compileCacheDir(distDir);
  const r = enableCompileCache(base);
  if (r.status !== constants.compileCacheStatus.ENABLED && r.status !== constants.compileCacheStatus.ALREADY_ENABLED) return undefined;
  // Worker threads inherit the directory from the environment: the base one, under which Node keeps one folder per
  // Node version and V8 configuration (r.directory is that folder; given it, a worker would nest its own inside).
  process.env.NODE_COMPILE_CACHE = base;
  return r.directory;
}

/**
 * The modules a gateway start compiles (the search worker's entry is loaded by a worker, below). The entry and its
 * two imports are here too: with NODE_COMPILE_CACHE in the gateway's environment they are looked up in the cache,
 * and a miss loads Node's TypeScript stripper (≈45 ms and ≈30 MB of a start; every start, where the cache is
 * read-only as in the container image).
 */
const GATEWAY_MODULES = [
  './server.ts',
  './compile-cache.ts',
  './process-tunables.ts',
  './main.ts',
  './config.ts',
  './docs/app.ts',
  './assistant/app.ts',
  './engine/search/search-index.ts',
  './engine/search/engine.ts',
  './engine/search/index-file.ts',
  './engine/text.ts',
];

/** Starts one query worker, waits until its modules are loaded (it answers) and has it write its part of the cache. */
async function warmQueryWorker(): Promise<void> {
  const { WorkerPool } = await import('./engine/search/worker-pool.ts');
  const pool = new WorkerPool(1);
  await pool.send(0, { op: 'flushCompileCache' }).finally(() => pool.close());
}

/**
 * Build step: compiles the gateway's modules into `<distDir>/compile-cache`. V8's flags are part of a cache
 * folder's name, and the gateway changes one once it serves (tuneHeapGrowth): a query worker's modules were found
 * cached under both, so a worker is warmed before that change and after it.
 */
export async function warmCompileCache(distDir: string): Promise<string | undefined> {
  const dir = enableGatewayCompileCache(distDir);
  if (!dir) return undefined;
  for (const m of GATEWAY_MODULES) await import(new URL(m, import.meta.url).href);
  await warmQueryWorker();
  flushCompileCache();
  tuneHeapGrowth(process.execArgv, setFlagsFromString);
  await warmQueryWorker();
  flushCompileCache();
  return dir;
}

/**
 * How the build runs the warm-up: a process of its own whose entry is not this module (an entry module is compiled
 * before the cache is on, so it would miss the cache it fills), with the cache in its environment and the gateway's
 * node arguments (`nodeArgs`, process-tunables.ts), since V8's flags are part of a cache folder's name.
 */
export function warmCompileCacheCommand(distDir: string, nodeArgs: readonly string[]): { args: string[]; env: NodeJS.ProcessEnv } {
  const entry = `import(${JSON.stringify(import.meta.url)}).then((m) => m.runWarmCompileCache(${JSON.stringify(distDir)}))`;
  return { args: [...nodeArgs, '--eval', entry], env: { ...process.env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? compileCacheDir(distDir) } };
}

/** Fills the cache, reports, exits 0 either way (a cache never fails the build). */
export function runWarmCompileCache(distDir: string): void {
  warmCompileCache(distDir).then(
    (dir) => {
      console.log(dir ? `compile cache written to ${dir}` : 'compile cache not available (NODE_COMPILE_CACHE is empty or the directory is not writable)');
      process.exit(0);
    },
    (err: unknown) => {
      // a cache: never fail the build for it
      console.error(`compile cache not written: ${(err as Error)?.message ?? String(err)}`);
      process.exit(0);
    },
  );
}
