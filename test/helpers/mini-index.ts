// A search index of a few synthetic pages, built in memory the way the gateway builds a
// segment from Pagefind's fragments, for the engine tests that check one ranking rule at a
// time: a fragment maker, the index, and its ranked paths with the total.
import type { PagefindFragment } from '../../gateway/engine/pagefind-bundle.ts';
import { SearchIndex } from '../../gateway/engine/search/search-index.ts';
import { buildSegment } from '../../gateway/engine/search/segment-builder.ts';
import type { SegmentData } from '../../gateway/engine/search/segment.ts';
import { queryTerms } from '../../gateway/engine/text.ts';

/** One page as Pagefind's fragment of it: a docs page with a title and plain content. */
export function fragment(url: string, title: string, content: string): PagefindFragment {
  return { url, content, word_count: content.split(' ').length, meta: { title }, filters: { type: ['docs'] }, anchors: [] };
}

export type MiniIndex = {
  segment: SegmentData;
  index: SearchIndex;
  /** Every matching page's path, best first, and the exact total. */
  ranked(query: string, match?: 'any' | 'all'): { total: number; urls: string[] };
};

/** `descriptions`: url → the page's frontmatter description, as the build manifest gives it. */
export function miniIndex(pages: PagefindFragment[], descriptions: Record<string, string> = {}): MiniIndex {
  const segment = buildSegment(pages, pages.length, Object.fromEntries(Object.entries(descriptions).map(([url, description]) => [url, { description }])));
  const index = new SearchIndex([segment]);
  const ranked = (query: string, match: 'any' | 'all' = 'any') => {
    const terms = queryTerms(query);
    const result = index.rank(terms, undefined, match);
    const sets = index.matchSets(terms);
    return { total: result.total, urls: Array.from(result.docs, (doc) => index.hit(doc, 1, false, sets).path) };
  };
  return { segment, index, ranked };
}
