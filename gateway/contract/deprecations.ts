// Deprecation registry (DEPRECATIONS, a JSON array), checked at startup:
//   [{ "endpoint": "/api/search", "deprecation": "Sun, 01 Feb 2026 00:00:00 GMT",
//      "sunset": "Sat, 01 Aug 2026 00:00:00 GMT", "replacement": "/api/v2/search", "notes": "/docs/api/versioning" }]
// `endpoint` (alias: `path`) is a canonical path of the OpenAPI description, which also
// covers its /api/v1 alias, or an /api/v1/… path (that alias only). Dates are IMF-fixdates
// or ISO 8601 date-times; headers always carry IMF-fixdates. `notes` (alias: `link`) is the
// migration notes URL. The Sunset must be at least 6 months after the Deprecation.
// It belongs to the contract: the spec's versioning rules, over the contract's endpoints,
// read by the configuration (gateway/config.ts) and applied by the docs app.
import { z } from 'zod';
import { docsEndpoints, v1Alias } from './docs-api.ts';

export interface Deprecation {
  endpoint: string;
  /** IMF-fixdate. */
  deprecation: string;
  /** IMF-fixdate. */
  sunset: string;
  sunsetMs: number;
  replacement: string;
  notes?: string;
}

const imfFixdate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const isoDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A date as IMF-fixdate, from an IMF-fixdate or an ISO 8601 date(-time). */
const httpDate = z.string().transform((v, ctx) => {
  const ok = (imfFixdate.test(v) && new Date(v).toUTCString() === v) || (isoDateTime.test(v) && !Number.isNaN(Date.parse(v)));
  if (!ok) {
    ctx.addIssue({ code: 'custom', message: 'must be an IMF-fixdate such as "Sun, 01 Feb 2026 00:00:00 GMT" or an ISO 8601 date-time such as "2026-02-01T00:00:00Z"' });
    return z.NEVER;
  }
  return new Date(v).toUTCString();
});

const knownPaths = docsEndpoints.flatMap((e) => [e.path, v1Alias(e.path)]);

const linkTarget = z
  .string()
  .min(1)
  .refine((v) => v.startsWith('/') || /^https?:\/\//.test(v), 'must be a path starting with "/" or an absolute http(s) URL')
  .refine((v) => !/[\s<>"]/.test(v), 'must not contain spaces, quotes or angle brackets');

const endpointPath = z.string().refine((v) => knownPaths.includes(v), `must be one of ${knownPaths.join(', ')}`);

const entry = z
  .object({
    endpoint: endpointPath.optional(),
    path: endpointPath.optional(),
    deprecation: httpDate,
    sunset: httpDate,
    replacement: linkTarget,
    notes: linkTarget.optional(),
    link: linkTarget.optional(),
  })
  .strict()
  .superRefine((d, ctx) => {
    if (!d.endpoint === !d.path) ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'give exactly one of `endpoint` or `path`' });
    if (d.notes && d.link) ctx.addIssue({ code: 'custom', path: ['notes'], message: 'give at most one of `notes` or `link`' });
    const earliest = new Date(d.deprecation);
    earliest.setUTCMonth(earliest.getUTCMonth() + 6);
    if (new Date(d.sunset).getTime() < earliest.getTime()) {
      ctx.addIssue({ code: 'custom', path: ['sunset'], message: `must be at least 6 months after deprecation (${d.deprecation}), i.e. on or after ${earliest.toUTCString()}` });
    }
  });

export function parseDeprecations(json: string): Deprecation[] {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    throw new Error(`not valid JSON (${(err as Error).message})`);
  }
  const parsed = z.array(entry).safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `[${i.path.join('.')}] ${i.message}`);
    throw new Error(issues.join('; '));
  }
  const list = parsed.data.map((d) => ({
    endpoint: (d.endpoint ?? d.path)!,
    deprecation: d.deprecation,
    sunset: d.sunset,
    sunsetMs: new Date(d.sunset).getTime(),
    replacement: d.replacement,
    notes: d.notes ?? d.link,
  }));
  const seen = new Set<string>();
  for (const d of list) {
    if (seen.has(d.endpoint)) throw new Error(`[${d.endpoint}] listed twice`);
    seen.add(d.endpoint);
  }
  return list;
}

/** Route path (canonical or alias, OpenAPI style) → its deprecation; alias entries win for their alias. */
export function deprecationIndex(list: Deprecation[]): Map<string, Deprecation> {
  const index = new Map<string, Deprecation>();
  const isAlias = (d: Deprecation) => d.endpoint.startsWith('/api/v1/');
  for (const d of list.filter((d) => !isAlias(d))) {
    index.set(d.endpoint, d);
    index.set(v1Alias(d.endpoint), d);
  }
  for (const d of list.filter(isAlias)) index.set(d.endpoint, d);
  return index;
}
