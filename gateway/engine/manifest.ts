/**
 * build-manifest.json: the interface between the static build and the gateway.
 * Shape: see team BRIEF ("build-manifest.json"). Validated with zod; a clear error names the file and the problem.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

export const CONTENT_TYPES = ['docs', 'skill', 'agent', 'hook', 'composition'] as const;

export const ManifestHeadingSchema = z.object({
  depth: z.number().int().min(1).max(6),
  slug: z.string(),
  text: z.string(),
});

export const ManifestPageSchema = z.object({
  path: z.string().regex(/^\/[^\s?#]*$/, 'page path must start with "/" and carry no query or fragment'),
  title: z.string(),
  /** The source file, relative to the content folder. */
  source: z.string().optional(),
  description: z.string().default(''),
  type: z.enum(CONTENT_TYPES),
  section: z.string(),
  md: z.string(),
  hash: z.string(),
  order: z.number().optional(),
  headings: z.array(ManifestHeadingSchema).default([]),
});

export const BuildManifestSchema = z.object({
  manifestVersion: z.literal(1),
  buildId: z.string().regex(/^[0-9a-f]{16}$/, 'buildId must be 16 lowercase hex characters'),
  site: z.object({
    url: z.string(),
    name: z.string(),
    description: z.string().default(''),
    version: z.string(),
  }),
  /** What the build baked in (src/lib/build-settings.ts); checked against the environment at start (gateway/build-settings.ts). */
  settings: z.object({ siteUrl: z.string(), assistantUrl: z.string(), contentDir: z.string(), contentHash: z.string() }).optional(),
  pages: z.array(ManifestPageSchema),
});

/** The whole manifest as the build writes it (build-time checks and tests). */
export type BuildManifest = z.infer<typeof BuildManifestSchema>;

// What the gateway keeps at runtime: `hash`, `order` and `headings` are never read
// there, and at 10,000 pages they are most of the manifest's heap (zod drops unknown keys).
export const RuntimeManifestPageSchema = ManifestPageSchema.pick({ path: true, title: true, description: true, type: true, section: true, md: true });
export const RuntimeManifestSchema = BuildManifestSchema.extend({ pages: z.array(RuntimeManifestPageSchema) });

export type Manifest = z.infer<typeof RuntimeManifestSchema>;
export type ManifestPage = z.infer<typeof RuntimeManifestPageSchema>;

/**
 * The runtime slice of a manifest (RuntimeManifestSchema), written by the build beside the engine index
 * (`<DIST_DIR>/search-index/<tree>/runtime-manifest.json`) with the SHA-256 of the manifest it was cut from. At
 * 10,000 pages the manifest is 11.6 MB, most of it headings, and parsing it took 0.5–0.9 s of a cold start on a
 * slow VM; the slice is 2.6 MB and parses in ~10 ms. Used only while that hash matches, so a rebuilt or edited
 * manifest is never shadowed by an old slice. The slice is the schema's own output, so it is not validated again
 * (at 10,000 pages that took ≈60 ms of a start, and as much again in garbage collection) while it also carries the
 * SHA-256 of the schema that produced it: a gateway whose schema changed reads the manifest itself.
 */
export const RUNTIME_MANIFEST_FILE = 'runtime-manifest.json';

interface RuntimeManifestFile {
  sourceSha256: string;
  schemaSha256?: string;
  manifest: unknown;
}

let runtimeSchemaSha256: string | undefined;
/** The SHA-256 of RuntimeManifestSchema as JSON Schema: what a slice was validated against. */
function schemaSha256(): string {
  runtimeSchemaSha256 ??= sha256(Buffer.from(JSON.stringify(z.toJSONSchema(RuntimeManifestSchema))));
  return runtimeSchemaSha256;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function readManifestBytes(siteDir: string): Promise<{ file: string; bytes: Buffer }> {
  const file = join(siteDir, 'build-manifest.json');
  try {
    return { file, bytes: await readFile(file) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`Build manifest not readable at ${file}${code ? ` (${code})` : ''}: run \`npm run build\` first or point DIST_DIR at a build output`, { cause: err });
  }
}

function parseManifest(file: string, bytes: Buffer): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new Error(`Build manifest at ${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = RuntimeManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`Build manifest at ${file} is invalid: ${issues}`);
  }
  return parsed.data;
}

/** The runtime slice of the manifest whose bytes are `bytes`, if `sliceFile` holds it (else undefined: use the manifest). */
async function readSlice(sliceFile: string, bytes: Buffer): Promise<Manifest | undefined> {
  let slice: RuntimeManifestFile;
  try {
    slice = JSON.parse(await readFile(sliceFile, 'utf8')) as RuntimeManifestFile;
  } catch {
    return undefined;
  }
  if (slice?.sourceSha256 !== sha256(bytes) || slice.schemaSha256 !== schemaSha256()) return undefined;
  return slice.manifest as Manifest;
}

/**
 * Reads and validates `<siteDir>/build-manifest.json`, keeping only the fields the runtime uses (see Manifest); from
 * `runtimeSlice` (RUNTIME_MANIFEST_FILE) when given and cut from this very manifest. Throws an Error with a clear
 * message when the manifest is missing or invalid.
 */
export async function loadManifest(siteDir: string, opts: { runtimeSlice?: string } = {}): Promise<Manifest> {
  const { file, bytes } = await readManifestBytes(siteDir);
  const slice = opts.runtimeSlice ? await readSlice(opts.runtimeSlice, bytes) : undefined;
  return slice ?? parseManifest(file, bytes);
}

/** Writes the runtime slice of `<siteDir>/build-manifest.json` to `outFile` (mode 0644: the manifest is public). */
export async function writeRuntimeManifest(siteDir: string, outFile: string): Promise<void> {
  const { file, bytes } = await readManifestBytes(siteDir);
  const body: RuntimeManifestFile = { sourceSha256: sha256(bytes), schemaSha256: schemaSha256(), manifest: parseManifest(file, bytes) };
  await writeFile(outFile, JSON.stringify(body), { mode: 0o644 });
}
