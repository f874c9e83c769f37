// The gateway's one configuration, for both apps: read from the environment (and
// optionally a dotenv-style file named by CONFIG_FILE; the environment wins) and validated
// with one zod schema. A bad value fails startup before either port opens, with every bad
// variable listed, each with the values it allows and the value it got (Starlight's user
// config errors are the model: name the key, say what is expected, show what was received).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { RE2JS } from 're2js';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './limits/client-ip.ts';
import { siteUrl } from './site-url.ts';
import { editDistance } from './engine/search/typo-index.ts';
import { parseDeprecations, type Deprecation } from './contract/deprecations.ts';
import type { LlmConfig } from './engine/llm.ts';

const int = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: `must be one of ${values.join(', ')}` });

const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), 'must be an absolute http(s) URL')
  .transform((v) => v.replace(/\/+$/, ''));

const envSchema = z.object({
  PORT: int(0, 65535).default(4321),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DIST_DIR: z.string().trim().min(1).default('dist'),
  SITE_URL: siteUrl.optional(),
  TRUST_PROXY: z.string().default('false'),
  RATE_LIMIT_MAX: int(1, 1_000_000_000).default(120),
  RATE_LIMIT_WINDOW_S: int(1, 86_400).default(60),
  REDIS_URL: z
    .string()
    .trim()
    .refine((v) => /^rediss?:\/\//.test(v) && URL.canParse(v), 'must be a redis:// or rediss:// URL')
    .optional(),
  DEPRECATIONS: z.string().optional(),
  BODY_LIMIT_BYTES: int(1024, 10 * 1024 * 1024).default(65_536),
  SEARCH_WORKERS: int(1, 64).optional(),
  SEARCH_CACHE_SIZE: int(0, 1_000_000).optional(),
  SEARCH_CACHE_MB: int(0, 65_536).optional(),
  LLM_BASE_URL: httpUrl.optional(),
  LLM_MODEL: z.string().trim().min(1).optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_CONNECT_TIMEOUT_MS: int(100, 600_000).default(3000),
  LLM_TIMEOUT_MS: int(100, 600_000).default(30_000),
  LLM_RETRIES: int(0, 10).default(1),
  ASSISTANT_PORT: int(0, 65535).default(4322),
  ASSISTANT_SITE_URL: siteUrl.optional(),
  ASSISTANT_RATE_LIMIT_MAX: int(1, 1_000_000_000).default(10),
  ASSISTANT_RATE_LIMIT_WINDOW_S: int(1, 86_400).default(60),
  ASSISTANT_ALLOWED_ORIGINS: z.string().default(''),
  ASSISTANT_ENABLED: oneOf(['true', 'false', '1', '0']).default('true'),
  ASSISTANT_CONTENT_POLICY: oneOf(['default', 'off']).default('default'),
  ASSISTANT_BLOCKED_PATTERNS: z.string().optional(),
  // Operations (gateway/http/node-server.ts, gateway/main.ts, gateway/docs/runtime.ts): how long a client may
  // take to send a request, how long a shutdown waits for answers in flight, how often the build link is checked.
  REQUEST_TIMEOUT_MS: int(1000, 600_000).default(30_000),
  HEADERS_TIMEOUT_MS: int(1000, 600_000).default(20_000),
  SHUTDOWN_DEADLINE_MS: int(0, 600_000).default(10_000),
  RELOAD_CHECK_MS: int(0, 3_600_000).default(2000),
  // Hardening limits (content/docs/deploy/security-and-operations.md#limits)
  SITE_RATE_LIMIT_MAX: int(1, 1_000_000_000).default(1200),
  REDIS_TIMEOUT_MS: int(10, 60_000).default(250),
  ASK_MODEL_RATE_LIMIT_MAX: int(1, 1_000_000_000).default(10),
  ASK_MODEL_RATE_LIMIT_WINDOW_S: int(1, 86_400).default(60),
  ASK_ANSWER_CACHE_SIZE: int(0, 1_000_000).default(1000),
});

export interface GatewayConfig {
  port: number;
  host: string;
  distDir: string;
  /** DIST_DIR/site: the docs static tree. */
  siteDir: string;
  /** Fallback for Problem `type` URIs while the build manifest is unreadable. */
  siteUrl?: string;
  trustProxy: TrustProxy;
  rateLimit: { max: number; windowSeconds: number };
  redisUrl?: string;
  deprecations: Deprecation[];
  bodyLimitBytes: number;
  search: { workers?: number; cacheSize?: number; cacheBytes?: number };
  /** Undefined when no model backend is configured (extractive answers). */
  llm?: LlmConfig;
  operations: {
    /** The whole request (headers and body) must arrive within this. */
    requestTimeoutMs: number;
    /** The request's headers must arrive within this (at most requestTimeoutMs). */
    headersTimeoutMs: number;
    /** SIGTERM: how long answers in flight (SSE streams included) may take before their connections are cut. */
    shutdownDeadlineMs: number;
    /** How often DIST_DIR's real path is compared with the loaded build's (0: on SIGHUP only). */
    reloadCheckMs: number;
  };
  /** Hardening limits: the site's flood guard, the Redis command timeout, the docs /ask model budget and answer cache. */
  siteRateLimit: { max: number; windowSeconds: number };
  redisTimeoutMs: number;
  askModel: { max: number; windowSeconds: number; cacheSize: number };
  assistant: {
    enabled: boolean;
    port: number;
    siteUrl: string;
    /** DIST_DIR/portfolio: the assistant site tree. */
    siteDir: string;
    rateLimit: { max: number; windowSeconds: number };
    /** Extra origins allowed to call /api/chat besides ASSISTANT_SITE_URL. */
    allowedOrigins: string[];
    /** The content policy: the built-in rules (ASSISTANT_CONTENT_POLICY=default) and the operator's patterns. */
    contentPolicy: { builtIn: boolean; patterns: RE2JS[] };
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** The variables of CONFIG_FILE (KEY=value lines) that the environment does not set. */
function fileVariables(env: Env): Env {
  const file = env.CONFIG_FILE;
  if (!file) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  - CONFIG_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  // a byte-order mark (Windows editors write one) would be part of the first variable's name, which nothing would read
  const vars = parseEnv(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Env;
  const misspelt = Object.keys(vars).flatMap((name) => {
    if (name in envSchema.shape) return [];
    const near = Object.keys(envSchema.shape).find((known) => editDistance(name, known, 2) <= 2);
    return near ? [`${name} (did you mean ${near}?)`] : [];
  });
  if (misspelt.length) throw new ConfigError(`Invalid configuration:\n  - CONFIG_FILE: ${file} sets ${misspelt.join(', ')}, which is no setting of the gateway`);
  // An empty variable counts as unset, here as everywhere.
  return Object.fromEntries(Object.entries(vars).filter(([k]) => env[k] === undefined || env[k] === ''));
}

/**
 * An operator's blocked pattern (ASSISTANT_BLOCKED_PATTERNS), compiled case-insensitive on
 * re2js, the linear-time engine the content policy runs on. Throws with RE2's message for
 * syntax RE2 does not have (lookaround, backreferences).
 */
export function compileBlockedPattern(source: string): RE2JS {
  return RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
}

/** ASSISTANT_BLOCKED_PATTERNS: a JSON array of RE2 patterns; problems go to `problems`. */
function blockedPatterns(raw: string | undefined, problems: string[]): RE2JS[] {
  if (!raw) return [];
  const name = 'ASSISTANT_BLOCKED_PATTERNS';
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    problems.push(`${name}: must be a JSON array of regular expressions, e.g. ["\\bcasino\\b"] (got ${JSON.stringify(raw)})`);
    return [];
  }
  if (!Array.isArray(list) || !list.every((p) => typeof p === 'string' && p.length > 0)) {
    problems.push(`${name}: must be a JSON array of non-empty strings (got ${JSON.stringify(raw)})`);
    return [];
  }
  const patterns: RE2JS[] = [];
  for (const source of list as string[]) {
    try {
      patterns.push(compileBlockedPattern(source));
    } catch (err) {
      problems.push(`${name}: ${JSON.stringify(source)} is not a valid RE2 regular expression (lookaround and backreferences are not supported: ${(err as Error).message})`);
    }
  }
  return patterns;
}

/** Copies CONFIG_FILE's variables into `env` (for modules that read process.env themselves). */
export function applyConfigFile(env: Env = process.env): void {
  Object.assign(env, fileVariables(env));
}

/** Validates the environment; throws one ConfigError listing every bad variable. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): GatewayConfig {
  // Empty strings count as unset, so `FOO= node …` falls back to the file or the default.
  const set = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  const clean: Record<string, string> = { ...(fileVariables(env) as Record<string, string>), ...set };
  const parsed = envSchema.safeParse(clean);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${String(issue.path[0])}: ${issue.message} (got ${JSON.stringify(clean[String(issue.path[0])] ?? '')})`);
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  const e = parsed.data;

  let trustProxy: TrustProxy = false;
  try {
    trustProxy = parseTrustProxy(e.TRUST_PROXY);
  } catch (err) {
    problems.push(`TRUST_PROXY: ${(err as Error).message}`);
  }
  let deprecations: Deprecation[] = [];
  try {
    deprecations = e.DEPRECATIONS ? parseDeprecations(e.DEPRECATIONS) : [];
  } catch (err) {
    problems.push(`DEPRECATIONS: ${(err as Error).message}`);
  }
  if (Boolean(e.LLM_BASE_URL) !== Boolean(e.LLM_MODEL)) {
    problems.push(`${e.LLM_BASE_URL ? 'LLM_MODEL' : 'LLM_BASE_URL'}: must be set together with ${e.LLM_BASE_URL ? 'LLM_BASE_URL' : 'LLM_MODEL'} (or unset both for extractive answers)`);
  }
  const origins = e.ASSISTANT_ALLOWED_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(o)) problems.push(`ASSISTANT_ALLOWED_ORIGINS: "${o}" is not an origin like https://example.com (no path, no trailing slash)`);
  }
  const patterns = blockedPatterns(e.ASSISTANT_BLOCKED_PATTERNS, problems);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);

  const distDir = resolve(cwd, e.DIST_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    distDir,
    siteDir: resolve(distDir, 'site'),
    siteUrl: e.SITE_URL,
    trustProxy,
    rateLimit: { max: e.RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_S },
    redisUrl: e.REDIS_URL,
    deprecations,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    search: { workers: e.SEARCH_WORKERS, cacheSize: e.SEARCH_CACHE_SIZE, cacheBytes: e.SEARCH_CACHE_MB === undefined ? undefined : e.SEARCH_CACHE_MB * 1024 * 1024 },
    llm:
      e.LLM_BASE_URL && e.LLM_MODEL
        ? {
            baseUrl: e.LLM_BASE_URL,
            model: e.LLM_MODEL,
            apiKey: e.LLM_API_KEY,
            connectTimeoutMs: e.LLM_CONNECT_TIMEOUT_MS,
            totalTimeoutMs: e.LLM_TIMEOUT_MS,
            retries: e.LLM_RETRIES,
          }
        : undefined,
    operations: {
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      headersTimeoutMs: Math.min(e.HEADERS_TIMEOUT_MS, e.REQUEST_TIMEOUT_MS),
      shutdownDeadlineMs: e.SHUTDOWN_DEADLINE_MS,
      reloadCheckMs: e.RELOAD_CHECK_MS,
    },
    siteRateLimit: { max: e.SITE_RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_S },
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
    askModel: { max: e.ASK_MODEL_RATE_LIMIT_MAX, windowSeconds: e.ASK_MODEL_RATE_LIMIT_WINDOW_S, cacheSize: e.ASK_ANSWER_CACHE_SIZE },
    assistant: {
      enabled: e.ASSISTANT_ENABLED === 'true' || e.ASSISTANT_ENABLED === '1',
      port: e.ASSISTANT_PORT,
      // unset: the build's (gateway/main.ts), else the local address of ASSISTANT_PORT
      siteUrl: e.ASSISTANT_SITE_URL ?? `http://localhost:${e.ASSISTANT_PORT}`,
      siteDir: resolve(distDir, 'portfolio'),
      rateLimit: { max: e.ASSISTANT_RATE_LIMIT_MAX, windowSeconds: e.ASSISTANT_RATE_LIMIT_WINDOW_S },
      allowedOrigins: origins,
      contentPolicy: { builtIn: e.ASSISTANT_CONTENT_POLICY === 'default', patterns },
    },
  };
}
