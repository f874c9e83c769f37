// sitemap.xml (sitemaps.org 0.9) and robots.txt. A sitemap file holds at most
// 50,000 URLs, so past that the build writes sitemap-1.xml, sitemap-2.xml, … and
// sitemap.xml becomes the sitemap index that lists them: the URL crawlers and
// robots.txt know never changes with the site's size.

export interface SitemapEntry {
  /** Site-relative path, e.g. /docs/api/search. */
  path: string;
  lastmod?: Date;
}

export interface SitemapFile {
  /** Site-relative path of the file, e.g. /sitemap.xml or /sitemap-2.xml. */
  path: string;
  body: string;
}

export const sitemapUrlLimit = 50_000;

const xmlHead = '<?xml version="1.0" encoding="UTF-8"?>\n';
const namespace = 'http://www.sitemaps.org/schemas/sitemap/0.9';

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** W3C datetime, to the second, in UTC. */
function w3cDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function urlset(siteUrl: string, entries: SitemapEntry[]): string {
  const urls = entries.map((e) => {
    const lastmod = e.lastmod ? `<lastmod>${w3cDate(e.lastmod)}</lastmod>` : '';
    return `<url><loc>${escapeXml(siteUrl + encodeURI(e.path))}</loc>${lastmod}</url>`;
  });
  return `${xmlHead}<urlset xmlns="${namespace}">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Every sitemap file of the site: one urlset, or an index and its parts past `limit` URLs. */
export function sitemapFiles(siteUrl: string, entries: SitemapEntry[], limit = sitemapUrlLimit): SitemapFile[] {
  if (entries.length <= limit) return [{ path: '/sitemap.xml', body: urlset(siteUrl, entries) }];
  const parts: SitemapFile[] = [];
  for (let start = 0; start < entries.length; start += limit) {
    parts.push({ path: `/sitemap-${parts.length + 1}.xml`, body: urlset(siteUrl, entries.slice(start, start + limit)) });
  }
  const newest = (slice: SitemapEntry[]) => {
    const time = slice.reduce((max, e) => Math.max(max, e.lastmod?.getTime() ?? 0), 0);
    return time > 0 ? `<lastmod>${w3cDate(new Date(time))}</lastmod>` : '';
  };
  const items = parts.map((p, i) => `<sitemap><loc>${escapeXml(siteUrl + p.path)}</loc>${newest(entries.slice(i * limit, (i + 1) * limit))}</sitemap>`);
  const index = `${xmlHead}<sitemapindex xmlns="${namespace}">\n${items.join('\n')}\n</sitemapindex>\n`;
  return [{ path: '/sitemap.xml', body: index }, ...parts];
}

/** robots.txt: everything may be fetched; it names the sitemap, and llms.txt for agents. */
export function robotsTxt(siteUrl: string): string {
  return `# Every page is public, for people, crawlers and agents alike.
User-agent: *
Allow: /

# An index for AI agents, every page with a Markdown version: ${siteUrl}/llms.txt
Sitemap: ${siteUrl}/sitemap.xml
`;
}
