// The site's sitemap entries: the home page, /docs, every section index and every
// page, each with the time its content last changed (an index: its newest page).
import type { DocsModel } from './docs.ts';
import { entryUpdated } from './last-updated.ts';
import { sitemapFiles, type SitemapFile, type SitemapEntry } from './sitemap.ts';
import type { SiteConfig } from './site-config.ts';

let files: SitemapFile[] | undefined;

export function siteSitemapFiles(site: SiteConfig, model: DocsModel): SitemapFile[] {
  if (files) return files;
  const newest = (dates: Date[]) => dates.reduce<Date | undefined>((max, d) => (!max || d > max ? d : max), undefined);
  const sections: SitemapEntry[] = [];
  const pages: SitemapEntry[] = [];
  for (const section of model.sections) {
    const dated = section.pages.map((p) => ({ path: p.path, lastmod: entryUpdated(site.contentDir, p.entry) }));
    sections.push({ path: `/docs/${section.slug}`, lastmod: newest(dated.map((d) => d.lastmod)) });
    pages.push(...dated);
  }
  const all = newest(pages.map((p) => p.lastmod!));
  files = sitemapFiles(site.url, [{ path: '/', lastmod: all }, { path: '/docs', lastmod: all }, ...sections, ...pages]);
  return files;
}
