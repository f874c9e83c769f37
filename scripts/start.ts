// `npm start`: build when there is no build yet, or when the build was made with other
// settings or from other content than the environment names now (src/lib/build-settings.ts:
// site URL, assistant URL, content folder, content hash), then run the gateway, which
// serves the static tree and the dynamic routes. Signals reach whichever child runs
// (scripts/lib/child-signals.ts): SIGTERM during the build stops the build and start
// exits with its code; during serving the gateway shuts down gracefully and start exits
// with the gateway's code; SIGHUP makes the gateway reload its build.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { repoRoot } from './lib/astro-build.ts';
import { buildIfStale } from './lib/build-state.ts';
import { exitCode, forwardSignals, stopRequested, trackChild } from './lib/child-signals.ts';
import { gatewayNodeArgs, withGatewayTunables } from '../gateway/process-tunables.ts';

forwardSignals();
await buildIfStale();

const stop = stopRequested();
if (stop) process.exit(exitCode(null, stop));
const server = fileURLToPath(new URL('../gateway/server.ts', import.meta.url));
const child = spawn(process.execPath, [...gatewayNodeArgs(), server], { stdio: 'inherit', cwd: repoRoot, env: withGatewayTunables(process.env, repoRoot) });
trackChild(child, { hangup: true });
child.on('exit', (code, signal) => process.exit(exitCode(code, signal)));
