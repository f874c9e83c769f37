// How the gateway process should run: malloc settings that must be in place when the process
// starts (set by whoever spawns it — scripts/start.ts, the bench, the tests; the Dockerfile in
// the deploy docs sets them with ENV), and a V8 setting the gateway applies to itself. Each
// gives way to the operator's own. Measured at 10,000 pages in README "Performance".
//
// glibc malloc (GLIBC_TUNABLES; glibc ≥ 2.35, ignored by other libcs):
// - glibc.malloc.hugetlb=1: transparent huge pages for malloc's large blocks — the search
//   index (≈170 MB of SharedArrayBuffers at 10,000 pages), cached answers, the workers'
//   buffers — where the kernel allows them (`madvise` or `always`). On a VM where a 4 KiB
//   page fault costs ~11 µs it took the first start from 2.1–2.5 s to 1.3–1.5 s and raised
//   throughput on every route.
// - glibc.malloc.arena_max=2: two malloc arenas instead of up to 8 per core. The answers the
//   search workers allocate are freed on the main thread, and every thread's arena kept its
//   own freed memory: RSS after the bench's search, ask and batch phases 785–825 → 677–767 MB,
//   throughput unchanged within the machine's noise (arena_max=1: 663–701 MB, search −10%).
//
// V8, the main thread's heap (query workers have their own caps, engine/search.ts):
// - --heap-growing-percent=50, applied by the gateway itself (tuneHeapGrowth): the old
//   generation may grow to 1.5× its live data before the next full collection instead of up
//   to 4×. The live set is ~25–40 MB; under load the old generation stayed ~100 MB above it.
//   RSS after the bench's ask and batch phases 734–750 → 593–606 MB, throughput unchanged
//   within the noise. V8 reads the flag at every collection, so it is set once the
//   gateway serves (server.ts): set before, start-up's burst of allocation ran more full
//   collections and restarts took ~100 ms longer.
//   A smaller young generation (--max-semi-space-size=16 or 32) saved another 50–100 MB but
//   cost ask a quarter of its throughput (4x the scavenges, each copying the requests in flight).

export const MALLOC_TUNABLES = ['glibc.malloc.hugetlb=1', 'glibc.malloc.arena_max=2'] as const;
const HEAP_GROWING = '--heap-growing-percent=50';

const flagName = (opt: string) => opt.split('=')[0]!;
// V8 accepts `_` for `-` in its flag names
const v8FlagName = (opt: string) => flagName(opt).replaceAll('_', '-');

/** The environment to spawn the gateway with: `env` plus the malloc tunables the operator did not set. */
export function withGatewayTunables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (process.platform !== 'linux') return env;
  const current = env.GLIBC_TUNABLES ?? '';
  const set = new Set(current.split(':').map(flagName));
  const add = MALLOC_TUNABLES.filter((t) => !set.has(flagName(t)));
  if (add.length === 0) return env;
  return { ...env, GLIBC_TUNABLES: [current, ...add].filter(Boolean).join(':') };
}

/** Sets the heap's growing factor, unless the process was started with its own (on the command line). */
export function tuneHeapGrowth(execArgv: readonly string[], setFlags: (flags: string) => void): boolean {
  const name = v8FlagName(HEAP_GROWING);
  if (execArgv.some((a) => v8FlagName(a) === name)) return false;
  setFlags(HEAP_GROWING);
  return true;
}
