// A real redis-server on a free loopback port, for the tests of shared rate limits.
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './gateway.ts';

export const redisBin = '/usr/bin/redis-server';

export interface RunningRedis {
  url: string;
  stop(): void;
}

/** Starts redis-server without persistence and waits until it answers PING. */
export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const redis: ChildProcess = spawn(redisBin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
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
  return { url, stop: () => redis.kill('SIGTERM') };
}
