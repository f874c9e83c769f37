import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Gateway tests start real processes on loopback; two cores, so keep files few at once.
    maxWorkers: 2,
  },
});
