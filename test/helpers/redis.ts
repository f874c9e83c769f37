// A real redis-server on a free loopback port for one suite, without persistence.
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './gateway.ts';

export const REDIS_BIN = '/usr/bin/redis-server';

export interface RunningRedis {
  url: string;
  process: ChildProcess;
  stop(): void;
}

/** Starts redis-server and resolves once it answers PING. */
export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const child = spawn(REDIS_BIN, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
  probe.on('error', () => {}); // refused until redis-server listens
  for (let i = 0; i < 100; i++) {
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  probe.disconnect();
  return {
    url,
    process: child,
    stop() {
      // a stopped (SIGSTOP) server would hold SIGTERM until continued
      child.kill('SIGCONT');
      child.kill('SIGTERM');
    },
  };
}
