// The deploy files are files: the Dockerfile and compose.yaml the deploy docs use,
// checked against each other and against the nginx files the build generates. No
// Docker daemon runs in the test suite, so the images are not built here; the
// server block the static image carries runs under a real nginx in nginx.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/astro-build.ts';
import { nginxDefaults, nginxGateways, nginxMountPoint } from '../../src/integration/nginx-site.ts';
import { MALLOC_TUNABLES, gatewayNodeArgs } from '../../gateway/process-tunables.ts';

const distDir = inject('distDir');
const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
const compose = yaml.load(readFileSync(join(repoRoot, 'compose.yaml'), 'utf8')) as {
  services: Record<string, { build?: { target?: string; args?: Record<string, string> }; image?: string; environment?: Record<string, string>; volumes?: string[]; depends_on?: Record<string, { condition: string }>; ports?: string[] }>;
};
const stages = [...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)$/gim)].map((m) => m[1]);

describe('Dockerfile', () => {
  it('has a build stage, a static nginx stage and the gateway last (the default target)', () => {
    expect(stages).toEqual(['build', 'static', 'gateway']);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-slim$/m);
    for (const line of dockerfile.match(/^COPY --from=(\S+)/gm) ?? []) expect(stages).toContain(line.split('=')[1]);
  });

  it('builds the site in the image with the build settings as build arguments', () => {
    const build = dockerfile.slice(dockerfile.indexOf('AS build'), dockerfile.indexOf('AS static'));
    expect(build).toContain('RUN npm ci --omit=dev');
    // what the build bundles into the pages' scripts is installed without the dev dependencies
    const { dependencies } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const file of ['ask.ts', 'search.ts', 'site.ts', 'reading.ts']) {
      const source = readFileSync(join(repoRoot, 'src', 'components', 'scripts', file), 'utf8');
      for (const m of source.matchAll(/^import [^'"]*from '([^.][^']*)'/gm)) expect(Object.keys(dependencies), `${file} imports ${m[1]}`).toContain(m[1]!.split('/')[0]);
    }
    expect(build).toContain('RUN npm run build');
    for (const arg of ['SITE_URL', 'ASSISTANT_SITE_URL', 'SITE_EDIT_URL', 'CONTENT_DIR']) expect(build).toMatch(new RegExp(`^ARG ${arg}=`, 'm'));
  });

  it('runs the gateway unprivileged with a health check, as npm start runs it', () => {
    const gateway = dockerfile.slice(dockerfile.indexOf('AS gateway'));
    expect(gateway).toMatch(/^USER node$/m);
    expect(gateway).toMatch(/^HEALTHCHECK .*\n.*\/api\/health/m);
    // the flags and malloc tunables scripts/start.ts starts the gateway with (gateway/process-tunables.ts)
    expect(gateway).toContain(`CMD [${['node', ...gatewayNodeArgs(), 'gateway/server.ts'].map((a) => JSON.stringify(a)).join(', ')}]`);
    expect(gateway).toContain(`GLIBC_TUNABLES=${MALLOC_TUNABLES.join(':')}`);
    expect(gateway).toContain('COPY --from=build /app/dist ./dist');
  });

  it("puts the build's nginx files where the generated server block expects them", () => {
    const staticStage = dockerfile.slice(dockerfile.indexOf('AS static'), dockerfile.indexOf('AS gateway'));
    expect(staticStage).toContain(`COPY --from=build /app/dist/site ${nginxDefaults.root}`);
    expect(staticStage).toContain(`COPY --from=build /app/dist/nginx ${nginxMountPoint}/nginx`);
    expect(staticStage).toContain('COPY --from=build /app/dist/nginx/agent-docs.conf /etc/nginx/conf.d/default.conf');
  });
});

describe('compose.yaml', () => {
  const gateways = Object.keys(compose.services).filter((name) => name.startsWith('gateway-'));

  it('runs nginx in front of two gateways that share one Redis', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['gateway-1', 'gateway-2', 'nginx', 'redis']);
    expect(gateways).toHaveLength(2);
    for (const name of gateways) {
      const service = compose.services[name]!;
      expect(service.build?.target).toBe('gateway');
      expect(service.environment?.REDIS_URL).toBe('redis://redis:6379');
      expect(service.environment?.TRUST_PROXY).toBe('1');
      expect(service.depends_on?.redis?.condition).toBe('service_healthy');
    }
    const nginx = compose.services.nginx!;
    expect(nginx.build?.target).toBe('static');
    for (const name of gateways) expect(nginx.depends_on?.[name]?.condition).toBe('service_healthy');
    expect(nginx.ports).toEqual(['${HTTP_PORT:-8080}:80']);
    for (const stage of ['gateway', 'static']) expect(stages).toContain(stage);
  });

  it('builds every image with the same build arguments', () => {
    const args = [...gateways, 'nginx'].map((name) => JSON.stringify(compose.services[name]!.build?.args));
    expect(new Set(args).size).toBe(1);
    expect(compose.services.nginx!.build?.args?.SITE_URL).toBe('${SITE_URL:-http://localhost:8080}');
  });

  it("mounts the gateway list over the build's, naming exactly the gateway services", () => {
    const mounts = compose.services.nginx!.volumes ?? [];
    expect(mounts).toEqual([`./deploy/nginx/gateways.conf:${nginxDefaults.gatewaysFile}:ro`]);
    const list = readFileSync(join(repoRoot, 'deploy', 'nginx', 'gateways.conf'), 'utf8');
    const servers = list.split('\n').filter((line) => line.startsWith('server '));
    expect(servers).toEqual(gateways.map((name) => `server ${name}:4321;`));
  });

  it("matches the build's own nginx files: the server block includes the list, the build writes one for a local gateway", () => {
    const conf = readFileSync(join(distDir, 'nginx', 'agent-docs.conf'), 'utf8');
    expect(conf).toContain(`include ${nginxDefaults.gatewaysFile};`);
    expect(conf).toContain(`root ${nginxDefaults.root};`);
    expect(readFileSync(join(distDir, 'nginx', 'gateways.conf'), 'utf8')).toBe(nginxGateways());
  });
});
