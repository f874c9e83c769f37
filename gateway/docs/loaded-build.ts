// One loaded build output: everything a request reads from DIST_DIR. Loaded by the
// runtime (runtime.ts), pinned per request in its state (request-state.ts), so a request
// that began on a build finishes on it while a new release is swapped in.
import type { Manifest, ManifestPage } from '../engine/manifest.ts';
import type { SearchEngine } from '../engine/search.ts';
import type { SiteFiles } from '../static/files.ts';

/** One loaded build output: everything a request reads from DIST_DIR. */
export interface LoadedBuild {
  /** The build's real directory (DIST_DIR with links resolved). */
  dir: string;
  manifest?: Manifest;
  /** Page path → manifest entry. */
  pages: Map<string, ManifestPage>;
  engine?: SearchEngine;
  files: SiteFiles;
  /** `{base_url}`: the manifest's site.url, else SITE_URL, else the local address. */
  siteUrl: string;
  siteName: string;
  /** Headers of every HTML answer: the CSP with this build's inline hashes, and the rest (http/security-headers.ts). */
  htmlHeaders: Record<string, string>;
}
