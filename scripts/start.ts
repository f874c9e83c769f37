// `npm start`: build when there is no build yet (or the content is newer than it),
// then run the gateway, which serves the static tree and the dynamic routes.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runAstroBuild, repoRoot } from './lib/astro-build.ts';
import { gatewayNodeArgs, withGatewayTunables } from '../gateway/process-tunables.ts';

const contentDir = resolve(repoRoot, process.env.CONTENT_DIR || 'content');
const manifest = resolve(repoRoot, process.env.DIST_DIR || 'dist', 'site', 'build-manifest.json');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const stale = !existsSync(manifest) || (existsSync(contentDir) && newestMtime(contentDir) > statSync(manifest).mtimeMs);
if (stale) {
  console.log(existsSync(manifest) ? 'Content changed since the last build: rebuilding…' : 'No build yet: building the site first…');
  const code = await runAstroBuild({ stdio: 'inherit' });
  if (code !== 0) process.exit(code);
}

const server = fileURLToPath(new URL('../gateway/server.ts', import.meta.url));
const child = spawn(process.execPath, [...gatewayNodeArgs(), server], { stdio: 'inherit', cwd: repoRoot, env: withGatewayTunables(process.env) });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
