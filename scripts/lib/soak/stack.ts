// The deployment the soak run stands up on loopback, from real parts: one
// redis-server, a loopback model server speaking the OpenAI API (the only fake the
// project accepts), two gateway processes sharing Redis, and nginx serving the static
// tree in front of both with the server block the build generates. Each part can be
// stopped, stalled and started again on its own port: that is what the faults do.
import { join } from 'node:path';
import { nginxDefaults, nginxSite } from '../../../src/integration/nginx-site.ts';
import { loadSecurityHeaders } from '../../../gateway/http/security-headers.ts';
import { startGateway, type RunningGateway } from '../gateway-process.ts';
import { startNginx } from '../nginx-process.ts';
import { startOpenAiServer, type OpenAiServer } from '../openai-server.ts';
import { startRedis, type RunningRedis } from '../redis-process.ts';

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
  let redis: RunningRedis = await startRedis();

  const model = await startOpenAiServer({ pieces: ['The docs say: ', 'use the search API [1].'] });
  const gatewayEnv = { ...env, REDIS_URL: redis.url, LLM_BASE_URL: model.url, LLM_MODEL: 'soak-model', LLM_API_KEY: 'soak', TRUST_PROXY: '1' };
  const gateways = [await startGateway(distDir, gatewayEnv), await startGateway(distDir, gatewayEnv)];

  const nginx = await startNginx(gateways.map((g) => `127.0.0.1:${g.port}`), ({ gatewaysFile, listen }) =>
    nginxSite({ ...nginxDefaults, root: join(distDir, 'site'), contentTypes: join(distDir, 'nginx', 'content-types.conf'), redirects: join(distDir, 'nginx', 'redirects.conf'), gatewaysFile, listen, securityHeaders: loadSecurityHeaders(distDir, 'site') }),
  );
  const nginxUrl = nginx.url;

  return {
    nginxUrl,
    model,
    gateways,
    redisPid: () => redis.process.pid!,
    async restartRedis() {
      await redis.stop();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      redis = await startRedis(redis.port);
    },
    async stallRedis(ms) {
      redis.process.kill('SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, ms));
      redis.process.kill('SIGCONT');
    },
    async restartGateway(index) {
      const old = gateways[index]!;
      await old.stop();
      gateways[index] = await startGateway(distDir, { ...gatewayEnv, PORT: String(old.port), ASSISTANT_PORT: String(old.assistantPort) });
    },
    async stop() {
      await nginx.stop();
      await Promise.all(gateways.map((g) => g.stop()));
      await model.close();
      await redis.stop();
    },
  };
}
