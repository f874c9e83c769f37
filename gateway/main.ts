// The gateway (started by gateway/server.ts): validates the configuration, then serves the docs app on PORT and,
// when gateway/assistant/app.ts exists, the assistant app on ASSISTANT_PORT.
// The assistant module exports `createAssistantApp(config)` returning an h3 app
// (or a promise of one); an optional `close()` on it is called at shutdown.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { toNodeHandler, type H3 } from 'h3';
import { ConfigError, applyConfigFile, loadConfig, type GatewayConfig } from './config.ts';
import { createDocsApp } from './docs/app.ts';

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

function listen(name: string, app: H3, port: number, host: string): Promise<Server> {
  const server = createServer(toNodeHandler(app));
  // SSE answers may stream for a while; idle keep-alive sockets are closed quickly.
  server.keepAliveTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(`${name}: cannot listen on ${host}:${port} (${err.code ?? err.message})${err.code === 'EADDRINUSE' ? ': the port is in use; set a different port' : ''}`)),
    );
    server.listen(port, host, () => {
      const addr = server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
      console.log(`${name} listening on http://${shown}:${actual}`);
      resolve(server);
    });
  });
}

export async function main(): Promise<void> {
  const config = readConfig();
  // Both apps are created (and their settings checked) before either port opens,
  // so a bad setting fails the start instead of leaving a half-started gateway.
  const docs = await createDocsApp(config);
  let assistant: AssistantApp | undefined;
  const assistantModule = new URL('./assistant/app.ts', import.meta.url);
  if (config.assistant.enabled && existsSync(fileURLToPath(assistantModule))) {
    const { createAssistantApp } = (await import(assistantModule.href)) as { createAssistantApp: (c: GatewayConfig) => AssistantApp | Promise<AssistantApp> };
    assistant = await createAssistantApp(config);
  }
  const servers: Server[] = [await listen('docs gateway', docs.app, config.port, config.host)];
  if (assistant) servers.push(await listen('assistant', assistant, config.assistant.port, config.host));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    const closed = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
    for (const s of servers) s.closeIdleConnections();
    setTimeout(() => servers.forEach((s) => s.closeAllConnections()), 2000).unref();
    await Promise.allSettled([...closed, docs.close(), assistant?.close?.()]);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
