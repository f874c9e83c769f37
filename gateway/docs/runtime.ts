// Everything the docs app needs: the configuration, the model client, the rate-limit
// store, and the loaded build (manifest, search engine, site files). A missing
// manifest or index does not stop the process: static files keep being served and
// the API answers 503 until the operator fixes the build output.
//
// The build is swappable without a restart (zero-downtime content updates): when
// DIST_DIR is a link (`current` → `releases/<id>`, see scripts/release.ts) and now points
// elsewhere, or on SIGHUP, the new build is loaded beside the old one and, only once its
// manifest and index loaded, becomes current in one assignment. Each request is pinned to
// the build current when it arrived, so it finishes on the old build; the old build's
// engine closes after SHUTDOWN_DEADLINE_MS. The pin is the `build` of the request's state
// (request-state.ts), which rides in the one async scope a request runs in: the runtime's
// build fields (manifest, pages, engine, files, siteUrl, siteName, htmlHeaders) read it
// with one lookup, and a request needs no second scope of its own for it.
import { existsSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { buildSettingsDrift } from '../build-settings.ts';
import type { GatewayConfig } from '../config.ts';
import { RUNTIME_MANIFEST_FILE, loadManifest, type Manifest, type ManifestPage } from '../engine/manifest.ts';
import { createSearchEngine, type SearchEngine } from '../engine/search.ts';
import { createLlmClient, type LlmClient } from '../engine/llm.ts';
import { loadSecurityHeaders } from '../http/security-headers.ts';
import { createLimitStore, type LimitStore } from '../limits/store.ts';
import { createModelBudget, type ModelBudget } from './ask/model-budget.ts';
import { createSiteFiles, type SiteFiles } from '../static/files.ts';
import type { LoadedBuild } from './loaded-build.ts';
import { currentRequestState } from './request-state.ts';
import { deprecationIndex, type Deprecation } from '../contract/deprecations.ts';

export interface DocsRuntime {
  config: GatewayConfig;
  readonly manifest?: Manifest;
  readonly pages: Map<string, ManifestPage>;
  readonly engine?: SearchEngine;
  readonly files: SiteFiles;
  readonly siteUrl: string;
  readonly siteName: string;
  readonly htmlHeaders: Record<string, string>;
  llm?: LlmClient;
  /** What /ask may spend on the model (per-client budget, answer cache); with a model only. */
  modelBudget?: ModelBudget;
  /** API budget: per client and endpoint (RATE_LIMIT_MAX). */
  limits: LimitStore;
  /** The site's flood guard: per client, all site files together (SITE_RATE_LIMIT_MAX). */
  siteLimits: LimitStore;
  /** Route path (OpenAPI style, canonical or /api/v1 alias) → deprecation. */
  deprecations: Map<string, Deprecation>;
  /** The build current now: a request pins it in its state (request-state.ts) and reads it to its end. */
  currentBuild(): LoadedBuild;
  /** Why the API cannot serve, or undefined when it can (cached for a second). */
  unavailable(): Promise<string | undefined>;
  /** Loads DIST_DIR again if it now names another build (SIGHUP: also when the build id changed in place). */
  reload(reason: 'SIGHUP' | 'link'): Promise<void>;
  /** Shutdown has begun: health answers 503 from now on. */
  drain(): void;
  close(): Promise<void>;
}

const HEALTH_TTL_MS = 1000;

/** Loads the build in `dir` (a real path). Never throws: what failed is logged and left undefined. */
async function loadBuild(config: GatewayConfig, dir: string): Promise<LoadedBuild> {
  const siteDir = join(dir, 'site');
  // Parsed once, here: the search engine only needs its build id, and gets it from this load. The build's runtime
  // slice of the manifest (beside the prebuilt engine index) is read instead of the whole file when it matches.
  const prebuiltIndexDir = join(dir, 'search-index', 'site');
  const manifestLoad = loadManifest(siteDir, { runtimeSlice: join(prebuiltIndexDir, RUNTIME_MANIFEST_FILE) });
  const entryFile = join(siteDir, 'pagefind', 'pagefind-entry.json');
  let engineLoad: Promise<SearchEngine> | undefined;
  if (existsSync(entryFile)) {
    // started now, so its workers boot while the manifest is read and parsed
    const buildId = manifestLoad.then((m) => m.buildId);
    buildId.catch(() => {}); // the engine may fail before awaiting it
    engineLoad = createSearchEngine({
      siteDir,
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
  return {
    dir,
    manifest,
    pages: new Map((manifest?.pages ?? []).map((p) => [p.path, p])),
    engine,
    files: createSiteFiles(siteDir),
    siteUrl: (manifest?.site.url ?? config.siteUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, ''),
    siteName: manifest?.site.name ?? 'Docs',
    htmlHeaders: loadSecurityHeaders(dir, 'site'),
  };
}

/** DIST_DIR with links resolved (itself when it does not exist yet). */
const realDistDir = (config: GatewayConfig) => realpath(config.distDir).catch(() => resolve(config.distDir));

export async function createDocsRuntime(config: GatewayConfig): Promise<DocsRuntime> {
  let current = await loadBuild(config, await realDistDir(config));
  // the build of the request running now (pinned by the pipeline in its one async scope), else the current one
  const build = () => currentRequestState()?.build ?? current;
  const retiring = new Set<LoadedBuild>();

  const llm = config.llm ? createLlmClient(config.llm) : undefined;
  const modelBudget = llm ? createModelBudget(config) : undefined;
  const limits = createLimitStore({ ...config.rateLimit, redisUrl: config.redisUrl, redisTimeoutMs: config.redisTimeoutMs, prefix: 'docs' });
  const siteLimits = createLimitStore({ ...config.siteRateLimit, redisUrl: config.redisUrl, redisTimeoutMs: config.redisTimeoutMs, prefix: 'docs-site' });
  await Promise.all([limits.ready(), siteLimits.ready()]);

  let draining = false;
  let checkedAt = 0;
  let lastReason: string | undefined;
  async function check(): Promise<string | undefined> {
    const b = current;
    if (!b.manifest) return 'the build manifest is unreadable';
    if (!b.engine) return 'the search index is unreadable';
    const siteDir = join(b.dir, 'site');
    const [m, e] = await Promise.all([stat(join(siteDir, 'build-manifest.json')).catch(() => null), stat(join(siteDir, 'pagefind', 'pagefind-entry.json')).catch(() => null)]);
    if (!m?.isFile()) return 'the build manifest is unreadable';
    if (!e?.isFile()) return 'the search index is unreadable';
    return undefined;
  }

  /** Closes an old build's engine once the requests pinned to it have had the shutdown deadline to finish. */
  function retire(old: LoadedBuild): void {
    retiring.add(old);
    setTimeout(() => {
      if (retiring.delete(old)) void old.engine?.close().catch(() => {});
    }, config.operations.shutdownDeadlineMs).unref();
  }

  let reloading: Promise<void> | undefined;
  /** A build that did not load or was made for other settings: the link check does not load it again (SIGHUP does). */
  let refusedDir: string | undefined;
  async function reloadOnce(reason: 'SIGHUP' | 'link'): Promise<void> {
    const dir = await realDistDir(config);
    if (reason === 'link' && (dir === current.dir || dir === refusedDir)) return;
    if (dir === current.dir && current.manifest) {
      // the same directory: a new build id there means it was rebuilt in place (not atomic, but asked for)
      const onDisk = await loadManifest(join(dir, 'site')).catch(() => undefined);
      if (onDisk?.buildId === current.manifest.buildId) {
        console.log(`[docs] ${reason}: build ${current.manifest.buildId} in ${dir} unchanged, nothing to reload`);
        return;
      }
    }
    console.log(`[docs] ${reason}: loading the build in ${dir}`);
    const next = await loadBuild(config, dir);
    if (!next.manifest || !next.engine) {
      console.error(`[docs] ${reason}: the build in ${dir} did not load; still serving ${current.dir}`);
      await next.engine?.close().catch(() => {});
      refusedDir = dir;
      return;
    }
    const drift = buildSettingsDrift(next.manifest.settings, process.env, dir);
    if (drift.length) {
      console.error(`[docs] ${reason}: not switching to the build in ${dir}:\n  - ${drift.join('\n  - ')}`);
      await next.engine.close().catch(() => {});
      refusedDir = dir;
      return;
    }
    const old = current;
    current = next;
    checkedAt = 0;
    console.log(`[docs] serving build ${next.manifest.buildId} from ${dir} (${next.pages.size} pages)`);
    retire(old);
  }

  const watch =
    config.operations.reloadCheckMs > 0
      ? setInterval(() => {
          if (!reloading && !draining) void runtime.reload('link');
        }, config.operations.reloadCheckMs).unref()
      : undefined;

  const runtime: DocsRuntime = {
    config,
    get manifest() {
      return build().manifest;
    },
    get pages() {
      return build().pages;
    },
    get engine() {
      return build().engine;
    },
    get files() {
      return build().files;
    },
    get siteUrl() {
      return build().siteUrl;
    },
    get siteName() {
      return build().siteName;
    },
    get htmlHeaders() {
      return build().htmlHeaders;
    },
    llm,
    modelBudget,
    limits,
    siteLimits,
    deprecations: deprecationIndex(config.deprecations),
    currentBuild: () => current,
    async unavailable() {
      if (draining) return 'the gateway is shutting down';
      const now = Date.now();
      if (now - checkedAt >= HEALTH_TTL_MS) {
        checkedAt = now;
        lastReason = await check();
      }
      return lastReason;
    },
    reload(reason) {
      reloading ??= reloadOnce(reason)
        .catch((err: Error) => console.error(`[docs] ${reason}: reload failed: ${err.message}`))
        .finally(() => (reloading = undefined));
      return reloading;
    },
    drain() {
      draining = true;
    },
    async close() {
      if (watch) clearInterval(watch);
      await reloading;
      const builds = [current, ...retiring];
      retiring.clear();
      await Promise.allSettled([...builds.map((b) => b.engine?.close()), limits.close(), siteLimits.close(), modelBudget?.close()]);
    },
  };
  return runtime;
}
