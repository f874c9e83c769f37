/**
 * Index building, second pass over a segment's words: the section postings (term → sections holding it, with body
 * and heading match counts) and the static hits (every page section's hit as JSON text up to its score).
 *
 * Why: choosing a hit's section then is a lookup over the query's term ids instead of a scan of the page's words
 * (sections.ts), and a hit beyond the query-excerpt ranks is a copy of bytes (results-json.ts). The static hits are
 * rendered by the query side's own code (a one-segment SearchIndex over the partial segment), so they are byte for
 * byte what it would render; the word → section assignment here is the one hits.ts uses.
 */
import { inMemory } from './cold-array.ts';
import { SearchIndex } from './search-index.ts';
import { GrowableArray } from './growable-array.ts';
import { type PageInfo, SECTION_BODY_BITS, SECTION_BODY_MAX, SECTION_HEADING_MAX, STATIC_WORDS, type SegmentData } from './segment.ts';

type SectionFields = 'pageFirstSection' | 'sectionPostingsStart' | 'sectionPostingSections' | 'sectionPostingCounts' | 'staticHitOffsets' | 'staticHitBytes' | 'staticHitWords';

/** The segment with its section postings and static hits; `termOfWord`: per word of the segment its term id, -1 none. */
export function withSectionsAndStaticHits(termOfWord: Int32Array, seg: Omit<SegmentData, SectionFields>): SegmentData {
  const n = seg.pageCount;
  const V = seg.terms.length;
  const firstSection = new Int32Array(new SharedArrayBuffer((n + 1) * 4));
  const pages = seg.pages as PageInfo[]; // build time: a plain array
  for (let i = 0; i < n; i++) firstSection[i + 1] = firstSection[i]! + 1 + pages[i]!.anchors.length;
  const nSec = firstSection[n]!;
  // (term, section, count) triples, sections ascending (pages in order, sections in order within a page)
  const postingTerms = new GrowableArray((k) => new Int32Array(k), 1 << 16);
  const postingSections = new GrowableArray((k) => new Int32Array(k), 1 << 16);
  const postingCounts = new GrowableArray((k) => new Int32Array(k), 1 << 16);
  const body = new Map<number, number>();
  const head = new Map<number, number>();
  const flush = (sec: number) => {
    const ids = new Set<number>([...body.keys(), ...head.keys()]);
    for (const t of [...ids].sort((a, b) => a - b)) {
      postingTerms.push(t);
      postingSections.push(sec);
      postingCounts.push(Math.min(body.get(t) ?? 0, SECTION_BODY_MAX) | (Math.min(head.get(t) ?? 0, SECTION_HEADING_MAX) << SECTION_BODY_BITS));
    }
    body.clear();
    head.clear();
  };
  for (let i = 0; i < n; i++) {
    const anchors = pages[i]!.anchors;
    const nA = anchors.length;
    const p0 = seg.pageFirstWord[i]!;
    const nW = seg.pageFirstWord[i + 1]! - p0;
    let a = -1;
    let nextLoc = nA > 0 ? anchors[0]!.loc : nW + 1;
    let hEnd = 0;
    for (let p = 0; p < nW; p++) {
      const t = termOfWord[p0 + p]!;
      if (t < 0) continue;
      if (p >= nextLoc) {
        flush(firstSection[i]! + a + 1);
        while (a + 1 < nA && anchors[a + 1]!.loc <= p) a++;
        nextLoc = a + 1 < nA ? anchors[a + 1]!.loc : nW + 1;
        hEnd = anchors[a]!.loc + anchors[a]!.words;
      }
      const m = a >= 0 && p < hEnd ? head : body;
      m.set(t, (m.get(t) ?? 0) + 1);
    }
    flush(firstSection[i]! + a + 1);
  }
  const start = new Int32Array(new SharedArrayBuffer((V + 1) * 4));
  for (let e = 0; e < postingTerms.size; e++) start[postingTerms.array[e]! + 1]!++;
  for (let k = 0; k < V; k++) start[k + 1]! += start[k]!;
  const fill = start.slice(0, V);
  const sections = new Int32Array(new SharedArrayBuffer(Math.max(1, postingTerms.size) * 4), 0, postingTerms.size);
  const counts = new Uint16Array(new SharedArrayBuffer(Math.max(1, postingTerms.size) * 2), 0, postingTerms.size);
  for (let e = 0; e < postingTerms.size; e++) {
    const k = fill[postingTerms.array[e]!]!++;
    sections[k] = postingSections.array[e]!;
    counts[k] = postingCounts.array[e]!;
  }
  const empty = new Uint8Array(0);
  const partial: SegmentData = {
    ...seg,
    pageFirstSection: firstSection,
    sectionPostingsStart: start,
    sectionPostingSections: inMemory(sections),
    sectionPostingCounts: inMemory(counts),
    staticHitOffsets: new Uint32Array(1),
    staticHitBytes: empty,
    staticHitWords: new Int32Array([0]),
  };
  // static hits, rendered by the query code itself so they are byte for byte what it would render
  const renderer = new SearchIndex([partial]);
  const nSlots = 2 * nSec;
  const offsets = new Uint32Array(new SharedArrayBuffer((nSlots + 1) * 4));
  const chunks: Buffer[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const nA = pages[i]!.anchors.length;
    const s0 = 2 * firstSection[i]!;
    for (let slot = 0; slot < 2 * (nA + 1); slot++) {
      offsets[s0 + slot] = bytes;
      const j = slot >> 1;
      const h = slot & 1;
      const str = j === 0 ? renderer.staticJson(i, h === 1, -1, false) : renderer.staticJson(i, false, j - 1, h === 1);
      const b = Buffer.from(str, 'utf8');
      chunks.push(b);
      bytes += b.length;
    }
  }
  offsets[nSlots] = bytes;
  const hitBytes = new Uint8Array(new SharedArrayBuffer(Math.max(1, bytes)), 0, bytes);
  let off = 0;
  for (const c of chunks) {
    hitBytes.set(c, off);
    off += c.length;
  }
  const words = new Int32Array(new SharedArrayBuffer(4));
  words[0] = STATIC_WORDS;
  return { ...partial, staticHitOffsets: offsets, staticHitBytes: hitBytes, staticHitWords: words };
}
