/**
 * The search index a query worker holds: the installed segments and the query-side stages over them, wired
 * together — the term dictionary (expansions), the query (match and score), match sets, section choice, hits and
 * the result bytes. One per worker thread: every stage keeps per-worker scratch and memos, none of it shared.
 *
 * Why an index of its own and not Pagefind's WASM search server-side: on a 10,000-page corpus a query for a common
 * term returns every page with every word location (17 MB of JSON) and takes 100–800 ms and ≈250 MB per instance;
 * this index answers the same query in a few ms, its arrays in SharedArrayBuffers shared by all workers or, for
 * those a query reads only a little of, left in the index files (segment.ts).
 */
import { Documents } from './documents.ts';
import { HitRenderer } from './hits.ts';
import { MatchSets } from './match-set.ts';
import { MatchedWords } from './page-text.ts';
import { type MatchMode, QueryScorer, type Ranking } from './query.ts';
import { ResultsWriter } from './results-json.ts';
import { SectionChooser } from './sections.ts';
import type { ContentType, PageInfo, SearchHit, SegmentData } from './segment.ts';
import { type Correction, TermDictionary } from './term-dictionary.ts';

export interface IndexOptions {
  /** Max prefix expansions per query term (besides the exact term). */
  maxExpansions?: number;
  /** Words per excerpt. */
  excerptWords?: number;
  /** Section postings entries past which query-excerpt hits choose their section by their page's words (sections.ts). */
  wordsOverPostings?: number;
}

export class SearchIndex {
  readonly segments: SegmentData[];
  readonly nDocs: number;
  private readonly documents: Documents;
  private readonly scorer: QueryScorer;
  private readonly matchSetsOfQueries: MatchSets;
  private readonly hits: HitRenderer;
  private readonly results: ResultsWriter;
  private readonly dictionary: TermDictionary;

  constructor(segments: SegmentData[], opts: IndexOptions = {}) {
    this.segments = segments;
    this.documents = new Documents(segments);
    this.nDocs = this.documents.count;
    const dictionary = new TermDictionary(segments, opts.maxExpansions ?? 24);
    this.dictionary = dictionary;
    this.scorer = new QueryScorer(this.documents, dictionary);
    this.matchSetsOfQueries = new MatchSets(segments, dictionary);
    const sections = new SectionChooser(this.documents, this.matchSetsOfQueries, opts.wordsOverPostings);
    this.hits = new HitRenderer(this.documents, sections, new MatchedWords(this.matchSetsOfQueries), opts.excerptWords ?? 30);
    this.results = new ResultsWriter(this.documents, sections, this.hits);
  }

  /**
   * See QueryScorer.rank: the ranking of canonical query terms (text.ts queryTerms), optionally its top k only;
   * `joinWords`: the query's stopwords that may join its terms into a compound name (text.ts queryJoinWords).
   */
  rank(terms: string[], type?: ContentType, match: MatchMode = 'all', topK?: number, joinWords: readonly string[] = []): Ranking {
    return this.scorer.rank(terms, type, match, topK, joinWords);
  }

  /** The index words that the query terms the index does not hold stand for (misspellings), by query term. */
  corrections(terms: string[]): [string, Correction[]][] {
    const out: [string, Correction[]][] = [];
    for (const t of terms) {
      const c = this.dictionary.corrections(t);
      if (c.length) out.push([t, c]);
    }
    return out;
  }

  /** The query's match sets, for hits and result bytes of that query (valid until the next call). */
  matchSets(terms: string[], joinWords: readonly string[] = []): Uint8Array[] {
    return this.matchSetsOfQueries.of(terms, joinWords);
  }

  /** The SearchHit of one ranked page (see HitRenderer.hit). */
  hit(doc: number, score: number, titleMatch: boolean, sets: Uint8Array[], queryExcerpt = true): SearchHit {
    return this.hits.hit(doc, score, titleMatch, sets, queryExcerpt);
  }

  /** The search API's result array for ranked pages `docs` starting at rank `fromRank`, as UTF-8 bytes (transferable). */
  resultsBytes(docs: Int32Array, scores: Float64Array, titleMatch: Uint8Array, fromRank: number, sets: Uint8Array[]): Uint8Array<ArrayBuffer> {
    return this.results.bytes(docs, scores, titleMatch, fromRank, sets);
  }

  /** resultsBytes as a string. */
  resultsJson(docs: Int32Array, scores: Float64Array, titleMatch: Uint8Array, fromRank: number, sets: Uint8Array[]): string {
    const b = this.resultsBytes(docs, scores, titleMatch, fromRank, sets);
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  }

  /** The static hit JSON up to `"score":` of a page's section (section-builder.ts stores these). */
  staticJson(doc: number, titleMatch: boolean, section: number, headingHit: boolean): string {
    return this.hits.staticJson(doc, titleMatch, section, headingHit);
  }

  /** The page title of a doc as JSON text. */
  titleJson(doc: number): string {
    return this.documents.titleJson(doc);
  }

  /** Page metadata by global doc id. */
  page(doc: number): PageInfo & { pageType: ContentType } {
    return this.documents.page(doc);
  }
}
