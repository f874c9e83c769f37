// The assistant site's h3 app (ASSISTANT_PORT, public origin ASSISTANT_SITE_URL):
// POST /api/chat, POST /ask, /api/mcp and the portfolio tree. Every response carries
// X-RateLimit-Limit/Remaining/Reset; every non-2xx is `{error, code}`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { H3, type H3Event } from 'h3';
import type { GatewayConfig } from '../config.ts';
import { ASK_PATH, CHAT_PATH, MCP_PATH } from '../contract/assistant-api.ts';
import { createLlmClient } from '../engine/llm.ts';
import { IN_THREAD_MAX_PAGES, createSearchEngine, type SearchEngine } from '../engine/search.ts';
import { loadManifest } from '../engine/manifest.ts';
import { withHeaders } from '../http/fast-response.ts';
import { clientIp } from '../limits/client-ip.ts';
import { isHtml, loadSecurityHeaders } from '../http/security-headers.ts';
import { createSiteFiles } from '../static/files.ts';
import { answerDeadlineMs } from './answering.ts';
import type { AssistantContext, RequestState, Services } from './context.ts';
import { loadCorpus } from './corpus.ts';
import { toErrorResponse } from './errors.ts';
import { createOriginGuard } from './origin.ts';
import { createContentPolicy } from './policy.ts';
import { assistantSystemPrompt } from './prompt.ts';
import { createAssistantLimiter, rateLimitHeaders } from './rate-limit.ts';
import { askHandler } from './routes/ask.ts';
import { chatHandler } from './routes/chat.ts';
import { mcpHandler } from './routes/mcp.ts';
import { staticHandler } from './routes/static.ts';

export type AssistantApp = H3 & {
  /** Resolves when the search engine and corpus are loaded (rejects if the portfolio build is missing). */
  ready(): Promise<void>;
  close(): Promise<void>;
};

export function createAssistantApp(config: GatewayConfig): AssistantApp {
  const a = config.assistant;
  const siteUrl = a.siteUrl;
  const limiter = createAssistantLimiter({ max: a.rateLimit.max, windowSeconds: a.rateLimit.windowSeconds, redisUrl: config.redisUrl, redisTimeoutMs: config.redisTimeoutMs });
  const llm = config.llm ? createLlmClient({ ...config.llm }) : undefined;

  let engine: SearchEngine | undefined;
  let services: Promise<Services> | undefined;
  const loadServices = (): Promise<Services> => {
    services ??= (async () => {
      // the build's prebuilt engine index of the portfolio tree, when present (src/integration/search-index.ts)
      const prebuilt = join(config.distDir, 'search-index', 'portfolio');
      const manifest = await loadManifest(a.siteDir);
      // a portfolio is a few pages: its queries are answered on the event loop, no worker thread to boot
      const workers = manifest.pages.length <= IN_THREAD_MAX_PAGES ? 0 : 1;
      engine = await createSearchEngine({ siteDir: a.siteDir, workers, cacheBytes: 8 * 1024 * 1024, prebuiltIndexDir: existsSync(prebuilt) ? prebuilt : undefined, buildId: manifest.buildId });
      const corpus = await loadCorpus(manifest, a.siteDir, siteUrl, engine);
      const owner = corpus.pages.get('/')?.title ?? corpus.manifest.site.name;
      return { engine, corpus, systemPrompt: assistantSystemPrompt({ siteName: corpus.manifest.site.name, ownerName: owner, siteUrl }) };
    })();
    // Retry on the next request when the build was missing.
    services.catch(() => (services = undefined));
    return services;
  };

  const ctx: AssistantContext = {
    config,
    siteUrl,
    limiter,
    guard: createOriginGuard(siteUrl, a.allowedOrigins),
    policy: createContentPolicy(a.contentPolicy),
    files: createSiteFiles(a.siteDir),
    llm,
    deadlineMs: answerDeadlineMs(config.llm),
    services: loadServices,
  };

  const stateOf = (event: H3Event): RequestState => {
    const context = event.context as { assistant?: RequestState };
    if (!context.assistant) {
      const req = event.req as unknown as Request & { ip?: string };
      context.assistant = { ip: clientIp(config.trustProxy, req.ip, req.headers.get('x-forwarded-for')) };
    }
    return context.assistant;
  };
  // the portfolio pages' CSP (with the build's inline hashes), Referrer-Policy, framing refused (http/security-headers.ts)
  const htmlHeaders = loadSecurityHeaders(config.distDir, 'portfolio');
  const finish = (event: H3Event, res: Response): Response => {
    const state = stateOf(event);
    const rate = rateLimitHeaders(state.rate ?? limiter.peek(state.ip));
    // a 429 carries its own counter state; every other answer gets the client's; HTML pages their security headers
    return withHeaders(res, (set, get) => {
      for (const [k, v] of Object.entries(rate)) if (get(k) === null) set(k, v);
      if (isHtml(get('content-type'))) for (const [k, v] of Object.entries(htmlHeaders)) set(k, v);
    });
  };

  const app = new H3({
    // Errors h3 raises itself (e.g. a malformed URL) in the same envelope and headers.
    onError: (error, event) => finish(event, toErrorResponse(error)),
  }) as AssistantApp;

  app.use(async (event, next) => {
    stateOf(event);
    let res: unknown;
    try {
      res = await next();
    } catch (err) {
      res = toErrorResponse(err);
    }
    if (!(res instanceof Response)) res = toErrorResponse(new Error(`handler returned ${typeof res} instead of a Response`));
    return finish(event, res as Response);
  });

  app.all(CHAT_PATH, chatHandler(ctx));
  app.all(ASK_PATH, askHandler(ctx));
  app.all(MCP_PATH, mcpHandler(ctx));
  app.all('/**', staticHandler(ctx));

  app.ready = async () => {
    await loadServices();
  };
  app.close = async () => {
    await limiter.close().catch(() => {});
    const e = engine;
    engine = undefined;
    await e?.close().catch(() => {});
  };
  // Warm up in the background; a missing build is reported on the first request instead.
  loadServices().catch((err: Error) => console.error(`[assistant] ${err.message}`));
  return app;
}
