// Whether the build in DIST_DIR serves the environment as it is: the one check behind
// `npm start` and `npm run audit:agents`, which both build first when it does not.
// A build records the settings it baked in (src/lib/build-settings.ts: site URL,
// assistant URL, content folder, content hash); any of them differing from what the
// environment asks for now, or no readable record, means building again.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { settingsDrift, settingsFromEnv, type BuildSettings } from '../../src/lib/build-settings.ts';
import { repoRoot, runAstroBuild } from './astro-build.ts';

/** The build `npm start` serves: DIST_DIR, else dist/. */
export const distDir = resolve(repoRoot, process.env.DIST_DIR || 'dist');
export const manifestFile = resolve(distDir, 'site', 'build-manifest.json');

/** Why the build must be made again, or an empty list when it serves as it is. */
export function rebuildReasons(): string[] {
  if (!existsSync(manifestFile)) return ['no build yet'];
  let built: BuildSettings | undefined;
  try {
    built = (JSON.parse(readFileSync(manifestFile, 'utf8')) as { settings?: BuildSettings }).settings;
  } catch {
    return [`${manifestFile} is unreadable`];
  }
  if (!built) return ['the build does not record its settings'];
  return settingsDrift(built, settingsFromEnv(process.env, repoRoot));
}

/** The site URL the build in DIST_DIR was made for (its links and llms.txt name it). */
export function builtSiteUrl(): string {
  return (JSON.parse(readFileSync(manifestFile, 'utf8')) as { settings: BuildSettings }).settings.siteUrl;
}

/** Builds (output inherited) when rebuildReasons() names any, saying why (after `label: `); exits with the build's code if it fails. */
export async function buildIfStale(label?: string): Promise<void> {
  const reasons = rebuildReasons();
  if (!reasons.length) return;
  console.log(`${label ? `${label}: building` : 'Building'} the site first (${reasons.join('; ')})…`);
  const code = await runAstroBuild({ stdio: 'inherit' });
  if (code !== 0) process.exit(code);
}
