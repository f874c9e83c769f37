// How the gateway process should run: malloc settings and a V8 flag that must be in place when
// the process starts (set by whoever spawns it — scripts/start.ts, the bench, the tests; the
// Dockerfile in the deploy docs sets them with ENV and its CMD), and a V8 setting the gateway
// applies to itself. Each gives way to the operator's own. The measurements behind each are on
// the performance docs page.
//
// glibc malloc (GLIBC_TUNABLES; glibc ≥ 2.35, ignored by other libcs):
// - glibc.malloc.hugetlb=1: transparent huge pages for malloc's large blocks (the search
//   index's SharedArrayBuffers, cached answers, the workers' buffers) where the kernel allows
//   them (`madvise` or `always`): fewer page faults, which on a VM cost start time and throughput.
// - glibc.malloc.arena_max=2: two malloc arenas instead of up to 8 per core. The answers the
//   search workers allocate are freed on the main thread, and every thread's arena keeps its
//   own freed memory; two arenas bound that resident memory without costing throughput.
// - glibc.malloc.mmap_threshold=262144: every block of 256 KB or more is a mapping of its own,
//   returned to the OS when freed. By default glibc raises this threshold to the largest block
//   freed (up to 32 MB), so once an unlimited search answer (hundreds of KB to MBs) was freed,
//   the next ones came from the arenas and their memory stayed resident.
//
// V8, the main thread's heap (query workers have their own caps, engine/search.ts):
// - --heap-growing-percent=50, applied by the gateway itself (tuneHeapGrowth): the old
//   generation may grow to 1.5× its live data before the next full collection instead of up
//   to 4×; the live set is small, so the heap stays close to it. V8 reads the flag at every
//   collection, so it is set once the gateway serves (server.ts): start-up's burst of
//   allocation is left to V8's default, which runs fewer full collections while loading.
//
// V8, a start-up flag (gatewayNodeArgs: on the node command line, before gateway/server.ts):
// - --max-semi-space-size=16 (MB): a young generation of ~50 MB rather than the ~105 MB V8
//   sizes by the machine's memory. A request makes tens of KB of garbage and a scavenge costs
//   what is alive, not what is dead, so a smaller young generation means more scavenges of about
//   the same length, for less resident memory.

import { resolve } from 'node:path';

export const MALLOC_TUNABLES = ['glibc.malloc.hugetlb=1', 'glibc.malloc.arena_max=2', 'glibc.malloc.mmap_threshold=262144'] as const;
const HEAP_GROWING = '--heap-growing-percent=50';

const flagName = (opt: string) => opt.split('=')[0]!;
// V8 accepts `_` for `-` in its flag names
const v8FlagName = (opt: string) => flagName(opt).replaceAll('_', '-');

/** Where the build leaves Node's compile cache for the gateway (compile-cache.ts). */
export function compileCacheDir(distDir: string): string {
  return resolve(distDir, 'compile-cache');
}

/**
 * The environment to spawn the gateway with: `env` plus the malloc tunables the operator did not set; with `cwd`
 * (where the gateway will run), also Node's compile cache of the build (compile-cache.ts) unless NODE_COMPILE_CACHE
 * is set (empty turns it off). In the environment, the cache covers the entry module and the two it imports too,
 * which are compiled before the gateway can turn the cache on itself (≈45 ms of the TypeScript stripper per start).
 */
export function withGatewayTunables(env: NodeJS.ProcessEnv, cwd?: string): NodeJS.ProcessEnv {
  const out = cwd && env.NODE_COMPILE_CACHE === undefined ? { ...env, NODE_COMPILE_CACHE: compileCacheDir(resolve(cwd, env.DIST_DIR || 'dist')) } : env;
  if (process.platform !== 'linux') return out;
  const current = out.GLIBC_TUNABLES ?? '';
  const set = new Set(current.split(':').map(flagName));
  const add = MALLOC_TUNABLES.filter((t) => !set.has(flagName(t)));
  if (add.length === 0) return out;
  return { ...out, GLIBC_TUNABLES: [current, ...add].filter(Boolean).join(':') };
}

export const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=16'] as const;

/** Node's arguments to start gateway/server.ts with: the operator's own (`extra`), then ours that they did not set. */
export function gatewayNodeArgs(extra: readonly string[] = []): string[] {
  const set = new Set(extra.map(v8FlagName));
  return [...extra, ...GATEWAY_NODE_FLAGS.filter((f) => !set.has(v8FlagName(f)))];
}

/** Sets the heap's growing factor, unless the process was started with its own (on the command line). */
export function tuneHeapGrowth(execArgv: readonly string[], setFlags: (flags: string) => void): boolean {
  const name = v8FlagName(HEAP_GROWING);
  if (execArgv.some((a) => v8FlagName(a) === name)) return false;
  setFlags(HEAP_GROWING);
  return true;
}
