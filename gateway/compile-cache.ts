// Node's module compile cache for the gateway: V8 code cache plus the output of
// TypeScript type stripping, kept on disk. Without it every start strips and compiles
// the gateway's modules again (≈0.3 s of a ≈1.3 s start at 10,000 pages).
//
// Where: NODE_COMPILE_CACHE when set (Node's own variable; set it empty to turn the
// cache off), else `<DIST_DIR>/compile-cache`, which `npm run build` fills
// (`node gateway/compile-cache.ts <distDir>`), so even the first start after a build
// finds it. The directory is only a cache: a stale or unwritable one costs a
// recompile, never an error. Imports only node: modules, so enabling it comes before
// anything worth caching is loaded.
import { constants, enableCompileCache, flushCompileCache } from 'node:module';
import { resolve } from 'node:path';

export function compileCacheDir(distDir: string): string {
  return resolve(distDir, 'compile-cache');
}

/** Enables the cache for this process and (through the environment) its worker threads. */
export function enableGatewayCompileCache(distDir = process.env.DIST_DIR || 'dist'): string | undefined {
  if (process.env.NODE_COMPILE_CACHE === '') return undefined;
  const r = enableCompileCache(process.env.NODE_COMPILE_CACHE || compileCacheDir(distDir));
  if (r.status !== constants.compileCacheStatus.ENABLED && r.status !== constants.compileCacheStatus.ALREADY_ENABLED) return undefined;
  // worker threads inherit the directory from the environment
  if (r.directory) process.env.NODE_COMPILE_CACHE = r.directory;
  return r.directory;
}

/** The modules a gateway start compiles (the search worker's entry only runs in a worker; its imports are here). */
const GATEWAY_MODULES = [
  './main.ts',
  './config.ts',
  './docs/app.ts',
  './assistant/app.ts',
  './engine/search/search-index.ts',
  './engine/search/engine.ts',
  './engine/search/index-file.ts',
  './engine/text.ts',
];

/** Build step: compiles the gateway's modules into `<distDir>/compile-cache`. */
export async function warmCompileCache(distDir: string): Promise<string | undefined> {
  const dir = enableGatewayCompileCache(distDir);
  if (!dir) return undefined;
  for (const m of GATEWAY_MODULES) await import(new URL(m, import.meta.url).href);
  flushCompileCache();
  return dir;
}

if (import.meta.main) {
  const distDir = resolve(process.argv[2] ?? (process.env.DIST_DIR || 'dist'));
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
