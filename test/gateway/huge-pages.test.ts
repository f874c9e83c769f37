// The start environment of the gateway (gateway/huge-pages.ts): glibc's huge-page tunable is
// added for scripts/start.ts, the bench and the tests, without overriding an operator's choice.
import { describe, expect, it } from 'vitest';
import { HUGE_PAGES_TUNABLE, withHugePages } from '../../gateway/huge-pages.ts';

describe.runIf(process.platform === 'linux')('withHugePages', () => {
  it('adds the tunable when none is set', () => {
    expect(withHugePages({ A: '1' })).toEqual({ A: '1', GLIBC_TUNABLES: HUGE_PAGES_TUNABLE });
  });
  it('keeps other tunables', () => {
    expect(withHugePages({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }).GLIBC_TUNABLES).toBe(`glibc.malloc.arena_max=2:${HUGE_PAGES_TUNABLE}`);
  });
  it("leaves an operator's own hugetlb setting alone", () => {
    const env = { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' };
    expect(withHugePages(env)).toBe(env);
  });
  it('does not modify the environment it was given', () => {
    const env: NodeJS.ProcessEnv = {};
    withHugePages(env);
    expect(env).toEqual({});
  });
});
