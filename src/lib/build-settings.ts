// The settings a build bakes into its output (canonical links, llms.txt, discovery
// files, the assistant's origin) and the content it was made from. Recorded in
// build-manifest.json (`settings`) so that nothing can drift silently: `npm start`
// rebuilds when the environment asks for other settings or the content changed
// (scripts/start.ts), and the gateway refuses to start on a build made for other URLs
// (gateway/build-settings.ts). Shared by the build and `npm start`, so both compute
// the same values from the same environment.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { loadSiteConfig } from './site-config.ts';

export interface BuildSettings {
  siteUrl: string;
  assistantUrl: string;
  /** Absolute path of the content folder. */
  contentDir: string;
  /** SHA-256 of every file under the content folder (relative path and bytes). */
  contentHash: string;
}

function files(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** The content hash of a folder: the same files with the same bytes give the same hash, whatever their times. */
export function contentHash(dir: string): string {
  const hash = createHash('sha256');
  for (const file of files(dir).sort()) {
    const bytes = readFileSync(file);
    hash.update(`${relative(dir, file)}\u0000${bytes.length}\u0000`).update(bytes);
  }
  return hash.digest('hex');
}

/** The settings a build made now from `env` would record (`cwd`: where the build runs). */
export function settingsFromEnv(env: Record<string, string | undefined>, cwd: string): BuildSettings {
  const site = loadSiteConfig(env);
  const contentDir = resolve(cwd, site.contentDir);
  return { siteUrl: site.url, assistantUrl: site.assistantUrl, contentDir, contentHash: contentHash(contentDir) };
}

/** The variable behind each setting, for messages. */
export const settingVariables: Record<keyof BuildSettings, string> = {
  siteUrl: 'SITE_URL',
  assistantUrl: 'ASSISTANT_SITE_URL',
  contentDir: 'CONTENT_DIR',
  contentHash: 'the content',
};

/** One line per setting that differs between a build and what the environment asks for. */
export function settingsDrift(built: BuildSettings, wanted: BuildSettings): string[] {
  const lines: string[] = [];
  for (const key of ['siteUrl', 'assistantUrl', 'contentDir'] as const) {
    if (built[key] !== wanted[key]) lines.push(`${settingVariables[key]}: the build has ${built[key]}, the environment asks for ${wanted[key]}`);
  }
  if (built.contentHash !== wanted.contentHash) lines.push(`the content in ${wanted.contentDir} changed since the build`);
  return lines;
}
