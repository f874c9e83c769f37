// redis-server on loopback without persistence, for the tests and the soak run (the
// shared rate limiter's real store). Started on a given port it can be started again
// on the same one, which is how the soak run restarts Redis under load.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './gateway-process.ts';

export const REDIS_BIN = '/usr/bin/redis-server';

export interface RunningRedis {
  url: string;
  port: number;
  process: ChildProcess;
  /** Continues a stalled (SIGSTOP) server, then ends it; resolves when it has exited. */
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts redis-server (on `port`, or a free one) and resolves once it accepts connections. */
export async function startRedis(port?: number, timeoutMs = 15_000): Promise<RunningRedis> {
  const redisPort = port ?? (await freePort());
  const child = spawn(REDIS_BIN, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(redisPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${redisPort} within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${redisPort}`,
    port: redisPort,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
