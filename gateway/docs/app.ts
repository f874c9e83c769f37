// The docs read API app: contract endpoints (each also under /api/v1), any other
// /api path as "API endpoint not found", and the static build tree for the rest.
// Middleware order: pipeline (state, errors, common headers) → rate limit → CORS
// preflight → deprecation → route.
import { H3, type EventHandler } from 'h3';
import type { GatewayConfig } from '../config.ts';
import { docsEndpoints, v1Alias, type DocsEndpointId } from '../contract/docs-api.ts';
import { cors } from './middleware/cors.ts';
import { deprecation } from './middleware/deprecation.ts';
import { pipeline } from './middleware/pipeline.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import type { RouteMeta } from './request-state.ts';
import { apiUnknownRoute } from './routes/api-unknown.ts';
import { askRoute } from './routes/ask.ts';
import { healthRoute } from './routes/health.ts';
import { jobsRoute } from './routes/jobs.ts';
import { mcpRoute } from './routes/mcp.ts';
import { mdBatchRoute } from './routes/md-batch.ts';
import { openapiRoute } from './routes/openapi.ts';
import { searchRoute } from './routes/search.ts';
import { staticRoute } from './routes/static.ts';
import { createDocsRuntime, type DocsRuntime } from './runtime.ts';

export interface DocsApp {
  app: H3;
  runtime: DocsRuntime;
  close(): Promise<void>;
}

/** `/api/jobs/{jobId}` → `/api/jobs/:jobId` */
const h3Route = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

export async function createDocsApp(config: GatewayConfig): Promise<DocsApp> {
  const rt = await createDocsRuntime(config);
  const app = new H3({ silent: true, allowMalformedURL: true });
  app.use(pipeline(rt));
  app.use(rateLimit(rt));
  app.use(cors());
  app.use(deprecation(rt));

  const handlers: Record<DocsEndpointId, EventHandler> = {
    search: searchRoute(rt),
    ask: askRoute(rt),
    'md-batch': mdBatchRoute(rt),
    jobs: jobsRoute(rt),
    health: healthRoute(rt),
    mcp: mcpRoute(rt),
    openapi: openapiRoute(rt),
  };
  for (const ep of docsEndpoints) {
    for (const routePath of [ep.path, v1Alias(ep.path)]) {
      const meta: RouteMeta = { kind: 'api', endpoint: ep.id, routePath, methods: ep.methods };
      app.all(h3Route(routePath), handlers[ep.id], { meta: { ...meta } });
    }
  }
  const unknown: RouteMeta = { kind: 'api-unknown', methods: [] };
  app.all('/api', apiUnknownRoute(), { meta: { ...unknown } });
  app.all('/api/**', apiUnknownRoute(), { meta: { ...unknown } });
  const files: RouteMeta = { kind: 'static', methods: ['GET'] };
  app.all('/**', staticRoute(rt), { meta: { ...files } });

  return { app, runtime: rt, close: () => rt.close() };
}
