// The gateway's process settings (gateway/process-tunables.ts): glibc's malloc tunables (and,
// given where the gateway runs, the build's compile cache) are added for scripts/start.ts, the
// bench and the tests, and the heap's growth is tuned at start-up — each without overriding an
// operator's choice.
import { describe, expect, it } from 'vitest';
import { GATEWAY_NODE_FLAGS, MALLOC_TUNABLES, gatewayNodeArgs, tuneHeapGrowth, withGatewayTunables } from '../../gateway/process-tunables.ts';

describe.runIf(process.platform === 'linux')('withGatewayTunables', () => {
  it('adds the tunables when none is set', () => {
    expect(withGatewayTunables({ A: '1' })).toEqual({ A: '1', GLIBC_TUNABLES: MALLOC_TUNABLES.join(':') });
  });
  it('keeps other tunables', () => {
    expect(withGatewayTunables({ GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0' }).GLIBC_TUNABLES).toBe(`glibc.malloc.tcache_count=0:${MALLOC_TUNABLES.join(':')}`);
  });
  it("leaves an operator's own setting of each tunable alone", () => {
    expect(withGatewayTunables({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }).GLIBC_TUNABLES).toBe('glibc.malloc.hugetlb=0:glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=262144');
    expect(withGatewayTunables({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=8' }).GLIBC_TUNABLES).toBe('glibc.malloc.arena_max=8:glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=262144');
    expect(withGatewayTunables({ GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=1048576' }).GLIBC_TUNABLES).toBe('glibc.malloc.mmap_threshold=1048576:glibc.malloc.hugetlb=1:glibc.malloc.arena_max=2');
    const env = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=4:glibc.malloc.hugetlb=0:glibc.malloc.mmap_threshold=131072' };
    expect(withGatewayTunables(env)).toBe(env);
  });
  it('does not modify the environment it was given', () => {
    const env: NodeJS.ProcessEnv = {};
    withGatewayTunables(env, '/srv/site');
    expect(env).toEqual({});
  });
  it("with the gateway's working directory, points Node's compile cache at the build's, unless the operator set it", () => {
    expect(withGatewayTunables({}, '/srv/site').NODE_COMPILE_CACHE).toBe('/srv/site/dist/compile-cache');
    expect(withGatewayTunables({ DIST_DIR: 'out' }, '/srv/site').NODE_COMPILE_CACHE).toBe('/srv/site/out/compile-cache');
    expect(withGatewayTunables({ DIST_DIR: '/data/build' }, '/srv/site').NODE_COMPILE_CACHE).toBe('/data/build/compile-cache');
    expect(withGatewayTunables({ NODE_COMPILE_CACHE: '' }, '/srv/site').NODE_COMPILE_CACHE).toBe(''); // off
    expect(withGatewayTunables({}).NODE_COMPILE_CACHE).toBeUndefined();
  });
});

describe('tuneHeapGrowth', () => {
  it('sets the growing factor', () => {
    const set: string[] = [];
    expect(tuneHeapGrowth([], (f) => set.push(f))).toBe(true);
    expect(set).toEqual(['--heap-growing-percent=50']);
  });
  it('keeps a factor the process was started with', () => {
    const set: string[] = [];
    expect(tuneHeapGrowth(['--heap-growing-percent=20'], (f) => set.push(f))).toBe(false);
    expect(tuneHeapGrowth(['--heap_growing_percent=20'], (f) => set.push(f))).toBe(false);
    expect(set).toEqual([]);
  });
});

describe('gatewayNodeArgs', () => {
  it('adds the start-up flags after the operator\'s own arguments', () => {
    expect(gatewayNodeArgs()).toEqual([...GATEWAY_NODE_FLAGS]);
    expect(gatewayNodeArgs(['--cpu-prof'])).toEqual(['--cpu-prof', ...GATEWAY_NODE_FLAGS]);
  });
  it('keeps a young generation size the operator chose (either spelling)', () => {
    expect(gatewayNodeArgs(['--max-semi-space-size=64'])).toEqual(['--max-semi-space-size=64']);
    expect(gatewayNodeArgs(['--max_semi_space_size=8'])).toEqual(['--max_semi_space_size=8']);
  });
});
