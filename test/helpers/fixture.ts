// The fixture site: the bundled content plus test-only pages (an MDX page, edge
// cases), built once per test run by test/global-setup.ts.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { repoRoot, runAstroBuild } from '../../scripts/lib/astro-build.ts';

export const fixtureSiteUrl = 'https://docs.example.test';
export const fixtureAssistantUrl = 'https://portfolio.example.test';
/** The fixture pages' "Edit this page" base (SITE_EDIT_URL). */
export const fixtureEditUrl = 'https://git.example.test/docs/edit/main/content';

/**
 * Copies a build to `dest`, all but its compile cache: the gateways other test files start on the shared fixture
 * build write to that cache while they run, and a copy made meanwhile can list a file that is gone when it is read.
 * A gateway without the cache only starts slower (gateway/compile-cache.ts).
 */
export function copyBuild(distDir: string, dest: string): void {
  const cache = join(distDir, 'compile-cache');
  cpSync(distDir, dest, { recursive: true, filter: (src) => src !== cache && !src.startsWith(cache + sep) });
}

/** Makes a content dir from content/ plus test/fixtures/content/. */
export function makeFixtureContent(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-docs-content-'));
  cpSync(join(repoRoot, 'content'), dir, { recursive: true });
  cpSync(join(repoRoot, 'test', 'fixtures', 'content'), dir, { recursive: true });
  return dir;
}

export async function buildSite(contentDir: string, extraEnv: Record<string, string> = {}): Promise<{ code: number; output: string; distDir: string }> {
  const distDir = mkdtempSync(join(tmpdir(), 'agent-docs-dist-'));
  let output = '';
  const code = await runAstroBuild({
    env: {
      CONTENT_DIR: contentDir,
      DIST_DIR: distDir,
      // A content cache of its own (outside dist/site, removed with the dist dir).
      ASTRO_CACHE_DIR: join(distDir, '.astro-cache'),
      SITE_URL: fixtureSiteUrl,
      ASSISTANT_SITE_URL: fixtureAssistantUrl,
      SITE_EDIT_URL: fixtureEditUrl,
      ...extraEnv,
    },
    onOutput: (chunk) => (output += chunk),
  });
  return { code, output, distDir };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A content folder in a temporary directory, from path → text (remove it with removeDir). */
export function writeTree(files: Record<string, string>, prefix = 'agent-docs-tree-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
