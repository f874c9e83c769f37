/**
 * build-manifest.json: the interface between the static build and the gateway.
 * Shape: see team BRIEF ("build-manifest.json"). Validated with zod; a clear error names the file and the problem.
 */
import { readFile } from 'node:fs/promises';
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
 * Reads and validates `<siteDir>/build-manifest.json`, keeping only the fields the runtime uses (see Manifest).
 * Throws an Error with a clear message when missing or invalid.
 */
export async function loadManifest(siteDir: string): Promise<Manifest> {
  const file = join(siteDir, 'build-manifest.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`Build manifest not readable at ${file}${code ? ` (${code})` : ''}: run \`npm run build\` first or point DIST_DIR at a build output`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
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
