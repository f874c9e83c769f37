// The environment the gateway process should start with: two glibc malloc tunables
// (GLIBC_TUNABLES; glibc ≥ 2.35, ignored by other libcs), each unless the operator set it.
//
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
// A tunable must be in place when the process starts, so it is set by whoever spawns the
// gateway (scripts/start.ts, the bench, the tests; the Dockerfile in the deploy docs sets it
// with ENV).

export const MALLOC_TUNABLES = ['glibc.malloc.hugetlb=1', 'glibc.malloc.arena_max=2'] as const;

export function withMallocTunables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (process.platform !== 'linux') return env;
  const current = env.GLIBC_TUNABLES ?? '';
  const set = new Set(current.split(':').map((t) => t.split('=')[0]));
  const add = MALLOC_TUNABLES.filter((t) => !set.has(t.split('=')[0]));
  if (add.length === 0) return env;
  return { ...env, GLIBC_TUNABLES: [current, ...add].filter(Boolean).join(':') };
}
