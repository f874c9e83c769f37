/**
 * What one segment of the search index holds: the data model every stage shares (the builder fills it, the index
 * file stores and maps it, the query, the collector and the results read it). Types and the few constants that fix
 * the meaning of stored numbers; no code that does work.
 *
 * Why a segment is a bag of flat typed arrays (CSR postings, offsets into byte strings) rather than objects: the
 * arrays live in SharedArrayBuffers that every query worker maps without copying, and a query touches a handful of
 * postings lists, not pages. The three large arrays a query reads only a little of (page texts, section postings)
 * are cold arrays (cold-array.ts): in memory at build time, left in the segment file at query time.
 */
import type { ColdArray } from './cold-array.ts';

export type ContentType = 'docs' | 'skill' | 'agent' | 'hook' | 'composition';
export const CONTENT_TYPES: readonly ContentType[] = ['docs', 'skill', 'agent', 'hook', 'composition'];

export interface SearchHit {
  id: string;
  url: string;
  type: 'page' | 'heading' | 'text';
  title: string;
  content: string;
  score: number;
  pageType: ContentType;
  section: string;
  path: string;
}

/** A section heading of a page: its word position, id, plain text and word count. */
export interface AnchorInfo { loc: number; id: string; text: string; words: number }
export interface PageInfo { url: string; title: string; section: string; anchors: AnchorInfo[] }

/** Array-like access (a plain array at build time; decoded on demand from the shared file buffer at query time). */
export interface List<T> {
  readonly length: number;
  at(i: number): T | undefined;
}
/** Pages; url/title without decoding the page's anchors when the list offers it. */
export interface PageList extends List<PageInfo> {
  url?(i: number): string;
  title?(i: number): string;
}

/** Local page indexes of a postings list: 16 bits when the segment has at most 65,536 pages. */
export type PageArray = Int32Array | Uint16Array;

/**
 * One segment. Postings are CSR: the entries of term t are [start[t], start[t + 1]). A page's sections are its
 * intro (section 0) and its anchors (anchor a is section a + 1); section j of page i has the segment-wide number
 * pageFirstSection[i] + j.
 */
export interface SegmentData {
  pageCount: number;
  pages: PageList;
  /** The term dictionary: sorted in code-unit order; a term's id is its index. */
  terms: List<string>;
  /** Local pages ordered by url (ties by page index): merged across segments into the url rank at install. */
  pagesByUrl: Int32Array;
  /** Body postings: term → pages whose text holds it, with the heading-weighted term frequency. */
  bodyPostingsStart: Int32Array;
  bodyPostingPages: PageArray;
  /** 2 × the heading-weighted frequency (weights are multiples of 0.5, so the doubled value is exact), clamped to 16 bits. */
  bodyPostingFrequencies: Uint16Array;
  /** Title postings: term → pages whose title holds it. */
  titlePostingsStart: Int32Array;
  titlePostingPages: PageArray;
  /**
   * Description postings: term → pages whose frontmatter description (the build manifest's) holds it. A description's
   * words are the page's lead paragraph too, so nearly all are body terms; one found only there (the build manifest's
   * text differing from the rendered page) is a term of the dictionary with no body postings.
   */
  descriptionPostingsStart: Int32Array;
  descriptionPostingPages: PageArray;
  /** Heading postings: term → pages with a section heading (h2–h6) that holds it (the heading tier, query.ts). */
  headingPostingsStart: Int32Array;
  headingPostingPages: PageArray;
  /** Words per page (BM25's document length). */
  pageLengths: Float32Array;
  /** Index into CONTENT_TYPES per page. */
  pageTypes: Uint8Array;
  /** Per page: its first word's segment-wide position (length pageCount + 1). */
  pageFirstWord: Int32Array;
  /**
   * Byte offset of every word whose segment-wide position is a multiple of WORD_CHECKPOINT_INTERVAL: a word's byte
   * is found by scanning forward from its checkpoint. A per-word offset table would cost 2 × 30 MB at 10,000 pages,
   * and only the excerpts of the first FULL_EXCERPT_RANKS hits of a query need word positions.
   */
  wordCheckpoints: Uint32Array;
  /** Per page: its first byte in `texts` (length pageCount + 1). */
  pageFirstByte: Uint32Array;
  /** UTF-8 page texts, words joined by ' ' (by U+200B on zero-width-separated pages). */
  texts: ColdArray<Uint8Array>;
  /** Per page: 1 when its words are U+200B-delimited (scripts written without spaces). */
  zeroWidthSeparated: Uint8Array;
  /** Per page: its first section (length pageCount + 1). */
  pageFirstSection: Int32Array;
  /** Section postings: term → sections holding it, ascending, with packed counts (SECTION_BODY_BITS). */
  sectionPostingsStart: Int32Array;
  sectionPostingSections: ColdArray<Int32Array>;
  sectionPostingCounts: ColdArray<Uint16Array>;
  /**
   * Static hits: per page 2 × sections slots starting at 2 × pageFirstSection[i] — slot 0 the intro, slot 1 the
   * page hit (title match), slot 2j + h anchor section j with h = 1 for a heading hit. Each is the hit's JSON text
   * up to and including `"score":`, so a hit past the query-excerpt ranks is a copy of bytes plus its score.
   */
  staticHitOffsets: Uint32Array;
  staticHitBytes: Uint8Array;
  /** [the STATIC_WORDS the static hits were rendered with]: other values make the results render them again. */
  staticHitWords: Int32Array;
  /** The typo index of the term dictionary (typo-index.ts segmentTypoIndex): deletion hashes ascending, term id of each. */
  typoHashes: Uint32Array;
  typoTermIds: Uint32Array;
}

/** Interval of wordCheckpoints. */
export const WORD_CHECKPOINT_INTERVAL = 16;

/** A section posting's count: matches in the body in the low 12 bits, in the heading in the high 4, each clamped. */
export const SECTION_BODY_BITS = 12;
export const SECTION_BODY_MAX = (1 << SECTION_BODY_BITS) - 1;
export const SECTION_HEADING_MAX = (1 << (16 - SECTION_BODY_BITS)) - 1;

/** Words of a static excerpt (ranks beyond FULL_EXCERPT_RANKS): a short opening of the section. */
export const STATIC_WORDS = 12;

/**
 * Ranks (0-based, in a whole ranking) whose excerpt is computed for the query (the window around the densest
 * matches). Beyond them — the long tail of an unlimited query for a common term, thousands of hits — a hit keeps its
 * query-dependent section (url, type) but its excerpt is the static opening of that section, precomputed, so a
 * cache miss costs a ranking and a concatenation rather than hundreds of excerpts.
 */
export const FULL_EXCERPT_RANKS = 20;

/** Manifest data for a page whose fragment lacks it. */
export interface ManifestFallback { title?: string; type?: string; section?: string; description?: string }

export function pageUrl(s: SegmentData, i: number): string {
  return s.pages.url ? s.pages.url(i) : s.pages.at(i)!.url;
}

export function pageTitle(s: SegmentData, i: number): string {
  return s.pages.title ? s.pages.title(i) : s.pages.at(i)!.title;
}

/** Words of page i of a segment. */
export function pageWordCount(s: SegmentData, i: number): number {
  return s.pageFirstWord[i + 1]! - s.pageFirstWord[i]!;
}
