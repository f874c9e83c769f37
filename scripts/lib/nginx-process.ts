// nginx on loopback, for the tests and the soak run: the deployment's static host in
// front of the gateways. The caller hands over the server block (`site.conf`) it wants,
// written against the gateway list this module keeps in its own temporary folder; the
// folder also holds nginx's pid, logs and temp paths, so nothing touches /etc/nginx,
// and stop() removes it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxGateways } from '../../src/integration/nginx-site.ts';
import { freePort } from './gateway-process.ts';

export const NGINX_BIN = '/usr/sbin/nginx';

export interface RunningNginx {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface NginxSiteFiles {
  /** Absolute path of the upstream list the server block must include. */
  gatewaysFile: string;
  /** `127.0.0.1:<port>` for the block's `listen`. */
  listen: string;
}

/**
 * Starts nginx with the server block `siteConf` returns, balancing over `gateways` (host:port), and resolves once
 * `probePath` answers. Fails with nginx's own error log when it exits or does not answer within `timeoutMs`.
 */
export async function startNginx(
  gateways: string[],
  siteConf: (files: NginxSiteFiles) => string,
  { probePath = '/llms.txt', timeoutMs = 15_000, workerConnections = 1024 } = {},
): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-docs-nginx-'));
  const port = await freePort();
  const gatewaysFile = join(dir, 'gateways.conf');
  writeFileSync(gatewaysFile, nginxGateways(gateways));
  writeFileSync(join(dir, 'site.conf'), siteConf({ gatewaysFile, listen: `127.0.0.1:${port}` }));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(dir, t)};`).join(' ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `user root; worker_processes 1; daemon off; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'error.log')} warn;\n` +
      `events { worker_connections ${workerConnections}; }\nhttp { access_log off; ${temp} include ${join(dir, 'site.conf')}; }\n`,
  );
  const nginx: ChildProcess = spawn(NGINX_BIN, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  nginx.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => nginx.once('exit', () => resolve()));
  const stop = async () => {
    if (nginx.exitCode === null && nginx.signalCode === null) {
      nginx.kill('SIGQUIT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await (await fetch(`${url}${probePath}`)).arrayBuffer();
      return { url, port, stop };
    } catch {
      if (nginx.exitCode !== null || Date.now() > deadline) {
        let log = '';
        try {
          log = readFileSync(join(dir, 'error.log'), 'utf8');
        } catch {}
        await stop();
        throw new Error(`nginx did not start within ${timeoutMs} ms: ${stderr}${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
