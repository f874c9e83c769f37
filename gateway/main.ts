// The gateway (started by gateway/server.ts): validates the configuration, then serves the docs app on PORT and,
// when gateway/assistant/app.ts exists, the assistant app on ASSISTANT_PORT.
// The assistant module exports `createAssistantApp(config)` returning an h3 app
// (or a promise of one); an optional `close()` on it is called at shutdown.
// Signals: SIGTERM/SIGINT drain both servers (gateway/http/node-server.ts: /api/health
// answers 503 meanwhile, answers in flight finish within SHUTDOWN_DEADLINE_MS) and exit 0;
// SIGHUP reloads the docs build when DIST_DIR now points at another one (gateway/docs/runtime.ts).
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toNodeHandler, type H3 } from 'h3';
import { buildSettingsDrift } from './build-settings.ts';
import { ConfigError, applyConfigFile, loadConfig, type GatewayConfig } from './config.ts';
import { createDocsApp } from './docs/app.ts';
import { clientErrorProblem } from './docs/problem.ts';
import { createGatewayServer, listen, type ClientErrorRenderer, type GatewayServer } from './http/node-server.ts';

type AssistantApp = H3 & { close?: () => Promise<void> };

function readConfig(): GatewayConfig {
  try {
    applyConfigFile();
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/** The assistant's envelope for Node's own client errors (spec: every non-2xx is `{error, code}`). */
const assistantClientError: ClientErrorRenderer = (status) => ({
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({
    error: status === 431 ? 'The request headers or URL are too large (16 KiB at most).' : status === 408 ? 'The request did not arrive in time.' : 'The HTTP request is malformed.',
    code: 'invalid_request',
  }),
});

export async function main(): Promise<void> {
  const config = readConfig();
  // Both apps are created (and their settings checked) before either port opens,
  // so a bad setting fails the start instead of leaving a half-started gateway.
  const docs = await createDocsApp(config);
  const settings = docs.runtime.manifest?.settings;
  const drift = buildSettingsDrift(settings, process.env, config.distDir);
  if (drift.length) {
    console.error(`The build and the environment disagree:\n  - ${drift.join('\n  - ')}`);
    process.exit(1);
  }
  if (settings && !process.env.ASSISTANT_SITE_URL) config.assistant.siteUrl = settings.assistantUrl;
  let assistant: AssistantApp | undefined;
  const assistantModule = new URL('./assistant/app.ts', import.meta.url);
  if (config.assistant.enabled && existsSync(fileURLToPath(assistantModule))) {
    const { createAssistantApp } = (await import(assistantModule.href)) as { createAssistantApp: (c: GatewayConfig) => AssistantApp | Promise<AssistantApp> };
    // The assistant stays on the build it started with: a release link switched later (runtime.ts) reloads the docs only.
    const distDir = existsSync(config.distDir) ? realpathSync(config.distDir) : config.distDir;
    assistant = await createAssistantApp({ ...config, distDir, assistant: { ...config.assistant, siteDir: join(distDir, 'portfolio') } });
  }
  const timeouts = config.operations;
  const servers: GatewayServer[] = [];
  const docsServer = createGatewayServer(toNodeHandler(docs.app), timeouts, (status) => clientErrorProblem(docs.runtime.siteUrl, status));
  await listen('docs gateway', docsServer.server, config.port, config.host);
  servers.push(docsServer);
  if (assistant) {
    const assistantServer = createGatewayServer(toNodeHandler(assistant), timeouts, assistantClientError);
    await listen('assistant', assistantServer.server, config.assistant.port, config.host);
    servers.push(assistantServer);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const deadline = config.operations.shutdownDeadlineMs;
    console.log(`${signal}: draining (answers in flight get up to ${deadline} ms), then exiting`);
    docs.runtime.drain();
    const drained = await Promise.all(servers.map((s) => s.drain(deadline)));
    const cut = drained.reduce((n, d) => n + d.cut, 0);
    if (cut) console.log(`${signal}: ${cut} answer(s) still running at the deadline were cut`);
    await Promise.allSettled([docs.close(), assistant?.close?.()]);
    console.log(`${signal}: stopped`);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGHUP', () => void docs.runtime.reload('SIGHUP'));
}
