// `npm start`: build when there is no build yet (or the content is newer than it),
// then run the gateway, which serves the static tree and the dynamic routes. Signals
// reach whichever child runs (scripts/lib/child-signals.ts): SIGTERM during the build
// stops the build and start exits with its code; during serving the gateway shuts down
// gracefully and start exits with the gateway's code; SIGHUP makes the gateway reload.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runAstroBuild, repoRoot } from './lib/astro-build.ts';
import { exitCode, forwardSignals, stopRequested, trackChild } from './lib/child-signals.ts';
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

forwardSignals();
const stale = !existsSync(manifest) || (existsSync(contentDir) && newestMtime(contentDir) > statSync(manifest).mtimeMs);
if (stale) {
  console.log(existsSync(manifest) ? 'Content changed since the last build: rebuilding…' : 'No build yet: building the site first…');
  const code = await runAstroBuild({ stdio: 'inherit' });
  if (code !== 0) process.exit(code);
}

const stop = stopRequested();
if (stop) process.exit(exitCode(null, stop));
const server = fileURLToPath(new URL('../gateway/server.ts', import.meta.url));
const child = spawn(process.execPath, [...gatewayNodeArgs(), server], { stdio: 'inherit', cwd: repoRoot, env: withGatewayTunables(process.env) });
trackChild(child, { hangup: true });
child.on('exit', (code, signal) => process.exit(exitCode(code, signal)));
