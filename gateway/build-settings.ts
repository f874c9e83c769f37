// The gateway against the build it serves: a build bakes its site URL, assistant URL
// and content folder into its output (src/lib/build-settings.ts records them in the
// manifest). A gateway whose environment names other values would serve canonical
// links, llms.txt and Problem types of one host while checking the assistant's Origin
// against another, so it refuses to start (and to reload such a build) and names the
// variable. An unset variable means "as built".
import { resolve } from 'node:path';
import type { Manifest } from './engine/manifest.ts';

type Env = Record<string, string | undefined>;

const trim = (url: string) => url.trim().replace(/\/+$/, '');

/** One line per variable whose value differs from what the build in `distDir` was made with. */
export function buildSettingsDrift(settings: Manifest['settings'], env: Env, distDir: string, cwd = process.cwd()): string[] {
  if (!settings) return [];
  const checks: [string, string | undefined, string][] = [
    ['SITE_URL', env.SITE_URL && trim(env.SITE_URL), settings.siteUrl],
    ['ASSISTANT_SITE_URL', env.ASSISTANT_SITE_URL && trim(env.ASSISTANT_SITE_URL), settings.assistantUrl],
    ['CONTENT_DIR', env.CONTENT_DIR && resolve(cwd, env.CONTENT_DIR), settings.contentDir],
  ];
  return checks
    .filter(([, wanted, built]) => wanted && wanted !== built)
    .map(([name, wanted, built]) => `${name} is ${wanted}, but the build in ${distDir} was made for ${built}: rebuild with this ${name} (\`npm run build\`; \`npm start\` does it by itself), or unset ${name} to serve the build as made`);
}
