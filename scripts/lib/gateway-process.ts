// Starts the real gateway (`node gateway/server.ts`) as a child process on free loopback
// ports, as `npm start` starts it, and stops it. The one launcher of the tests (through
// test/helpers/gateway.ts) and of the tools that drive a running gateway (fuzz, soak,
// eval, the agent audit): they speak plain HTTP to it, never in-process shortcuts.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gatewayNodeArgs, withGatewayTunables } from '../../gateway/process-tunables.ts';

const serverEntry = fileURLToPath(new URL('../../gateway/server.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningGateway {
  url: string;
  assistantUrl: string;
  port: number;
  assistantPort: number;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

async function waitFor(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500 || res.status === 503) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gateway did not answer ${url} within ${timeoutMs} ms:\n${output()}`);
}

/** Starts a gateway on the given build; env overrides the defaults (ports are chosen here unless given). */
export async function startGateway(distDir: string, env: Record<string, string> = {}): Promise<RunningGateway> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const assistantPort = env.ASSISTANT_PORT ? Number(env.ASSISTANT_PORT) : await freePort();
  const child = spawn(process.execPath, [...gatewayNodeArgs(), serverEntry], {
    cwd: repoRoot,
    env: {
      ...withGatewayTunables(process.env), // as scripts/start.ts starts it
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DIST_DIR: distDir,
      ...env,
      PORT: String(port),
      ASSISTANT_PORT: String(assistantPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const output = () => log;
  const url = `http://127.0.0.1:${port}`;
  try {
    // A bound, not a timing: a cold start takes ~1 s, but on a 2-core machine under a full parallel suite it has taken over 15 s.
    await waitFor(`${url}/api/health`, child, output, 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    assistantUrl: `http://127.0.0.1:${assistantPort}`,
    port,
    assistantPort,
    process: child,
    output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
