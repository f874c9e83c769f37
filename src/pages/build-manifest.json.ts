// The build manifest the gateway reads: every page, its twin and a content hash, and
// the settings the build baked in (src/lib/build-settings.ts).
import { relative, resolve } from 'node:path';
import type { APIRoute } from 'astro';
import { docsModel } from '../lib/docs.ts';
import { sha256 } from '../lib/markdown-twin.ts';
import { loadSiteConfig } from '../lib/site-config.ts';
import { contentHash, type BuildSettings } from '../lib/build-settings.ts';

export const GET: APIRoute = async () => {
  const site = loadSiteConfig();
  const model = await docsModel();
  const siteInfo = { url: site.url, name: site.name, description: site.description, version: site.version };
  const contentDir = resolve(site.contentDir);
  const pages = model.pages.map((p) => ({
    path: p.path,
    // the file the page was built from, relative to the content folder: what a docs team (and the relevance
    // evaluation's judged set) names a page by, whatever address the URL rule gives it
    source: relative(contentDir, resolve(p.entry.filePath!)).split('\\').join('/'),
    title: p.title,
    description: p.description,
    type: p.type,
    section: p.section,
    md: `${p.path.slice(1)}.md`,
    hash: p.hash,
    order: p.order === Number.MAX_SAFE_INTEGER ? undefined : p.order,
    headings: p.headings,
  }));
  // Same content and config → same id, so cursors and caches survive a no-op rebuild.
  const buildId = sha256(JSON.stringify([siteInfo, pages.map((p) => [p.path, p.hash, p.title, p.type])])).slice(0, 16);
  const settings: BuildSettings = { siteUrl: site.url, assistantUrl: site.assistantUrl, contentDir, contentHash: contentHash(contentDir) };
  return Response.json({ manifestVersion: 1, buildId, site: siteInfo, settings, pages });
};
