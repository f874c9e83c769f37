/**
 * A ranked page as a search hit: its granularity (page when the title matched, else the heading or text of the
 * chosen section, sections.ts), its url (the page's, or the section anchor's), and a plain-text excerpt.
 *
 * Why two kinds of excerpt: the first FULL_EXCERPT_RANKS hits of a ranking get the window around the densest
 * matches of their section (they are read); later hits get the static opening of the same section, which the index
 * precomputes as JSON (static-hits in the segment builder renders them with this very code, so they are the same
 * bytes), so a long ranking renders by copying.
 * A query excerpt looks for the matches in at most EXCERPT_SCAN_WORDS words of the page: a generated page of megabytes
 * with no headings (one section) would otherwise be read and tokenized whole for every query that ranks it.
 */
import { hash } from 'node:crypto';
import type { Documents } from './documents.ts';
import { type MatchedWords, plainWords } from './page-text.ts';
import { type SectionChooser, UNDECIDED } from './sections.ts';
import { CONTENT_TYPES, type PageInfo, type SearchHit, STATIC_WORDS, type SegmentData, pageWordCount } from './segment.ts';
import { BoundedMemo } from '../lru.ts';

const NO_MATCHES: number[] = [];
/** The chosen section of a page hit (title match): the whole page. */
export const PAGE_SECTION = -2;
/**
 * Words of a page read for a query excerpt's matches (from the start of its section): three times the longest page of
 * the Vitest and Vite docs (≈9,000 words), ≈1–2 ms of a query worker; the matches past it do not place the excerpt.
 */
export const EXCERPT_SCAN_WORDS = 30_000;

export class HitRenderer {
  private readonly documents: Documents;
  private readonly sections: SectionChooser;
  private readonly matchedWords: MatchedWords;
  private readonly excerptWords: number;

  constructor(documents: Documents, sections: SectionChooser, matchedWords: MatchedWords, excerptWords: number) {
    this.documents = documents;
    this.sections = sections;
    this.matchedWords = matchedWords;
    this.excerptWords = excerptWords;
  }

  /**
   * The hit of one ranked page. The section (url, type) always depends on the query; the excerpt is the window
   * around the densest matches when `queryExcerpt`, else the static start of that section.
   */
  hit(doc: number, score: number, titleMatch: boolean, sets: Uint8Array[], queryExcerpt = true): SearchHit {
    const [s, i, k] = this.documents.locate(doc);
    const nW = pageWordCount(s, i);
    if (!titleMatch) {
      const anchors = s.pages.at(i)!.anchors;
      if (queryExcerpt && nW <= EXCERPT_SCAN_WORDS && this.sections.byWords(s, k, sets[k]!)) {
        // the page's matched words (its text is read for the excerpt anyway) give the section the section postings
        // would, without reading a broad query's postings for a page or two of excerpts
        const emphasized = this.matchedWords.emphasized(sets[k]!);
        const matched = this.matchedWords.in(s, i, sets[k]!, 0, nW, emphasized);
        let chosen = this.sections.chooseByWords(anchors, matched, emphasized);
        if (chosen === UNDECIDED) chosen = this.sections.choose(s, i, k, sets);
        return this.render(doc, score, false, chosen, this.sections.headingHit === 1, matched);
      }
      // the section from the section postings; match positions (for the excerpt) only within that section
      const best = this.sections.choose(s, i, k, sets);
      const headingHit = this.sections.headingHit === 1;
      if (!queryExcerpt) return this.render(doc, score, false, best, headingHit, NO_MATCHES);
      const from = best < 0 ? 0 : anchors[best]!.loc;
      const to = best < 0 ? (anchors.length > 0 ? Math.max(anchors[0]!.loc, 1) : nW) : best + 1 < anchors.length ? anchors[best + 1]!.loc : nW;
      return this.render(doc, score, false, best, headingHit, this.matchedWords.in(s, i, sets[k]!, from, Math.min(to, nW, from + EXCERPT_SCAN_WORDS)));
    }
    return this.render(doc, score, true, PAGE_SECTION, false, queryExcerpt ? this.matchedWords.in(s, i, sets[k]!, 0, Math.min(nW, EXCERPT_SCAN_WORDS)) : NO_MATCHES);
  }

  /** The static hit of a page's section as JSON text up to `"score":` (what the index stores per section slot). */
  staticJson(doc: number, titleMatch: boolean, section: number, headingHit: boolean): string {
    const h = this.render(doc, 0, titleMatch, titleMatch ? PAGE_SECTION : section, headingHit, NO_MATCHES);
    return hitJsonUntilScore(h, this.documents.titleJson(doc));
  }

