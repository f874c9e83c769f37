/**
 * Where a search result lands inside its page: every h2–h3 heading no other heading of the site (of any level) repeats
 * is searched through `/api/search` as a reader or an agent would type it, and the result for the heading's page is
 * checked for that heading's anchor. Plain headings of two to four words (`Glob Import`), API and option headings as
 * written (`vi.spyOn`, by judged-set.ts's pattern for section known items), and the same names as words
 * (`vi spyOn`). The judged sets judge pages; this measures the section a result's `url` and excerpt come from
 * (gateway/engine/search/sections.ts).
 */
import { IDENTIFIER_HEADING, headingName } from './judged-set.ts';
import { getJson } from './rankers.ts';

export interface HeadingPage {
  path: string;
  headings?: readonly { depth: number; slug?: string; text: string }[];
}

/**
 * Of `headings` searched, how many found their page in the first 10 results, how many as the first result, and how
 * many of those found opened the heading's section.
 */
export interface Landing { headings: number; pageFound: number; pageFirst: number; onSection: number }

export interface SectionLanding { plain: Landing; api: Landing; apiAsWords: Landing }

const PLAIN = /^[\w .'-]+$/;

/** Each h2–h3 heading `keep` accepts whose text (lower-cased) no other heading of the site has, with its page and anchor. */
function uniqueHeadings(pages: readonly HeadingPage[], keep: (name: string) => boolean): { name: string; path: string; slug: string }[] {
  const count = new Map<string, number>();
  for (const page of pages) for (const h of page.headings ?? []) {
    const key = headingName(h.text).toLowerCase();
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  const out: { name: string; path: string; slug: string }[] = [];
  for (const page of pages) {
    for (const h of page.headings ?? []) {
      const name = headingName(h.text);
      if (!h.slug || h.depth < 2 || h.depth > 3 || count.get(name.toLowerCase()) !== 1 || !keep(name)) continue;
      out.push({ name, path: page.path, slug: h.slug });
    }
  }
  return out;
}

async function land(gatewayUrl: string, items: readonly { query: string; path: string; slug: string }[]): Promise<Landing> {
  const out: Landing = { headings: items.length, pageFound: 0, pageFirst: 0, onSection: 0 };
  for (const item of items) {
    const hits = (await getJson(`${gatewayUrl}/api/search?limit=10&query=${encodeURIComponent(item.query)}`)) as { url: string }[];
    const urls = hits.map((h) => new URL(h.url, 'http://site.invalid'));
    const hit = urls.find((u) => u.pathname === item.path);
    if (!hit) continue;
    out.pageFound++;
    if (urls[0] === hit) out.pageFirst++;
    if (hit.hash === `#${item.slug}`) out.onSection++;
  }
  return out;
}

export async function sectionLanding(gatewayUrl: string, pages: readonly HeadingPage[]): Promise<SectionLanding> {
  const wordCount = (name: string) => name.split(/\s+/).length;
  const plain = uniqueHeadings(pages, (name) => PLAIN.test(name) && !IDENTIFIER_HEADING.test(name) && wordCount(name) >= 2 && wordCount(name) <= 4);
  const api = uniqueHeadings(pages, (name) => IDENTIFIER_HEADING.test(name));
  return {
    plain: await land(gatewayUrl, plain.map((h) => ({ ...h, query: h.name }))),
    api: await land(gatewayUrl, api.map((h) => ({ ...h, query: h.name }))),
    apiAsWords: await land(gatewayUrl, api.map((h) => ({ ...h, query: h.name.replace(/\./g, ' ') }))),
  };
}
