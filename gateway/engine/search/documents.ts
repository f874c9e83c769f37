/**
 * The installed index's documents: global page ids over the segments (segment k's pages follow segment k - 1's),
 * and the per-page facts every stage reads by global id — the segment a page is in, its type, its length, its rank
 * in url order (the ranking's final tie-break), its title's terms and its title as JSON text.
 *
 * Why copied into flat per-worker arrays at install: the query's scoring loop reads type and length of every
 * matching page, and one array indexed by global id beats a segment lookup per posting. Titles are decoded only when
 * a page is first ranked or rendered, so install stays cheap.
 */
import { wordTerms } from '../text.ts';
import { CONTENT_TYPES, type ContentType, type PageInfo, type SegmentData, pageTitle, pageUrl } from './segment.ts';

export class Documents {
  readonly segments: SegmentData[];
  readonly count: number;
  /** Global id of each segment's first page. */
  readonly segmentBase: Int32Array;
  readonly averageLength: number;
  readonly types: Uint8Array;
  readonly lengths: Float32Array;
  /** Page → rank in url order, and back; urlRankBits: the bits a url rank takes (packed sort keys, top-k.ts). */
  readonly urlRank: Int32Array;
  readonly byUrlRank: Int32Array;
  readonly urlRankBits: number;
  /** Distinct title terms + 1 per page, 0 until computed. */
  private readonly titleTermCounts: Uint16Array;
  private readonly titlesJson: (string | undefined)[];

  constructor(segments: SegmentData[]) {
    this.segments = segments;
    this.segmentBase = new Int32Array(segments.length);
    let n = 0;
    let totalLength = 0;
    segments.forEach((s, k) => {
      this.segmentBase[k] = n;
      n += s.pageCount;
      for (let i = 0; i < s.pageCount; i++) totalLength += s.pageLengths[i]!;
    });
    this.count = n;
    this.averageLength = n > 0 ? totalLength / n : 1;
    this.types = new Uint8Array(n);
    this.lengths = new Float32Array(n);
    segments.forEach((s, k) => {
      this.types.set(s.pageTypes.subarray(0, s.pageCount), this.segmentBase[k]!);
      this.lengths.set(s.pageLengths.subarray(0, s.pageCount), this.segmentBase[k]!);
    });
    this.titlesJson = new Array<string | undefined>(n);
    this.titleTermCounts = new Uint16Array(n);
    // url order: a merge of the segments' url orders (url, then page: an earlier segment first on equal urls)
    this.urlRank = new Int32Array(n);
    this.byUrlRank = new Int32Array(n);
    const heads = segments.map(() => 0);
    const current = segments.map((s) => (s.pageCount > 0 ? pageUrl(s, s.pagesByUrl[0]!) : ''));
    for (let r = 0; r < n; r++) {
      let best = -1;
      for (let k = 0; k < segments.length; k++) {
        if (heads[k]! >= segments[k]!.pageCount) continue;
        if (best < 0 || current[k]! < current[best]!) best = k;
      }
      const s = segments[best]!;
      const d = this.segmentBase[best]! + s.pagesByUrl[heads[best]!]!;
      this.urlRank[d] = r;
      this.byUrlRank[r] = d;
      if (++heads[best]! < s.pageCount) current[best] = pageUrl(s, s.pagesByUrl[heads[best]!]!);
    }
    this.urlRankBits = Math.max(1, Math.ceil(Math.log2(Math.max(2, n))));
  }

  /** [segment, local page, segment number] of a global id. */
  locate(doc: number): [SegmentData, number, number] {
    let k = this.segments.length - 1;
    while (k > 0 && this.segmentBase[k]! > doc) k--;
    return [this.segments[k]!, doc - this.segmentBase[k]!, k];
  }

  /** Distinct terms of a page's title. */
  titleTerms(doc: number): number {
    let v = this.titleTermCounts[doc]!;
    if (v === 0) {
      const [s, i] = this.locate(doc);
      const set = new Set<string>();
      for (const w of pageTitle(s, i).split(/\s+/)) for (const t of wordTerms(w, true)) set.add(t);
      v = Math.min(65534, set.size) + 1;
      this.titleTermCounts[doc] = v;
    }
    return v - 1;
  }

  /** The page title as JSON text (query-independent: computed once per worker). */
  titleJson(doc: number): string {
    let t = this.titlesJson[doc];
    if (t === undefined) {
      const [s, i] = this.locate(doc);
      t = this.titlesJson[doc] = JSON.stringify(pageTitle(s, i));
    }
    return t;
  }

  /** Page metadata by global id (for callers that need titles/urls without a query). */
  page(doc: number): PageInfo & { pageType: ContentType } {
    const [s, i] = this.locate(doc);
    return { ...s.pages.at(i)!, pageType: CONTENT_TYPES[s.pageTypes[i]!] ?? 'docs' };
  }
}