  /**
   * The hit of a page for a chosen section (PAGE_SECTION, -1 intro, a anchor a), excerpt around `near`; `near`
   * NO_MATCHES: the static hit (STATIC_WORDS words from the start; a heading hit: the heading, then the rest of them).
   */
  private render(doc: number, score: number, titleMatch: boolean, section: number, headingHit: boolean, near: number[]): SearchHit {
    const W = near === NO_MATCHES ? STATIC_WORDS : this.excerptWords;
    const [s, i] = this.documents.locate(doc);
    const page = s.pages.at(i)!;
    const nW = pageWordCount(s, i);
    const anchors = page.anchors;
    const pageType = CONTENT_TYPES[s.pageTypes[i]!] ?? 'docs';
    const common = { title: page.title, score, pageType, section: page.section, path: page.url };

    if (titleMatch) {
      const skip = skipTitle(page, s, i, nW);
      const content = excerpt(s, i, skip, nW, near, skip, W);
      return { id: hitId(page.url), url: page.url, type: 'page', content, ...common };
    }
    if (section < 0) {
      const introEnd = anchors.length > 0 ? Math.max(anchors[0]!.loc, 1) : nW;
      const skip = skipTitle(page, s, i, nW);
      const content = excerpt(s, i, skip < introEnd ? skip : 0, introEnd, near, skip, W);
      return { id: hitId(page.url), url: page.url, type: 'text', content, ...common };
    }
    const a = anchors[section]!;
    const from = a.loc;
    const to = section + 1 < anchors.length ? anchors[section + 1]!.loc : nW;
    const url = `${page.url}#${a.id}`;
    if (headingHit) {
      const bodyFrom = Math.min(to, from + a.words);
      const wEx = near === NO_MATCHES ? W - a.words : W;
      const ex = bodyFrom < to && wEx >= 3 ? excerpt(s, i, bodyFrom, to, near, bodyFrom, wEx) : '';
      const content = a.text ? (ex ? `${a.text} — ${ex}` : a.text) : ex;
      return { id: hitId(url), url, type: 'heading', content, ...common };
    }
    const content = excerpt(s, i, Math.min(to, from + a.words), to, near, from, W);
    return { id: hitId(url), url, type: 'text', content, ...common };
  }
}

/** A hit as the search API's JSON text, up to and including `"score":` (JSON.stringify's key order and escaping). */
export function hitJsonUntilScore(h: SearchHit, titleJson: string): string {
  return `{"id":${JSON.stringify(h.id)},"url":${JSON.stringify(h.url)},"type":"${h.type}","title":${titleJson},"content":${JSON.stringify(h.content)},"score":`;
}

/** Plain-text window of ~W words within [from, to) around the densest cluster of matches. */
function excerpt(s: SegmentData, i: number, from: number, to: number, matched: number[], defaultStart: number, W: number): string {
  if (to <= from) return '';
  const inRange = matched.filter((p) => p >= from && p < to);
  let start: number;
  if (inRange.length === 0) start = Math.min(Math.max(from, defaultStart), Math.max(from, to - W));
  else {
    let bestCount = 0;
    let bestAt = inRange[0]!;
    let j = 0;
    for (let k = 0; k < inRange.length; k++) {
      while (inRange[j]! < inRange[k]! - W + 1) j++;
      const c = k - j + 1;
      if (c > bestCount) {
        bestCount = c;
        bestAt = inRange[j]!;
      }
    }
    start = Math.max(from, bestAt - 5);
  }
  let end = Math.min(to, start + W);
  if (end - start < W) start = Math.max(from, end - W);
  end = Math.min(to, start + W);
  const text = plainWords(s, i, start, end);
  if (!text) return '';
  return `${start > 0 && start > from ? '… ' : ''}${text}${end < to ? ' …' : ''}`;
}

/** Words at the start of the page that repeat the title (the h1): excerpts of page hits skip them. */
function skipTitle(page: PageInfo, s: SegmentData, i: number, nW: number): number {
  const n = page.title.split(/\s+/).filter(Boolean).length;
  if (n === 0 || n >= nW) return 0;
  const head = plainWords(s, i, 0, n);
  return head.replace(/[.:]$/, '').toLowerCase() === page.title.toLowerCase() ? n : 0;
}

/**
 * Ids of recent hits. Bounded well inside the query worker's heap cap (worker-pool.ts): an entry holds the URL and
 * its digest, ≈250 bytes, and the memo is there for the hits of broad queries, rendered again and again.
 */
const idMemo = new BoundedMemo<string, string>(50_000);

/** Stable result id: the first 16 base64url characters of sha256(hit url). */
export function hitId(url: string): string {
  return idMemo.get(url) ?? idMemo.remember(url, hash('sha256', url, 'base64url').slice(0, 16));
}
