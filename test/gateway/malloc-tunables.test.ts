// The start environment of the gateway (gateway/malloc-tunables.ts): glibc's malloc tunables
// are added for scripts/start.ts, the bench and the tests, without overriding an operator's choice.
import { describe, expect, it } from 'vitest';
import { MALLOC_TUNABLES, withMallocTunables } from '../../gateway/malloc-tunables.ts';

describe.runIf(process.platform === 'linux')('withMallocTunables', () => {
  it('adds the tunables when none is set', () => {
    expect(withMallocTunables({ A: '1' })).toEqual({ A: '1', GLIBC_TUNABLES: MALLOC_TUNABLES.join(':') });
  });
  it('keeps other tunables', () => {
    expect(withMallocTunables({ GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0' }).GLIBC_TUNABLES).toBe(`glibc.malloc.tcache_count=0:${MALLOC_TUNABLES.join(':')}`);
  });
  it("leaves an operator's own setting of either tunable alone", () => {
    expect(withMallocTunables({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }).GLIBC_TUNABLES).toBe('glibc.malloc.hugetlb=0:glibc.malloc.arena_max=2');
    expect(withMallocTunables({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=8' }).GLIBC_TUNABLES).toBe('glibc.malloc.arena_max=8:glibc.malloc.hugetlb=1');
    const env = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=4:glibc.malloc.hugetlb=0' };
    expect(withMallocTunables(env)).toBe(env);
  });
  it('does not modify the environment it was given', () => {
    const env: NodeJS.ProcessEnv = {};
    withMallocTunables(env);
    expect(env).toEqual({});
  });
});
