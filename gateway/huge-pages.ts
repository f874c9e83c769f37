// The environment the gateway process should start with: glibc's malloc asks for transparent
// huge pages (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`, glibc ≥ 2.35) for its large blocks —
// the search index (≈160 MB of SharedArrayBuffers at 10,000 pages), cached answers, the
// workers' buffers. On a VM where a 4 KiB page fault costs ~10 µs this took the first start
// from 2.1–2.5 s to 1.3–1.5 s and search throughput up by ~30% (fewer faults and TLB misses);
// the kernel uses huge pages only where it is set to `madvise` or `always`. A tunable
// must be in place when the process starts, so it is set by whoever spawns the gateway
// (scripts/start.ts, the bench; the Dockerfile in the deploy docs sets it with ENV).
// An operator's own hugetlb setting wins; other tunables are kept; non-glibc libcs ignore it.

export const HUGE_PAGES_TUNABLE = 'glibc.malloc.hugetlb=1';

export function withHugePages(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const current = env.GLIBC_TUNABLES ?? '';
  if (process.platform !== 'linux' || /(^|:)glibc\.malloc\.hugetlb=/.test(current)) return env;
  return { ...env, GLIBC_TUNABLES: current ? `${current}:${HUGE_PAGES_TUNABLE}` : HUGE_PAGES_TUNABLE };
}
