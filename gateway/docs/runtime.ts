// Everything the docs app needs, loaded once at startup: the build manifest, the
// search engine, the model client, the rate-limit store and the site files. A
// missing manifest or index does not stop the process: static files keep being
// served and the API answers 503 until the operator fixes the build output.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { GatewayConfig } from '../config.ts';
import { RUNTIME_MANIFEST_FILE, loadManifest, type Manifest, type ManifestPage } from '../engine/manifest.ts';
import { createSearchEngine, type SearchEngine } from '../engine/search.ts';
import { createLlmClient, type LlmClient } from '../engine/llm.ts';
import { createLimitStore, type LimitStore } from '../limits/store.ts';
import { createModelBudget, type ModelBudget } from './ask/model-budget.ts';
import { createSiteFiles, type SiteFiles } from '../static/files.ts';
import { deprecationIndex, type Deprecation } from './deprecations.ts';

export interface DocsRuntime {
  config: GatewayConfig;
  manifest?: Manifest;
  /** Page path → manifest entry. */
  pages: Map<string, ManifestPage>;
  engine?: SearchEngine;
  llm?: LlmClient;
  /** What /ask may spend on the model (per-client budget, answer cache); with a model only. */
  modelBudget?: ModelBudget;
  /** API budget: per client and endpoint (RATE_LIMIT_MAX). */
  limits: LimitStore;
  /** The site's flood guard: per client, all site files together (SITE_RATE_LIMIT_MAX). */
  siteLimits: LimitStore;
  files: SiteFiles;
  /** Route path (OpenAPI style, canonical or /api/v1 alias) → deprecation. */
  deprecations: Map<string, Deprecation>;
  /** `{base_url}`: the manifest's site.url, else SITE_URL, else the local address. */
  siteUrl: string;
  siteName: string;
  /** Why the API cannot serve, or undefined when it can (cached for a second). */
  unavailable(): Promise<string | undefined>;
  close(): Promise<void>;
}

const HEALTH_TTL_MS = 1000;

export async function createDocsRuntime(config: GatewayConfig): Promise<DocsRuntime> {
  // Parsed once, here: the search engine only needs its build id, and gets it from this load. The build's runtime
  // slice of the manifest (beside the prebuilt engine index) is read instead of the whole file when it matches.
  const prebuiltIndexDir = join(config.distDir, 'search-index', 'site');
  const manifestLoad = loadManifest(config.siteDir, { runtimeSlice: join(prebuiltIndexDir, RUNTIME_MANIFEST_FILE) });
  const entryFile = join(config.siteDir, 'pagefind', 'pagefind-entry.json');
  let engineLoad: Promise<SearchEngine> | undefined;
  if (existsSync(entryFile)) {
    // started now, so its workers boot while the manifest is read and parsed
    const buildId = manifestLoad.then((m) => m.buildId);
    buildId.catch(() => {}); // the engine may fail before awaiting it
    engineLoad = createSearchEngine({
      siteDir: config.siteDir,
      workers: config.search.workers,
      cacheSize: config.search.cacheSize,
      cacheBytes: config.search.cacheBytes,
      // the build's prebuilt engine index (src/integration/search-index.ts), when present and of this build
      prebuiltIndexDir: existsSync(prebuiltIndexDir) ? prebuiltIndexDir : undefined,
      buildId,
    });
    engineLoad.catch(() => {}); // reported below, after the manifest's error
  }

  let manifest: Manifest | undefined;
  try {
    manifest = await manifestLoad;
  } catch (err) {
    console.error(`[docs] ${(err as Error).message}`);
  }

  let engine: SearchEngine | undefined;
  if (!engineLoad) {
    console.error(`[docs] search index missing: ${entryFile} does not exist (run \`npm run build\`)`);
  } else {
    try {
      engine = await engineLoad;
    } catch (err) {
      console.error(`[docs] search index unreadable: ${(err as Error).message}`);
    }
  }

  const llm = config.llm ? createLlmClient(config.llm) : undefined;
  const modelBudget = llm ? createModelBudget(config) : undefined;
  const limits = createLimitStore({ ...config.rateLimit, redisUrl: config.redisUrl, redisTimeoutMs: config.redisTimeoutMs, prefix: 'docs' });
  const siteLimits = createLimitStore({ ...config.siteRateLimit, redisUrl: config.redisUrl, redisTimeoutMs: config.redisTimeoutMs, prefix: 'docs-site' });
  await Promise.all([limits.ready(), siteLimits.ready()]);

  const manifestFile = join(config.siteDir, 'build-manifest.json');
  let checkedAt = 0;
  let lastReason: string | undefined;
  async function check(): Promise<string | undefined> {
    if (!manifest) return 'the build manifest is unreadable';
    if (!engine) return 'the search index is unreadable';
    const [m, e] = await Promise.all([stat(manifestFile).catch(() => null), stat(entryFile).catch(() => null)]);
    if (!m?.isFile()) return 'the build manifest is unreadable';
    if (!e?.isFile()) return 'the search index is unreadable';
    return undefined;
  }

  return {
    config,
    manifest,
    pages: new Map((manifest?.pages ?? []).map((p) => [p.path, p])),
    engine,
    llm,
    modelBudget,
    limits,
    siteLimits,
    files: createSiteFiles(config.siteDir),
    deprecations: deprecationIndex(config.deprecations),
    siteUrl: (manifest?.site.url ?? config.siteUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, ''),
    siteName: manifest?.site.name ?? 'Docs',
    async unavailable() {
      const now = Date.now();
      if (now - checkedAt >= HEALTH_TTL_MS) {
        checkedAt = now;
        lastReason = await check();
      }
      return lastReason;
    },
    async close() {
      await Promise.allSettled([engine?.close(), limits.close(), siteLimits.close(), modelBudget?.close()]);
    },
  };
}
