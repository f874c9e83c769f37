// The gateway launcher for tests (scripts/lib/gateway-process.ts, shared with the tools)
// and the rule for system binaries the tests need.
import { existsSync } from 'node:fs';

export { freePort, startGateway, type RunningGateway } from '../../scripts/lib/gateway-process.ts';

/** Whether a system binary exists; in CI a missing one is a failure, on a laptop a loud skip. */
export function requireBinary(path: string, what: string): boolean {
  if (existsSync(path)) return true;
  const message = `${what} not found at ${path}: install it (Debian: see .ci/run) to run these tests.`;
  if (process.env.CI === 'true') throw new Error(`${message} CI must run them.`);
  console.warn(`\n⚠ SKIPPING: ${message}\n`);
  return false;
}
