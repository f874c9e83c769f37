// The deployment the soak run stands up on loopback, from real parts: one
// redis-server, a loopback model server speaking the OpenAI API (the only fake the
// project accepts), two gateway processes sharing Redis, and nginx serving the static
// tree in front of both with the server block the build generates. Each part can be
// stopped, stalled and started again on its own port: that is what the faults do.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { nginxDefaults, nginxGateways, nginxSite } from '../../../src/integration/nginx-site.ts';
import { loadSecurityHeaders } from '../../../gateway/http/security-headers.ts';
import { freePort, startGateway, type RunningGateway } from '../gateway-process.ts';
import { startOpenAiServer, type OpenAiServer } from '../openai-server.ts';

const REDIS_BIN = '/usr/bin/redis-server';
const NGINX_BIN = '/usr/sbin/nginx';

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface SoakStack {
  nginxUrl: string;
  model: OpenAiServer;
  gateways: RunningGateway[];
  redisPid(): number;
  restartRedis(): Promise<void>;
  stallRedis(ms: number): Promise<void>;
  /** SIGTERM one gateway, wait for it to exit, start it again on the same ports. */
  restartGateway(index: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startSoakStack(distDir: string, env: Record<string, string>): Promise<SoakStack> {
  const redisPort = await freePort();
  let redis: ChildProcess;
  const startRedis = async () => {
    redis = spawn(REDIS_BIN, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await until(() => new Promise<boolean>((resolve) => connect(redisPort, '127.0.0.1').once('connect', function (this: Socket) { this.destroy(); resolve(true); }).once('error', () => resolve(false))), 'redis-server');
  };
  await startRedis();

  const model = await startOpenAiServer({ pieces: ['The docs say: ', 'use the search API [1].'] });
  const gatewayEnv = { ...env, REDIS_URL: `redis://127.0.0.1:${redisPort}`, LLM_BASE_URL: model.url, LLM_MODEL: 'soak-model', LLM_API_KEY: 'soak', TRUST_PROXY: '1' };
  const gateways = [await startGateway(distDir, gatewayEnv), await startGateway(distDir, gatewayEnv)];

  const dir = mkdtempSync(join(tmpdir(), 'agent-docs-soak-'));
  const nginxPort = await freePort();
  writeFileSync(join(dir, 'gateways.conf'), nginxGateways(gateways.map((g) => `127.0.0.1:${g.port}`)));
  writeFileSync(join(dir, 'site.conf'), nginxSite({ ...nginxDefaults, root: join(distDir, 'site'), contentTypes: join(distDir, 'nginx', 'content-types.conf'), redirects: join(distDir, 'nginx', 'redirects.conf'), gatewaysFile: join(dir, 'gateways.conf'), listen: `127.0.0.1:${nginxPort}`, securityHeaders: loadSecurityHeaders(distDir, 'site') }));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(dir, t)};`).join(' ');
  writeFileSync(join(dir, 'nginx.conf'), `user root; worker_processes 1; daemon off; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'error.log')} warn;\nevents { worker_connections 1024; }\nhttp { access_log off; ${temp} include ${join(dir, 'site.conf')}; }\n`);
  const nginx = spawn(NGINX_BIN, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  const nginxUrl = `http://127.0.0.1:${nginxPort}`;
  await until(async () => (await fetch(`${nginxUrl}/llms.txt`)).ok, `nginx (${(() => { try { return readFileSync(join(dir, 'error.log'), 'utf8'); } catch { return ''; } })()})`);

  return {
    nginxUrl,
    model,
    gateways,
    redisPid: () => redis.pid!,
    async restartRedis() {
      const exited = new Promise((resolve) => redis.once('exit', resolve));
      redis.kill('SIGTERM');
      await exited;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await startRedis();
    },
    async stallRedis(ms) {
      redis.kill('SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, ms));
      redis.kill('SIGCONT');
    },
    async restartGateway(index) {
      const old = gateways[index]!;
      await old.stop();
      gateways[index] = await startGateway(distDir, { ...gatewayEnv, PORT: String(old.port), ASSISTANT_PORT: String(old.assistantPort) });
    },
    async stop() {
      nginx.kill('SIGQUIT');
      await Promise.all(gateways.map((g) => g.stop()));
      await model.close();
      redis.kill('SIGKILL');
    },
  };
}
