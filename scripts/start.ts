// `npm start`: build when there is no build yet, or when the build was made with other
// settings or from other content than the environment names now (src/lib/build-settings.ts:
// site URL, assistant URL, content folder, content hash), then run the gateway, which
// serves the static tree and the dynamic routes. Signals reach whichever child runs
// (scripts/lib/child-signals.ts): SIGTERM during the build stops the build and start
// exits with its code; during serving the gateway shuts down gracefully and start exits
// with the gateway's code; SIGHUP makes the gateway reload its build.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runAstroBuild, repoRoot } from './lib/astro-build.ts';
import { exitCode, forwardSignals, stopRequested, trackChild } from './lib/child-signals.ts';
import { settingsDrift, settingsFromEnv, type BuildSettings } from '../src/lib/build-settings.ts';
import { gatewayNodeArgs, withGatewayTunables } from '../gateway/process-tunables.ts';

const manifestFile = resolve(repoRoot, process.env.DIST_DIR || 'dist', 'site', 'build-manifest.json');

/** Why the build must be made again, or an empty list when it serves as it is. */
function rebuildReasons(): string[] {
  if (!existsSync(manifestFile)) return ['no build yet'];
  let built: BuildSettings | undefined;
  try {
    built = (JSON.parse(readFileSync(manifestFile, 'utf8')) as { settings?: BuildSettings }).settings;
  } catch {
    return [`${manifestFile} is unreadable`];
  }
  if (!built) return ['the build does not record its settings'];
  return settingsDrift(built, settingsFromEnv(process.env, repoRoot));
}

forwardSignals();
const reasons = rebuildReasons();
if (reasons.length) {
  console.log(`Building the site first (${reasons.join('; ')})…`);
  const code = await runAstroBuild({ stdio: 'inherit' });
  if (code !== 0) process.exit(code);
}

const stop = stopRequested();
if (stop) process.exit(exitCode(null, stop));
const server = fileURLToPath(new URL('../gateway/server.ts', import.meta.url));
const child = spawn(process.execPath, [...gatewayNodeArgs(), server], { stdio: 'inherit', cwd: repoRoot, env: withGatewayTunables(process.env) });
trackChild(child, { hangup: true });
child.on('exit', (code, signal) => process.exit(exitCode(code, signal)));
