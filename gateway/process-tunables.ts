// How the gateway process should run: malloc settings and a V8 flag that must be in place when
// the process starts (set by whoever spawns it — scripts/start.ts, the bench, the tests; the
// Dockerfile in the deploy docs sets them with ENV and its CMD), and a V8 setting the gateway
// applies to itself. Each gives way to the operator's own. Measured at 10,000 pages in README
// "Performance".
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
//
// V8, a start-up flag (gatewayNodeArgs: on the node command line, before gateway/server.ts):
// - --max-semi-space-size=16 (MB): the main thread's young generation stays ~50 MB instead of
//   ~105 MB (V8 sizes it by the machine's memory; 16 MB semi-spaces were Node's default before
//   it did). Per request the gateway makes 15–65 KB of garbage, and a scavenge costs what is
//   alive, not what is dead, so a smaller young generation means more scavenges of about the same
//   length. RSS after the bench's five gateway phases 585–612 → 531–534 MB; ask and batch
//   −5 to −10% throughput, their p99 within 1–3 ms (2 alternating rounds on a Xeon VM; on a VM
//   with ~11 µs page faults ask lost 25–30%).

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
