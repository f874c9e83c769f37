/**
 * Where a search result lands inside its page: every heading no other heading of the site repeats is searched
 * through `/api/search` as a reader or an agent would type it, and the result for the heading's page is checked for
 * that heading's anchor. Plain headings of two to four words (`Glob Import`), API and option headings as written
 * (`vi.spyOn`), and the same names as words (`vi spyOn`). The judged sets judge pages; this measures the section a
 * result's `url` and excerpt come from (gateway/engine/search/sections.ts).
 */
import { getJson } from './rankers.ts';

export interface HeadingPage {
  path: string;
  headings?: readonly { depth: number; slug?: string; text: string }[];
}

/** Of `headings` searched, how many found their page in the first 10 results and how many of those opened the heading's section. */
export interface Landing { headings: number; pageFound: number; onSection: number }

export interface SectionLanding { plain: Landing; api: Landing; apiAsWords: Landing }

/** An API or option name as a heading writes it (judged-set.ts reads section known items the same way). */
const IDENTIFIER = /^[\w$]+(?:\.[\w$[\]-]+)+$/;
const PLAIN = /^[\w .'-]+$/;

/** Each heading text (lower-cased) that exactly one heading of the site has, with its page and anchor. */
function uniqueHeadings(pages: readonly HeadingPage[], keep: (name: string, depth: number) => boolean): { name: string; path: string; slug: string }[] {
  const seen = new Map<string, { name: string; path: string; slug: string }[]>();
  for (const page of pages) {
    for (const h of page.headings ?? []) {
      const name = h.text.replace(/\s*\([^)]*\)\s*$/, '').trim();
      if (!h.slug || !keep(name, h.depth)) continue;
      const key = name.toLowerCase();
      seen.set(key, [...(seen.get(key) ?? []), { name, path: page.path, slug: h.slug }]);
    }
  }
  return [...seen.values()].filter((found) => found.length === 1).map((found) => found[0]!);
}

async function land(gatewayUrl: string, items: readonly { query: string; path: string; slug: string }[]): Promise<Landing> {
  const out: Landing = { headings: items.length, pageFound: 0, onSection: 0 };
  for (const item of items) {
    const hits = (await getJson(`${gatewayUrl}/api/search?limit=10&query=${encodeURIComponent(item.query)}`)) as { url: string }[];
    const hit = hits.map((h) => new URL(h.url, 'http://site.invalid')).find((u) => u.pathname === item.path);
    if (!hit) continue;
    out.pageFound++;
    if (hit.hash === `#${item.slug}`) out.onSection++;
  }
  return out;
}

export async function sectionLanding(gatewayUrl: string, pages: readonly HeadingPage[]): Promise<SectionLanding> {
  const plain = uniqueHeadings(pages, (name, depth) => depth >= 2 && depth <= 3 && PLAIN.test(name) && !IDENTIFIER.test(name) && name.split(/\s+/).length >= 2 && name.split(/\s+/).length <= 4);
  const api = uniqueHeadings(pages, (name, depth) => depth >= 2 && depth <= 4 && IDENTIFIER.test(name));
  return {
    plain: await land(gatewayUrl, plain.map((h) => ({ ...h, query: h.name }))),
    api: await land(gatewayUrl, api.map((h) => ({ ...h, query: h.name }))),
    apiAsWords: await land(gatewayUrl, api.map((h) => ({ ...h, query: h.name.replace(/\./g, ' ') }))),
  };
}
