import { spawn, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `astro build` with Node 24 and telemetry off; resolves to the exit code. */
export function runAstroBuild(opts: { env?: Record<string, string>; stdio?: StdioOptions; onOutput?: (chunk: string) => void } = {}): Promise<number> {
  const astro = fileURLToPath(new URL('../../node_modules/astro/bin/astro.mjs', import.meta.url));
  const child = spawn(process.execPath, [astro, 'build'], {
    cwd: repoRoot,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...opts.env },
    stdio: opts.stdio ?? 'pipe',
  });
  child.stdout?.on('data', (d: Buffer) => opts.onOutput?.(d.toString()));
  child.stderr?.on('data', (d: Buffer) => opts.onOutput?.(d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}
