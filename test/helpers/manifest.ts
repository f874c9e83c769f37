// The fixture build of this test run (built once by test/global-setup.ts) and its
// build-manifest.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

export interface ManifestPage {
  path: string;
  title: string;
  /** The source file, relative to the content folder. */
  source?: string;
  description: string;
  type: string;
  section: string;
  md: string;
  hash: string;
  headings: { depth: number; slug: string; text: string }[];
}
export interface Manifest {
  buildId: string;
  site: { url: string; name: string; description: string };
  pages: ManifestPage[];
}

export function readManifest(distDir: string): Manifest {
  return JSON.parse(readFileSync(join(distDir, 'site', 'build-manifest.json'), 'utf8')) as Manifest;
}

export function readSiteFile(distDir: string, relative: string): string {
  return readFileSync(join(distDir, 'site', relative), 'utf8');
}

/** The fixture build: its dist dir, its manifest and the docs site URL. */
export function fixtureBuild(): { distDir: string; manifest: Manifest; site: string } {
  const distDir = inject('distDir');
  const manifest = readManifest(distDir);
  return { distDir, manifest, site: manifest.site.url };
}
