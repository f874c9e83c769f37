/**
 * The search index the engine's worker threads query: a compact inverted index built from the Pagefind bundle's
 * own data — its meta index (the authoritative page list) and its page fragments (the text, headings/anchors, title
 * and filters Pagefind extracted at build time).
 *
 * Why not Pagefind's WASM search server-side: on a 10,000-page corpus a query for a common term returns every page
 * with every word location (17 MB of JSON) and takes 100–800 ms and ~250 MB per instance; this index answers the
 * same query in a few ms, its arrays in SharedArrayBuffers shared by all workers or, for the two that a query reads
 * only a little of (page texts, section postings), left in the index files.
 *
 * Layout: the pages are split into segments, built in parallel child processes (search-build.ts) and written as
 * files (search-index-file.ts); every query worker maps every segment (SharedArrayBuffer views: no copies).
 * Scoring: BM25 (k1 1.2, b 0.75) over heading-weighted term frequencies; a query term matches its exact (lightly
 * stemmed) form plus up to 24 prefix expansions, folded into one BM25 term; AND semantics by default ('any' on
 * request); pages whose title contains every query term rank above all others (shorter titles first); ties by url.
 */
import { createHash } from 'node:crypto';
import { type ColdArray, inMemory } from './cold-array.ts';
import type { PagefindFragment } from './pagefind-bundle.ts';
import { primaryTerm, toPlainText, wordTerms } from './text.ts';

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

export interface AnchorInfo { loc: number; id: string; text: string; heading: boolean; words: number }
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

/**
 * One segment of the index. Typed arrays live in SharedArrayBuffers, as do the strings behind `pages`/`vocab`; the
 * three cold arrays (page texts, section postings: most of the index's bytes, a small part of them read per query)
 * stay in the segment file once it is loaded (cold-array.ts).
 */
export interface SegmentData {
  nPages: number;
  pages: PageList;
  vocab: List<string>; // sorted (code-unit order); term id = index
  urlOrder: Int32Array; // local pages by url (ties by page index): merged across segments at install
  termStart: Int32Array; // CSR over body postings, length vocab+1
  pdoc: DocArray; // local page index (Uint16 when the segment has ≤ 65,536 pages)
  ptf: Uint16Array; // 2 × heading-weighted term frequency (weights are multiples of 0.5: exact), clamped
  tStart: Int32Array; // CSR over title postings, length vocab+1
  tdoc: DocArray;
  docLen: Float32Array;
  typeIdx: Uint8Array;
  posStart: Int32Array; // per page: first word position (length nPages+1)
  // Word positions are found by scanning `content` from a checkpoint (a per-word offset table would be 2 × 30 MB at
  // 10,000 pages; only ≤ FULL_EXCERPT_RANKS excerpts per query need positions).
  wck: Uint32Array; // byte offset of every word whose segment-wide position is a multiple of WCK
  byteStart: Uint32Array; // per page: first byte (length nPages+1)
  content: ColdArray<Uint8Array>; // UTF-8 page texts, words joined by ' ' (U+200B on zws pages)
  zws: Uint8Array; // per page: 1 when words are U+200B-delimited
  // Sections (format 2): a page's sections are its intro (0) and its anchors (a + 1), global index secStart[i] + j.
  secStart: Int32Array; // per page: first section (length nPages+1)
  sxStart: Int32Array; // CSR term → sections holding the term (length vocab+1)
  sxSec: ColdArray<Int32Array>; // section index, ascending per term
  sxCnt: ColdArray<Uint16Array>; // matches of the term in the section: body (low 12 bits) | heading (high 4 bits), clamped
  // Static hits (format 2): per page 2 × sections slots at 2 × secStart[i]: slot 0 intro, 1 page hit (title match),
  // 2j + h anchor section j with h = heading hit; the JSON text `{"id":…,"url":…,"type":…,"title":…,"content":…,"score":`
  // whole, the page's title repeated per slot (format 4: +4% of the index, one copy per hit instead of three)
  hitOff: Uint32Array; // byte range of slot s: [hitOff[s], hitOff[s+1]) in hitBytes (length slots+1)
  hitBytes: Uint8Array;
  hitParams: Int32Array; // [STATIC_WORDS the static hits were built with]
}

export type DocArray = Int32Array | Uint16Array;
/** Word checkpoint interval (see wck). */
export const WCK = 16;

export interface ManifestFallback { title?: string; type?: string; section?: string }

// ---------------------------------------------------------------------------------------------------------------
// Build
// ---------------------------------------------------------------------------------------------------------------

class Grow<T extends Int32Array | Uint32Array | Float32Array> {
  a: T;
  n = 0;
  private readonly make: (n: number) => T;
  constructor(make: (n: number) => T, initial = 4096) {
    this.make = make;
    this.a = make(initial);
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = this.make(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

type SharedCtor<T> = { new (b: SharedArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number };

/** Copies the first n elements of src into a SharedArrayBuffer-backed array of the same kind. */
function shared<T extends Int32Array | Uint32Array | Float32Array | Uint8Array>(Ctor: SharedCtor<T>, src: T, n: number): T {
  const out = new Ctor(new SharedArrayBuffer(Math.max(1, n) * Ctor.BYTES_PER_ELEMENT), 0, n);
  if (n > 0) (out as Int32Array).set((src as Int32Array).subarray(0, n));
  return out;
}

const WORD = /(?:[^\s]|\uFEFF)+/g;
const NON_ASCII = /[^\x00-\x7f]/;
const HEADING_WEIGHT: Record<string, number> = { h1: 3, h2: 2.5, h3: 2, h4: 1.5, h5: 1.5, h6: 1.5 };

/** Builds one segment from Pagefind fragments (in the given order; an iterable so they can be streamed). */
export function buildSegment(frags: Iterable<PagefindFragment>, n: number, fallback?: Record<string, ManifestFallback>): SegmentData {
  const termIds = new Map<string, number>();
  const vocab: string[] = [];
  const idOf = (t: string): number => {
    let id = termIds.get(t);
    if (id === undefined) {
      id = vocab.length;
      vocab.push(t);
      termIds.set(t, id);
    }
    return id;
  };
  const eTerm = new Grow((k) => new Int32Array(k), 1 << 16);
  const eDoc = new Grow((k) => new Int32Array(k), 1 << 16);
  const eTf = new Grow((k) => new Float32Array(k), 1 << 16);
  const tTerm = new Grow((k) => new Int32Array(k));
  const tDocE = new Grow((k) => new Int32Array(k));
  const tok = new Grow((k) => new Int32Array(k), 1 << 16);
  const wck = new Grow((k) => new Uint32Array(k), 1 << 12);
  const posStart = new Int32Array(n + 1);
  const byteStart = new Uint32Array(n + 1);
  const docLen = new Float32Array(n);
  const typeIdx = new Uint8Array(n);
  const zws = new Uint8Array(n);
  const pages: PageInfo[] = [];
  const chunks: Buffer[] = [];
  let bytes = 0;
  let tf = new Float64Array(1024);
  const touched: number[] = [];
  /** raw word → term id(s): words repeat a lot, so tokenize/stem each distinct raw word once */
  const wordIds = new Map<string, number | number[]>();

  let i = -1;
  for (const f of frags) {
    if (++i >= n) throw new Error('buildSegment: more fragments than announced');
    const url = normalizeUrl(typeof f.meta?.url === 'string' && f.meta.url ? f.meta.url : f.url);
    const fb = fallback?.[url];
    const title = toPlainText(f.meta?.title ?? fb?.title ?? url);
    const ti = [firstOf(f.filters?.type), fb?.type].map((t) => CONTENT_TYPES.indexOf(t as ContentType)).find((x) => x >= 0);
    typeIdx[i] = ti ?? 0;
    const section = firstOf(f.filters?.section) ?? fb?.section ?? (url.split('/')[2] ?? '');
    const anchors: AnchorInfo[] = (Array.isArray(f.anchors) ? f.anchors : [])
      .filter((a) => a && typeof a.id === 'string' && a.id.length > 0 && typeof a.location === 'number')
      .map((a) => {
        const text = toPlainText(a.text ?? '');
        return { loc: a.location, id: a.id, text, heading: /^h[1-6]$/i.test(a.element ?? ''), words: text ? text.split(' ').length : 0 };
      })
      .sort((a, b) => a.loc - b.loc);
    pages.push({ url, title, section, anchors });

    // heading ranges for term weights
    const ranges: [number, number, number][] = [];
    for (const a of Array.isArray(f.anchors) ? f.anchors : []) {
      const w = HEADING_WEIGHT[(a?.element ?? '').toLowerCase()];
      if (w && typeof a.location === 'number' && a.text) ranges.push([a.location, a.location + a.text.trim().split(/\s+/).length, w]);
    }
    ranges.sort((a, b) => a[0] - b[0]);
    let ri = 0;

    // The stored text is the page's words joined by single spaces ('' for U+200B-delimited scripts): word positions
    // stay Pagefind's, and excerpts need no whitespace clean-up.
    const content = f.content;
    const isZws = content.includes('\u200B');
    const joiner = isZws ? '\u200B' : ' ';
    const joinerBytes = Buffer.byteLength(joiner);
    const ascii = !NON_ASCII.test(content);
    const parts: string[] = [];
    posStart[i] = tok.n;
    byteStart[i] = bytes;
    let pos = 0;
    let pageBytes = 0;
    const addWord = (w: string): void => {
      if (pos > 0) {
        parts.push(joiner);
        pageBytes += joinerBytes;
      }
      if (tok.n % WCK === 0) wck.push(bytes + pageBytes);
      parts.push(w);
      pageBytes += ascii ? w.length : Buffer.byteLength(w);
      let ids = wordIds.get(w);
      if (ids === undefined) {
        const terms = wordTerms(w);
        ids = terms.length === 0 ? -1 : terms.length === 1 ? idOf(terms[0]!) : terms.map(idOf);
        wordIds.set(w, ids);
      }
      if (ids === -1) {
        tok.push(-1);
      } else {
        while (ri < ranges.length && ranges[ri]![1] <= pos) ri++;
        const weight = ri < ranges.length && ranges[ri]![0] <= pos ? ranges[ri]![2] : 1;
        if (typeof ids === 'number') {
          if (ids >= tf.length) tf = growTf(tf, ids);
          if (tf[ids] === 0) touched.push(ids);
          tf[ids]! += weight;
          tok.push(ids);
        } else {
          for (const id of ids) {
            if (id >= tf.length) tf = growTf(tf, id);
            if (tf[id] === 0) touched.push(id);
            tf[id]! += weight;
          }
          tok.push(ids[0]!);
        }
      }
      pos++;
    };
    if (isZws) {
      zws[i] = 1;
      for (const w of content.split('\u200B')) addWord(w);
    } else {
      if (content.length > 0 && /^[^\S\uFEFF]/.test(content)) addWord(''); // Pagefind's split() yields a leading ''
      WORD.lastIndex = 0;
      for (let m = WORD.exec(content); m; m = WORD.exec(content)) addWord(m[0]);
    }
    const buf = Buffer.from(parts.join(''), 'utf8');
    if (buf.length !== pageBytes) throw new Error(`buildSegment: byte accounting mismatch on ${url}`);
    docLen[i] = Math.max(1, pos);
    for (const id of touched) {
      eTerm.push(id);
      eDoc.push(i);
      eTf.push(tf[id]!);
      tf[id] = 0;
    }
    touched.length = 0;
    const seenT = new Set<number>();
    for (const w of title.split(/\s+/)) {
      for (const t of wordTerms(w)) {
        const id = idOf(t);
        if (!seenT.has(id)) {
          seenT.add(id);
          tTerm.push(id);
          tDocE.push(i);
        }
      }
    }
    chunks.push(buf);
    bytes += buf.length;
  }
  if (i !== n - 1) throw new Error(`buildSegment: expected ${n} fragments, got ${i + 1}`);
  posStart[n] = tok.n;
  byteStart[n] = bytes;

  // sort the vocabulary, remap ids
  const V = vocab.length;
  const order = Array.from({ length: V }, (_, k) => k).sort((a, b) => (vocab[a]! < vocab[b]! ? -1 : vocab[a]! > vocab[b]! ? 1 : 0));
  const newId = new Int32Array(V);
  const sortedVocab: string[] = new Array(V);
  for (let k = 0; k < V; k++) {
    newId[order[k]!] = k;
    sortedVocab[k] = vocab[order[k]!]!;
  }
  const tokS = tok.a.subarray(0, tok.n);
  for (let p = 0; p < tokS.length; p++) if (tokS[p]! >= 0) tokS[p] = newId[tokS[p]!]!;

  const csr = (terms: Grow<Int32Array>, docs: Grow<Int32Array>, tfs?: Grow<Float32Array>) => {
    const start = new Int32Array(new SharedArrayBuffer((V + 1) * 4));
    for (let e = 0; e < terms.n; e++) start[newId[terms.a[e]!]! + 1]!++;
    for (let k = 0; k < V; k++) start[k + 1]! += start[k]!;
    const fill = start.slice(0, V);
    const d = n <= 65536 ? new Uint16Array(new SharedArrayBuffer(Math.max(1, terms.n) * 2), 0, terms.n) : new Int32Array(new SharedArrayBuffer(Math.max(1, terms.n) * 4), 0, terms.n);
    const w = tfs ? new Uint16Array(new SharedArrayBuffer(Math.max(1, terms.n) * 2), 0, terms.n) : undefined;
    for (let e = 0; e < terms.n; e++) {
      const k = fill[newId[terms.a[e]!]!]!++;
      d[k] = docs.a[e]!;
      if (w) w[k] = Math.min(65535, Math.round(2 * tfs!.a[e]!));
    }
    return { start, d, w };
  };
  const body = csr(eTerm, eDoc, eTf);
  const ttl = csr(tTerm, tDocE);
  const content = new Uint8Array(new SharedArrayBuffer(Math.max(1, bytes)), 0, bytes);
  const urlOrder = new Int32Array(new SharedArrayBuffer(Math.max(1, n) * 4), 0, n);
  Array.from({ length: n }, (_, k) => k)
    .sort((a, b) => (pages[a]!.url < pages[b]!.url ? -1 : pages[a]!.url > pages[b]!.url ? 1 : a - b))
    .forEach((p, r) => (urlOrder[r] = p));
  let off = 0;
  for (const c of chunks) {
    content.set(c, off);
    off += c.length;
  }
  return withSections(tokS, {
    nPages: n,
    pages,
    vocab: sortedVocab,
    urlOrder,
    termStart: body.start,
    pdoc: body.d,
    ptf: body.w!,
    tStart: ttl.start,
    tdoc: ttl.d,
    docLen: shared(Float32Array, docLen, n),
    typeIdx: shared(Uint8Array, typeIdx, n),
    posStart: shared(Int32Array, posStart, n + 1),
    wck: shared(Uint32Array, wck.a, wck.n),
    byteStart: shared(Uint32Array, byteStart, n + 1),
    content: inMemory(content),
    zws: shared(Uint8Array, zws, n),
  });
}

const BODY_BITS = 12;
const BODY_MAX = (1 << BODY_BITS) - 1;
const HEAD_MAX = (1 << (16 - BODY_BITS)) - 1;
/** Words of a static excerpt (ranks beyond FULL_EXCERPT_RANKS): a short opening of the section. */
export const STATIC_WORDS = 12;

/**
 * Adds the per-section term postings (choosing a hit's section is a lookup over the query's term ids, not a scan
 * of the page's words) and the static hit JSON of every (page, section, kind) (a hit beyond FULL_EXCERPT_RANKS is
 * a copy of bytes). Word → section assignment is exactly the one SearchIndex.hit uses.
 */
function withSections(tok: Int32Array, seg: Omit<SegmentData, 'secStart' | 'sxStart' | 'sxSec' | 'sxCnt' | 'hitOff' | 'hitBytes' | 'hitParams'>): SegmentData {
  const n = seg.nPages;
  const V = seg.vocab.length;
  const secStart = new Int32Array(new SharedArrayBuffer((n + 1) * 4));
  const pages = seg.pages as PageInfo[]; // build time: a plain array
  for (let i = 0; i < n; i++) secStart[i + 1] = secStart[i]! + 1 + pages[i]!.anchors.length;
  const nSec = secStart[n]!;
  // (term, section, count) triples, sections ascending (pages in order, sections in order within a page)
  const eT = new Grow((k) => new Int32Array(k), 1 << 16);
  const eS = new Grow((k) => new Int32Array(k), 1 << 16);
  const eC = new Grow((k) => new Int32Array(k), 1 << 16);
  const body = new Map<number, number>();
  const head = new Map<number, number>();
  const flush = (sec: number) => {
    const ids = new Set<number>([...body.keys(), ...head.keys()]);
    for (const t of [...ids].sort((a, b) => a - b)) {
      eT.push(t);
      eS.push(sec);
      eC.push(Math.min(body.get(t) ?? 0, BODY_MAX) | (Math.min(head.get(t) ?? 0, HEAD_MAX) << BODY_BITS));
    }
    body.clear();
    head.clear();
  };
  for (let i = 0; i < n; i++) {
    const anchors = pages[i]!.anchors;
    const nA = anchors.length;
    const p0 = seg.posStart[i]!;
    const nW = seg.posStart[i + 1]! - p0;
    let a = -1;
    let nextLoc = nA > 0 ? anchors[0]!.loc : nW + 1;
    let hEnd = 0;
    for (let p = 0; p < nW; p++) {
      const t = tok[p0 + p]!;
      if (t < 0) continue;
      if (p >= nextLoc) {
        flush(secStart[i]! + a + 1);
        while (a + 1 < nA && anchors[a + 1]!.loc <= p) a++;
        nextLoc = a + 1 < nA ? anchors[a + 1]!.loc : nW + 1;
        hEnd = anchors[a]!.heading ? anchors[a]!.loc + anchors[a]!.words : anchors[a]!.loc;
      }
      const m = a >= 0 && p < hEnd ? head : body;
      m.set(t, (m.get(t) ?? 0) + 1);
    }
    flush(secStart[i]! + a + 1);
  }
  const sxStart = new Int32Array(new SharedArrayBuffer((V + 1) * 4));
  for (let e = 0; e < eT.n; e++) sxStart[eT.a[e]! + 1]!++;
  for (let k = 0; k < V; k++) sxStart[k + 1]! += sxStart[k]!;
  const fill = sxStart.slice(0, V);
  const sxSec = new Int32Array(new SharedArrayBuffer(Math.max(1, eT.n) * 4), 0, eT.n);
  const sxCnt = new Uint16Array(new SharedArrayBuffer(Math.max(1, eT.n) * 2), 0, eT.n);
  for (let e = 0; e < eT.n; e++) {
    const k = fill[eT.a[e]!]!++;
    sxSec[k] = eS.a[e]!;
    sxCnt[k] = eC.a[e]!;
  }
  const empty = new Uint8Array(0);
  const partial: SegmentData = {
    ...seg, secStart, sxStart, sxSec: inMemory(sxSec), sxCnt: inMemory(sxCnt), hitOff: new Uint32Array(1), hitBytes: empty, hitParams: new Int32Array([0]),
  };
  // static hits, rendered by the query code itself so they are byte for byte what it would render
  const idx = new SearchIndex([partial]);
  const nSlots = 2 * nSec;
  const hitOff = new Uint32Array(new SharedArrayBuffer((nSlots + 1) * 4));
  const chunks: Buffer[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const nA = pages[i]!.anchors.length;
    const s0 = 2 * secStart[i]!;
    for (let slot = 0; slot < 2 * (nA + 1); slot++) {
      hitOff[s0 + slot] = bytes;
      const j = slot >> 1;
      const h = slot & 1;
      if (j > 0 && h === 1 && !pages[i]!.anchors[j - 1]!.heading) continue; // never chosen: no heading words
      const str = j === 0 ? idx.staticJson(i, h === 1, -1, false) : idx.staticJson(i, false, j - 1, h === 1);
      const b = Buffer.from(str, 'utf8');
      chunks.push(b);
      bytes += b.length;
    }
  }
  hitOff[nSlots] = bytes;
  const hitBytes = new Uint8Array(new SharedArrayBuffer(Math.max(1, bytes)), 0, bytes);
  let off = 0;
  for (const c of chunks) {
    hitBytes.set(c, off);
    off += c.length;
  }
  const hitParams = new Int32Array(new SharedArrayBuffer(4));
  hitParams[0] = STATIC_WORDS;
  return { ...partial, hitOff, hitBytes, hitParams };
}

function growTf(tf: Float64Array, id: number): Float64Array<ArrayBuffer> {
  const g = new Float64Array(Math.max(tf.length * 2, id + 1));
  g.set(tf);
  return g;
}

function firstOf(v: unknown): string | undefined {
  return Array.isArray(v) && typeof v[0] === 'string' && v[0] ? v[0] : undefined;
}

function normalizeUrl(u: string): string {
  let url = u.trim();
  if (!/^(https?:)?\/\//.test(url) && !url.startsWith('/')) url = `/${url}`;
  return url;
}

// ---------------------------------------------------------------------------------------------------------------
// Query
// ---------------------------------------------------------------------------------------------------------------

/** A match set's section postings in one segment (SearchIndex.sectionPostings). */
interface SectionPostings { sec: Int32Array; cnt: Uint16Array; from: Int32Array; to: Int32Array; n: number }
const EMPTY_I32 = new Int32Array(0);
const EMPTY_U16 = new Uint16Array(0);

/** Ranked result of a query over the whole index (before slicing). */
export interface Ranking {
  /** Matching pages (exact even when `docs` is only the top-k prefix of the ranking, see rank's topK). */
  total: number;
  docs: Int32Array; // global doc ids, best first
  scores: Float64Array; // normalized 0..1, non-increasing
  titleMatch: Uint8Array; // 1 when the page title contains every query term
}

export interface IndexOptions {
  /** Max prefix expansions per query term (besides the exact term). */
  maxExpansions?: number;
  /** Words per excerpt. */
  excerptWords?: number;
}

/**
 * Ranks (0-based, in a whole ranking) whose excerpt is computed for the query (the window around the densest
 * matches). Beyond them — the long tail of an unlimited query for a common term, thousands of hits — a hit keeps its
 * query-dependent section (url, type) but its excerpt is the static opening of that section (≈STATIC_WORDS words,
 * precomputed), so a cache miss costs a ranking and a concatenation rather than hundreds of excerpts.
 */
export const FULL_EXCERPT_RANKS = 20;
/** Largest top-k prefix selected with a heap (rank's topK); beyond, the full sort is as cheap. */
const TOPK_MAX = 1024;
const NO_MATCHES: number[] = [];
/** Bound of the per-worker memo of static hits (≈350 bytes each: ≤ ≈12 MB per worker). */
const STATIC_MEMO_MAX = 30_000;
const VARIANT_MEMO_MAX = 20_000;
/** computeVariants: prefixes with at most this many expansions (all segments) are scanned; beyond, the threshold
 * algorithm, until it has seen more than 1/VARIANT_TA_SHARE of them (a seen word costs ≈ a binary search per
 * segment, a scanned one a decode: then the scan is cheaper). */
const VARIANT_SCAN_MAX = 512;
const VARIANT_TA_SHARE = 12;
const PRIMARY_MEMO_MAX = 100_000;
/** ASCII bytes that are word characters ([0-9A-Za-z_]): see matchedIn. */
const WORD_BYTE = Uint8Array.from({ length: 128 }, (_, x) => (/[0-9A-Za-z_]/.test(String.fromCharCode(x)) ? 1 : 0));

interface Variant { term: string; sim: number; ids: Int32Array /* per segment, -1 absent */ }

const K1 = 1.2;
const B = 0.75;

export class SearchIndex {
  readonly segments: SegmentData[];
  readonly nDocs: number;
  private readonly base: Int32Array;
  private readonly avgdl: number;
  private readonly urlRank: Int32Array;
  private readonly typeOf: Uint8Array;
  private readonly maxExpansions: number;
  private readonly excerptWords: number;
  // per-query scratch
  private readonly acc: Float64Array;
  private readonly cnt: Uint8Array;
  private readonly last: Int8Array;
  private readonly tcnt: Uint8Array;
  private readonly tlast: Int8Array;
  private readonly stamp: Int32Array;
  private readonly touched: Int32Array;
  private readonly cand: Int32Array;
  private readonly final: Float64Array;
  private readonly ttf: Float64Array;
  private readonly tstamp: Int32Array;
  private readonly tlist: Int32Array;
  private readonly titleLen: Uint16Array;
  private readonly docLen: Float32Array;
  private readonly titlesJson: (string | undefined)[];
  /** Static hits beyond the query-excerpt ranks when a segment's precomputed ones do not apply: see memoPrefix. */
  private readonly staticMemo = new Map<number, string>();
  private readonly idLists = new WeakMap<Uint8Array, Int32Array>();
  /** matchSets' per-segment mark buffers, and the ids its last call marked in them. */
  private readonly marks: Uint8Array[] = [];
  private readonly marked: number[][] = [];
  /** Per match set: the matched term strings (excerpts re-tokenize words; see matchedIn). */
  private readonly termSets = new WeakMap<Uint8Array, Set<string>>();
  /** Per-worker memo: raw word → primary term. */
  private readonly primaryMemo = new Map<string, string>();
  private readonly firstMemo = new WeakMap<Set<string>, Uint8Array>();
  /** url rank → doc, and the bits of a url rank (packed sort keys, see order). */
  private readonly docByUrl: Int32Array;
  private readonly rb: number;
  private readonly f64 = new Float64Array(1);
  private readonly f32 = new Uint32Array(this.f64.buffer);
  /** Per segment, per section [body, heading] match counts of the current resultsBytes call (see accumulateSections). */
  private secAcc: Uint32Array[] | undefined;
  private readonly secAccBuf: Uint32Array[] = [];
  /** Buffer views of the static hit bytes (Buffer.copy: one native copy per hit, no view object per hit). */
  private readonly hitBufs: Buffer[];
  private bestHeadingHit = 0;
  /** Per-worker memo of a query term's variants (rank and matchSets of one query, and repeated terms, share it). */
  private readonly variantMemo = new Map<string, Variant[]>();
  /** Per segment: the section postings of the last match set asked for (sectionPostings). */
  private readonly postings: (SectionPostings & { set: Uint8Array | undefined })[] = [];
  private secBody = new Int32Array(64);
  private secHead = new Int32Array(64);
  private gen = 0;
  private tgen = 0;

  constructor(segments: SegmentData[], opts: IndexOptions = {}) {
    this.segments = segments;
    this.maxExpansions = opts.maxExpansions ?? 24;
    this.excerptWords = opts.excerptWords ?? 30;
    this.base = new Int32Array(segments.length);
    this.hitBufs = segments.map((s) => Buffer.from(s.hitBytes.buffer, s.hitBytes.byteOffset, s.hitBytes.byteLength));
    let n = 0;
    let totalLen = 0;
    segments.forEach((s, k) => {
      this.base[k] = n;
      n += s.nPages;
      for (let i = 0; i < s.nPages; i++) totalLen += s.docLen[i]!;
    });
    this.nDocs = n;
    this.avgdl = n > 0 ? totalLen / n : 1;
    this.typeOf = new Uint8Array(n);
    this.titlesJson = new Array<string | undefined>(n);
    segments.forEach((s, k) => this.typeOf.set(s.typeIdx.subarray(0, s.nPages), this.base[k]!));
    // url order: a merge of the segments' url orders (url, then doc: an earlier segment first on equal urls)
    this.urlRank = new Int32Array(n);
    this.docByUrl = new Int32Array(n);
    const heads = segments.map(() => 0);
    const cur = segments.map((s) => (s.nPages > 0 ? pageUrl(s, s.urlOrder[0]!) : ''));
    for (let r = 0; r < n; r++) {
      let best = -1;
      for (let k = 0; k < segments.length; k++) {
        if (heads[k]! >= segments[k]!.nPages) continue;
        if (best < 0 || cur[k]! < cur[best]!) best = k;
      }
      const s = segments[best]!;
      const d = this.base[best]! + s.urlOrder[heads[best]!]!;
      this.urlRank[d] = r;
      this.docByUrl[r] = d;
      if (++heads[best]! < s.nPages) cur[best] = pageUrl(s, s.urlOrder[heads[best]!]!);
    }
    this.rb = Math.max(1, Math.ceil(Math.log2(Math.max(2, n))));
    this.acc = new Float64Array(n);
    this.cnt = new Uint8Array(n);
    this.last = new Int8Array(n);
    this.tcnt = new Uint8Array(n);
    this.tlast = new Int8Array(n);
    this.stamp = new Int32Array(n);
    this.touched = new Int32Array(n);
    this.cand = new Int32Array(n);
    this.final = new Float64Array(n);
    this.ttf = new Float64Array(n);
    this.tstamp = new Int32Array(n);
    this.tlist = new Int32Array(n);
    this.titleLen = new Uint16Array(n);
    this.docLen = new Float32Array(n);
    segments.forEach((s, k) => this.docLen.set(s.docLen.subarray(0, s.nPages), this.base[k]!));
  }

  /** Distinct terms of a page's title (computed when first needed: install stays cheap). */
  private titleTerms(d: number): number {
    let v = this.titleLen[d]!;
    if (v === 0) {
      const [s, i] = this.locate(d);
      const set = new Set<string>();
      for (const w of pageTitle(s, i).split(/\s+/)) for (const t of wordTerms(w)) set.add(t);
      v = Math.min(65534, set.size) + 1;
      this.titleLen[d] = v;
    }
    return v - 1;
  }

  private locate(doc: number): [SegmentData, number, number] {
    let k = this.segments.length - 1;
    while (k > 0 && this.base[k]! > doc) k--;
    return [this.segments[k]!, doc - this.base[k]!, k];
  }

  /** Exact term plus up to maxExpansions prefix expansions (most frequent first), with per-segment ids. */
  private variants(term: string): Variant[] {
    let vs = this.variantMemo.get(term);
    if (vs === undefined) {
      vs = this.computeVariants(term);
      if (this.variantMemo.size >= VARIANT_MEMO_MAX) this.variantMemo.clear();
      this.variantMemo.set(term, vs);
    }
    return vs;
  }

  /**
   * computeVariants' answer without decoding every vocabulary word of the prefix: compound identifiers give a
   * common term thousands of expansions ('request…': ≈2,700 per segment, 6 ms). Threshold algorithm over each
   * segment's expansions by (df + tdf) desc: a word not seen by round r weighs at most the sum of the round-r weights,
   * so once maxExpansions seen words weigh more, the top is known (ties with unseen words: the exact scan).
   */
  private computeVariants(term: string): Variant[] {
    const segs = this.segments;
    const S = segs.length;
    const lo = new Int32Array(S);
    const hi = new Int32Array(S);
    let n = 0;
    for (let k = 0; k < S; k++) {
      lo[k] = lowerBound(segs[k]!.vocab, term);
      hi[k] = prefixEnd(segs[k]!.vocab, term, lo[k]!);
      n += hi[k]! - lo[k]!;
    }
    if (n <= VARIANT_SCAN_MAX) return this.scanVariants(term, lo, hi);
    const weight = (k: number, id: number): number => {
      const s = segs[k]!;
      return s.termStart[id + 1]! - s.termStart[id]! + s.tStart[id + 1]! - s.tStart[id]!;
    };
    const byWeight = segs.map((_, k) => {
      const ids = new Int32Array(hi[k]! - lo[k]!);
      for (let j = 0; j < ids.length; j++) ids[j] = lo[k]! + j;
      const w = new Int32Array(ids.length);
      for (let j = 0; j < ids.length; j++) w[j] = weight(k, ids[j]!);
      return ids.sort((a, b) => w[b - lo[k]!]! - w[a - lo[k]!]! || a - b);
    });
    const seen = new Map<string, { w: number; ids: Int32Array }>();
    const maxLen = Math.max(...byWeight.map((a) => a.length));
    let done = false;
    for (let r = 0; r < maxLen && !done; r++) {
      if (seen.size * VARIANT_TA_SHARE > n) return this.scanVariants(term, lo, hi); // a flat tail: the scan is cheaper
      let threshold = 0;
      for (let k = 0; k < S; k++) {
        if (r >= byWeight[k]!.length) continue;
        const id = byWeight[k]![r]!;
        threshold += weight(k, id);
        const w = segs[k]!.vocab.at(id)!;
        if (w === term || seen.has(w)) continue;
        const ids = new Int32Array(S).fill(-1);
        let total = 0;
        for (let k2 = 0; k2 < S; k2++) {
          const j = k2 === k ? id : findIn(segs[k2]!.vocab, w, lo[k2]!, hi[k2]!);
          if (j >= 0) {
            ids[k2] = j;
            total += weight(k2, j);
          }
        }
        seen.set(w, { w: total, ids });
      }
      let above = 0;
      for (const e of seen.values()) if (e.w > threshold) above++;
      done = above >= this.maxExpansions;
    }
    const out: Variant[] = [];
    const exactIds = new Int32Array(S).fill(-1);
    let hasExact = false;
    for (let k = 0; k < S; k++) {
      if (lo[k]! < hi[k]! && segs[k]!.vocab.at(lo[k]!) === term) {
        exactIds[k] = lo[k]!;
        hasExact = true;
      }
    }
    if (hasExact) out.push({ term, sim: 1, ids: exactIds });
    const prefixed = [...seen.entries()].sort((a, b) => b[1].w - a[1].w || (a[0] < b[0] ? -1 : 1)).slice(0, this.maxExpansions);
    for (const [w, e] of prefixed) out.push({ term: w, sim: 0.2 + (0.6 * term.length) / w.length, ids: e.ids });
    return out;
  }

  /** Every expansion of the prefix decoded and merged across segments (few expansions, or a flat weight tail). */
  private scanVariants(term: string, lo: Int32Array, hi: Int32Array): Variant[] {
    const found = new Map<string, { df: number; tdf: number; ids: Int32Array }>();
    const S = this.segments.length;
    this.segments.forEach((s, k) => {
      const vocab = s.vocab;
      for (let j = lo[k]!; j < hi[k]!; j++) {
        const w = vocab.at(j)!;
        let e = found.get(w);
        if (!e) {
          e = { df: 0, tdf: 0, ids: new Int32Array(S).fill(-1) };
          found.set(w, e);
        }
        e.ids[k] = j;
        e.df += s.termStart[j + 1]! - s.termStart[j]!;
        e.tdf += s.tStart[j + 1]! - s.tStart[j]!;
      }
    });
    const out: Variant[] = [];
    const exact = found.get(term);
    if (exact) out.push({ term, sim: 1, ids: exact.ids });
    const prefixed = [...found.entries()]
      .filter(([w]) => w !== term)
      .sort((a, b) => b[1].df + b[1].tdf - (a[1].df + a[1].tdf) || (a[0] < b[0] ? -1 : 1))
      .slice(0, this.maxExpansions);
    for (const [w, e] of prefixed) out.push({ term: w, sim: 0.2 + (0.6 * term.length) / w.length, ids: e.ids });
    return out;
  }

  /**
   * Full ranking for canonical query terms (see text.ts queryTerms) and an optional type filter.
   * match 'all' (default): pages containing every term (in text or title). 'any': pages containing at least one,
   * scored down by the share of terms they miss (for natural-language questions).
   * topK: only the first topK ranks are returned (docs/scores/titleMatch; `total` still counts every match) — the
   * same pages, order and scores as the full ranking's prefix, without sorting every candidate.
   */
  rank(terms: string[], type?: ContentType, match: 'all' | 'any' = 'all', topK?: number): Ranking {
    const empty: Ranking = { total: 0, docs: new Int32Array(0), scores: new Float64Array(0), titleMatch: new Uint8Array(0) };
    const nT = terms.length;
    if (nT === 0 || this.nDocs === 0) return empty;
    const typeFilter = type === undefined ? -1 : CONTENT_TYPES.indexOf(type);
    const gen = ++this.gen;
    const { acc, cnt, last, tcnt, tlast, stamp, touched, ttf, tstamp, tlist, docLen } = this;
    let nTouched = 0;
    const N = this.nDocs;
    const avgdl = this.avgdl;
    const touch = (d: number) => {
      if (stamp[d] !== gen) {
        stamp[d] = gen;
        acc[d] = 0;
        cnt[d] = 0;
        last[d] = -1;
        tcnt[d] = 0;
        tlast[d] = -1;
        touched[nTouched++] = d;
      }
    };
    for (let ti = 0; ti < nT; ti++) {
      const vars = this.variants(terms[ti]!);
      if (vars.length === 0) {
        if (match === 'all') return empty; // AND: a term without any match means no results
        continue;
      }
      // one BM25 term per query term: the variants' (similarity-weighted) frequencies add up, df is their union
      const tg = ++this.tgen;
      let nt = 0;
      for (const v of vars) {
        for (let k = 0; k < this.segments.length; k++) {
          const id = v.ids[k]!;
          if (id < 0) continue;
          const s = this.segments[k]!;
          const base = this.base[k]!;
          const { termStart, pdoc, ptf, tStart, tdoc } = s;
          for (let e = termStart[id]!, end = termStart[id + 1]!; e < end; e++) {
            const d = base + pdoc[e]!;
            if (tstamp[d] !== tg) {
              tstamp[d] = tg;
              ttf[d] = 0;
              tlist[nt++] = d;
            }
            ttf[d]! += v.sim * (ptf[e]! * 0.5);
          }
          for (let e = tStart[id]!, end = tStart[id + 1]!; e < end; e++) {
            const d = base + tdoc[e]!;
            touch(d);
            if (tlast[d] !== ti) {
              tlast[d] = ti;
              tcnt[d]!++;
            }
            if (last[d] !== ti) {
              last[d] = ti;
              cnt[d]!++;
            }
          }
        }
      }
      const w = Math.log(1 + (N - nt + 0.5) / (nt + 0.5)) * (K1 + 1);
      for (let j = 0; j < nt; j++) {
        const d = tlist[j]!;
        touch(d);
        const f = ttf[d]!;
        acc[d]! += (w * f) / (f + K1 * (1 - B + (B * docLen[d]!) / avgdl));
        if (last[d] !== ti) {
          last[d] = ti;
          cnt[d]!++;
        }
      }
    }
    const cand = this.cand; // per-worker scratch: read by order/selectTop only
    let nc = 0;
    let maxBody = 0;
    const fin = this.final;
    const need = match === 'all' ? nT : 1;
    for (let k = 0; k < nTouched; k++) {
      const d = touched[k]!;
      if (cnt[d]! < need) continue;
      if (typeFilter >= 0 && this.typeOf[d] !== typeFilter) continue;
      cand[nc++] = d;
      if (tcnt[d] !== nT) {
        const coverage = cnt[d]! / nT;
        const s = acc[d]! * (1 + (0.5 * tcnt[d]!) / nT) * coverage * coverage;
        fin[d] = s;
        if (s > maxBody) maxBody = s;
      }
    }
    // title tier: above every other page; shorter titles (the query is more of the title) first
    let max = 0;
    for (let k = 0; k < nc; k++) {
      const d = cand[k]!;
      if (tcnt[d] === nT) fin[d] = (acc[d]! + maxBody) * (1 + nT / Math.max(nT, this.titleTerms(d)));
      if (fin[d]! > max) max = fin[d]!;
    }
    const nOut = topK !== undefined && topK < nc ? Math.max(0, Math.floor(topK)) : nc;
    // a small prefix: a bounded heap over the candidates; else one native sort of them all
    const docs = nOut === nc ? this.order(cand, nc, nT) : nOut <= TOPK_MAX ? this.selectTop(cand, nc, nT, nOut) : this.order(cand, nc, nT).slice(0, nOut);
    const scores = new Float64Array(nOut);
    const titleMatch = new Uint8Array(nOut);
    for (let r = 0; r < nOut; r++) {
      const d = docs[r]!;
      scores[r] = max > 0 ? Math.round((fin[d]! / max) * 1e6) / 1e6 : 1;
      titleMatch[r] = tcnt[d] === nT ? 1 : 0;
    }
    // a title match with a zero body score can tie the best body score: keep scores non-increasing anyway
    for (let r = 1; r < nOut; r++) if (scores[r]! > scores[r - 1]!) scores[r] = scores[r - 1]!;
    return { total: nc, docs, scores, titleMatch };
  }

  /**
   * The first k candidates in order()'s order (title tier first, score desc, url asc: a strict total order, so the
   * prefix is the same pages in the same order): a max-heap of the k best seen, rooted at the worst of them.
   */
  private selectTop(cand: Int32Array, nc: number, nT: number, k: number): Int32Array {
    const { final: fin, tcnt, urlRank } = this;
    // a ranks after b
    const worse = (a: number, b: number): boolean => {
      const ta = tcnt[a] === nT;
      if (ta !== (tcnt[b] === nT)) return !ta;
      const fa = fin[a]!;
      const fb = fin[b]!;
      return fa !== fb ? fa < fb : urlRank[a]! > urlRank[b]!;
    };
    const heap = new Int32Array(k);
    let n = 0;
    const down = (at: number): void => {
      const d = heap[at]!;
      for (;;) {
        let c = 2 * at + 1;
        if (c >= n) break;
        if (c + 1 < n && worse(heap[c + 1]!, heap[c]!)) c++;
        if (!worse(heap[c]!, d)) break;
        heap[at] = heap[c]!;
        at = c;
      }
      heap[at] = d;
    };
    if (k === 0) return heap;
    for (let j = 0; j < nc; j++) {
      const d = cand[j]!;
      if (n < k) {
        let at = n++;
        while (at > 0) {
          const p = (at - 1) >> 1;
          if (!worse(d, heap[p]!)) break;
          heap[at] = heap[p]!;
          at = p;
        }
        heap[at] = d;
      } else if (worse(heap[0]!, d)) {
        heap[0] = d;
        down(0);
      }
    }
    return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  }

  /**
   * Candidates in ranking order: title tier first, score desc, url asc. One native sort of packed 64-bit keys
   * [not title tier | ~score bits, truncated | url rank]; runs with equal truncated score re-sorted exactly.
   */
  private order(cand: Int32Array, nc: number, nT: number): Int32Array {
    const { final: fin, tcnt, urlRank, docByUrl, rb } = this;
    const keys = new BigUint64Array(nc);
    const k32 = new Uint32Array(keys.buffer);
    const f64 = this.f64;
    const f32 = this.f32;
    const low = rb >= 32 ? 0 : ~((1 << rb) - 1);
    for (let k = 0; k < nc; k++) {
      const d = cand[k]!;
      f64[0] = fin[d]!; // ≥ 0: its bits order like the number
      k32[2 * k] = ((~f32[0]! & low) | urlRank[d]!) >>> 0;
      k32[2 * k + 1] = ((tcnt[d] === nT ? 0 : 0x80000000) | (~f32[1]! & 0x7fffffff)) >>> 0;
    }
    keys.sort();
    const docs = new Int32Array(nc);
    const mask = rb >= 32 ? 0xffffffff : (1 << rb) - 1;
    for (let k = 0; k < nc; k++) docs[k] = docByUrl[k32[2 * k]! & mask]!;
    for (let a = 0; a < nc; ) {
      let b = a + 1;
      while (b < nc && k32[2 * b + 1] === k32[2 * a + 1] && (k32[2 * b]! & low) === (k32[2 * a]! & low)) b++;
      if (b - a > 1) {
        const run = docs.subarray(a, b);
        let same = true;
        for (let j = 1; j < run.length && same; j++) same = fin[run[j]!] === fin[run[0]!];
        if (!same) run.sort((x, y) => fin[y]! - fin[x]! || urlRank[x]! - urlRank[y]!);
      }
      a = b;
    }
    return docs;
  }

  /**
   * Per-segment marks (1 = counts as a match) over each segment's term ids, for excerpts. The marks are views of one
   * per-worker buffer per segment (a vocabulary-sized array per segment per query was most of a query's garbage): a
   * set's contents hold until the next call; its term ids (idsOf) and terms, recorded per view, hold for good.
   */
  matchSets(terms: string[]): Uint8Array[] {
    // every mark is recorded in lists as it is set (this.marked): the next call clears exactly those, even after a throw
    const lists: number[][] = this.segments.map(() => []);
    const sets = this.segments.map((s, k) => {
      let m = this.marks[k];
      if (!m) m = this.marks[k] = new Uint8Array(s.vocab.length);
      else for (const id of this.marked[k]!) m[id] = 0;
      this.marked[k] = lists[k]!;
      return m.subarray(0); // a new view: sets are keys of idLists/termSets
    });
    const strs = new Set<string>();
    for (const t of terms) {
      for (const v of this.variants(t)) {
        strs.add(v.term);
        v.ids.forEach((id, k) => {
          if (id >= 0 && sets[k]![id] !== 1) {
            sets[k]![id] = 1;
            lists[k]!.push(id);
          }
        });
      }
    }
    sets.forEach((set, k) => {
      this.idLists.set(set, Int32Array.from(lists[k]!).sort());
      this.termSets.set(set, strs);
    });
    return sets;
  }

  /**
   * Builds the SearchHit of one ranked page: granularity page / heading / text, plain-text excerpt. The hit's
   * section (url, type) always depends on the query; the excerpt is the window around the densest matches when
   * `queryExcerpt` (the top of a ranking, see FULL_EXCERPT_RANKS), else the static start of that section.
   */
  hit(doc: number, score: number, titleMatch: boolean, sets: Uint8Array[], queryExcerpt = true): SearchHit {
    const [s, i, k] = this.locate(doc);
    if (!titleMatch) {
      // the section from the section postings; match positions (for the excerpt) only within that section
      const best = this.bestSection(s, i, k, sets);
      const headingHit = this.bestHeadingHit === 1;
      if (!queryExcerpt) return this.hitAt(doc, score, false, best, headingHit, NO_MATCHES);
      const anchors = s.pages.at(i)!.anchors;
      const nW = s.posStart[i + 1]! - s.posStart[i]!;
      const from = best < 0 ? 0 : anchors[best]!.loc;
      const to = best < 0 ? (anchors.length > 0 ? Math.max(anchors[0]!.loc, 1) : nW) : best + 1 < anchors.length ? anchors[best + 1]!.loc : nW;
      return this.hitAt(doc, score, false, best, headingHit, this.matchedIn(s, i, sets[k]!, from, Math.min(to, nW)));
    }
    const nW = s.posStart[i + 1]! - s.posStart[i]!;
    return this.hitAt(doc, score, true, -2, false, queryExcerpt ? this.matchedIn(s, i, sets[k]!, 0, nW) : NO_MATCHES);
  }

  /** ASCII first characters of the matched terms (a prefilter for matchedIn). */
  private firstChars(terms: Set<string>): Uint8Array {
    let f = this.firstMemo.get(terms);
    if (!f) {
      f = new Uint8Array(128);
      for (const t of terms) if (t.charCodeAt(0) < 128) f[t.charCodeAt(0)] = 1;
      this.firstMemo.set(terms, f);
    }
    return f;
  }

  /** Word positions (page-relative) in [from, to) whose primary term is matched (the words re-tokenized: no per-word table). */
  private matchedIn(s: SegmentData, i: number, set: Uint8Array, from: number, to: number): number[] {
    const matched: number[] = [];
    const terms = this.termSets.get(set);
    from = Math.max(0, from);
    if (!terms || to <= from) return matched;
    const memo = this.primaryMemo;
    if (!s.zws[i]) {
      // on the bytes: a word whose first byte is an ASCII word character has a primary term starting with that
      // character (lower-cased), so most words are skipped without building a string
      const first = this.firstChars(terms);
      const { c, buf, base } = pageText(s, i);
      const nW = s.posStart[i + 1]! - s.posStart[i]!;
      // positions relative to the bytes at hand (c[0] is byte `base` of the segment's texts)
      const end = (to < nW ? wordByte(s, i, to) : s.byteStart[i + 1]!) - base;
      let b = wordByte(s, i, from) - base;
      for (let p = from; p < to && b <= end; p++) {
        let e = b;
        while (e < end && c[e] !== 0x20) e++;
        const x = c[b]!;
        const check = e > b && (x >= 0x80 || !WORD_BYTE[x] || first[x >= 65 && x <= 90 ? x | 0x20 : x] === 1);
        if (check) {
          const w = buf.toString('utf8', b, e);
          let t = memo.get(w);
          if (t === undefined) {
            t = primaryTerm(w);
            if (memo.size >= PRIMARY_MEMO_MAX) memo.clear();
            memo.set(w, t);
          }
          if (t !== '' && terms.has(t)) matched.push(p);
        }
        b = e + 1;
      }
      return matched;
    }
    const words = rawWords(s, i, from, to).split('\u200B');
    for (let j = 0, n = Math.min(words.length, to - from); j < n; j++) {
      const w = words[j]!;
      let t = memo.get(w);
      if (t === undefined) {
        t = primaryTerm(w);
        if (memo.size >= PRIMARY_MEMO_MAX) memo.clear();
        memo.set(w, t);
      }
      if (t !== '' && terms.has(t)) matched.push(from + j);
    }
    return matched;
  }

  /**
   * The hit of a page for a chosen section (-2: page hit, -1: intro, k: anchor k), excerpt around `near`; `near`
   * NO_MATCHES: the static hit (STATIC_WORDS words from the start; a heading hit: the heading, then the rest of them).
   */
  private hitAt(doc: number, score: number, titleMatch: boolean, best: number, bestHeadingHit: boolean, near: number[]): SearchHit {
    const W = near === NO_MATCHES ? STATIC_WORDS : this.excerptWords;
    const [s, i] = this.locate(doc);
    const page = s.pages.at(i)!;
    const nW = s.posStart[i + 1]! - s.posStart[i]!;
    const anchors = page.anchors;
    const pageType = CONTENT_TYPES[s.typeIdx[i]!] ?? 'docs';
    const base = { title: page.title, score, pageType, section: page.section, path: page.url };

    if (titleMatch) {
      const skip = skipTitle(page, s, i, nW);
      const content = this.excerpt(s, i, skip, nW, near, skip, W);
      return { id: hitId(page.url), url: page.url, type: 'page', content, ...base };
    }
    if (best < 0) {
      const introEnd = anchors.length > 0 ? Math.max(anchors[0]!.loc, 1) : nW;
      const skip = skipTitle(page, s, i, nW);
      const content = this.excerpt(s, i, skip < introEnd ? skip : 0, introEnd, near, skip, W);
      return { id: hitId(page.url), url: page.url, type: 'text', content, ...base };
    }
    const a = anchors[best]!;
    const from = a.loc;
    const to = best + 1 < anchors.length ? anchors[best + 1]!.loc : nW;
    const url = `${page.url}#${a.id}`;
    if (a.heading && bestHeadingHit) {
      const bodyFrom = Math.min(to, from + a.words);
      const wEx = near === NO_MATCHES ? W - a.words : W;
      const ex = bodyFrom < to && wEx >= 3 ? this.excerpt(s, i, bodyFrom, to, near, bodyFrom, wEx) : '';
      const content = a.text ? (ex ? `${a.text} — ${ex}` : a.text) : ex;
      return { id: hitId(url), url, type: 'heading', content, ...base };
    }
    const content = this.excerpt(s, i, a.heading ? Math.min(to, from + a.words) : from, to, near, from, W);
    return { id: hitId(url), url, type: 'text', content, ...base };
  }

  /** Plain-text window of ~W words within [from, to) around the densest cluster of matches. */
  private excerpt(s: SegmentData, i: number, from: number, to: number, matched: number[], defaultStart: number, W: number): string {
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

  /** The page title of a doc as JSON text (query-independent; computed once per worker at install). */
  titleJson(doc: number): string {
    let t = this.titlesJson[doc];
    if (t === undefined) {
      const [s, i] = this.locate(doc);
      t = this.titlesJson[doc] = JSON.stringify(pageTitle(s, i));
    }
    return t;
  }

  /**
   * The JSON text of the search API's result array (SearchResult: id, url, type, title, content, score — byte for
   * byte what JSON.stringify of those objects gives) for ranked pages `docs` starting at rank `fromRank`.
   */
  resultsJson(docs: Int32Array, scores: Float64Array, titleMatch: Uint8Array, fromRank: number, sets: Uint8Array[]): string {
    const b = this.resultsBytes(docs, scores, titleMatch, fromRank, sets);
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  }

  /**
   * resultsJson as UTF-8 bytes in a fresh (transferable) ArrayBuffer. Beyond FULL_EXCERPT_RANKS a hit is its
   * section (a lookup in the section postings) and the precomputed static hit bytes of that section, copied.
   */
  resultsBytes(docs: Int32Array, scores: Float64Array, titleMatch: Uint8Array, fromRank: number, sets: Uint8Array[]): Uint8Array<ArrayBuffer> {
    const n = docs.length;
    if (n === 0) return new Uint8Array(Buffer.from('[]'));
    const nHead = Math.max(0, Math.min(n, FULL_EXCERPT_RANKS - fromRank));
    const parts = new Array<string>(nHead);
    for (let k = 0; k < nHead; k++) {
      const d = docs[k]!;
      const h = this.hit(d, scores[k]!, titleMatch[k] === 1, sets, true);
      parts[k] = `{"id":${JSON.stringify(h.id)},"url":${JSON.stringify(h.url)},"type":"${h.type}","title":${this.titleJson(d)},"content":${JSON.stringify(h.content)},"score":${JSON.stringify(scores[k]!)}}`;
    }
    const headStr = `[${parts.join(',')}`;
    const nTail = n - nHead;
    // tail: per hit a byte range of a segment's static hits (segment k, [a, b)) or a memo string (fallback)
    const tSeg = new Int32Array(nTail);
    const tFrom = new Uint32Array(nTail);
    const tTo = new Uint32Array(nTail);
    let strs: string[] | undefined;
    // exact size: '[', the head, per tail hit its bytes, score, '}' and a ',' before it unless it comes first; ']'
    let size = Buffer.byteLength(headStr, 'utf8') + 1 - (nHead === 0 && nTail > 0 ? 1 : 0);
    this.accumulateSections(sets, nTail);
    const segs = this.segments;
    const nSeg = segs.length;
    const base = this.base;
    for (let t = 0; t < nTail; t++) {
      const d = docs[nHead + t]!;
      const tm = titleMatch[nHead + t] === 1;
      let k = nSeg - 1;
      while (k > 0 && base[k]! > d) k--;
      const s = segs[k]!;
      const i = d - base[k]!;
      let best = -2;
      let hh = 0;
      if (!tm) {
        best = this.bestSection(s, i, k, sets);
        hh = this.bestHeadingHit;
      }
      if (s.hitParams[0] === STATIC_WORDS && s.hitOff.length > 1) {
        const slot = 2 * s.secStart[i]! + (best === -2 ? 1 : best === -1 ? 0 : 2 * (best + 1) + hh);
        tSeg[t] = k;
        tFrom[t] = s.hitOff[slot]!;
        tTo[t] = s.hitOff[slot + 1]!;
        size += tTo[t]! - tFrom[t]! + scoreLength(scores[nHead + t]!) + 2;
      } else {
        tSeg[t] = -1;
        strs ??= [];
        const str = this.memoPrefix(d, tm, best, hh);
        strs[t] = str;
        size += Buffer.byteLength(str, 'utf8') + scoreLength(scores[nHead + t]!) + 2;
      }
    }
    // not zero-filled: every byte is written below, and zeroing an unlimited answer's 1–2 MB first is a second pass
    // over fresh memory (on a VM with slow page faults, allocating and touching a zeroed 1.4 MB buffer took 4.6 ms)
    const out = Buffer.allocUnsafeSlow(size);
    let pos = out.write(headStr, 0, 'utf8');
    for (let t = 0; t < nTail; t++) {
      if (pos > 1) out[pos++] = 0x2c; // ','
      const k = tSeg[t]!;
      if (k >= 0) pos += this.hitBufs[k]!.copy(out, pos, tFrom[t]!, tTo[t]!); // the hit up to `"score":`
      else pos += out.write(strs![t]!, pos, 'utf8');
      pos = writeScore(out, pos, scores[nHead + t]!);
      out[pos++] = 0x7d; // '}'
    }
    out[pos++] = 0x5d; // ']'
    this.releaseSections(sets);
    if (pos !== size) throw new Error(`search: result bytes ${pos} ≠ computed size ${size}`);
    return new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, pos);
  }

  /**
   * For a long tail: the match counts of every section of every segment in one pass over the query's section
   * postings (cost ∝ postings), when that is cheaper than a binary search per hit and term id (∝ hits × ids).
   */
  private accumulateSections(sets: Uint8Array[], nTail: number): void {
    if (this.secAcc) for (const a of this.secAccBuf) a.fill(0); // a previous call threw before releaseSections
    this.secAcc = undefined;
    if (nTail < 64) return;
    let postings = 0;
    let perHit = 0;
    this.segments.forEach((s, k) => {
      const ids = this.idsOf(sets[k]!);
      perHit += ids.length;
      for (let q = 0; q < ids.length; q++) postings += s.sxStart[ids[q]! + 1]! - s.sxStart[ids[q]!]!;
    });
    if (postings > nTail * (perHit / this.segments.length) * 16) return;
    this.secAcc = this.segments.map((s, k) => {
      const nSec = s.secStart[s.nPages]!;
      // body, heading per section (interleaved); kept per worker, zeroed again by releaseSections
      let acc = this.secAccBuf[k];
      if (!acc || acc.length < 2 * nSec) acc = this.secAccBuf[k] = new Uint32Array(2 * nSec);
      const { sec, cnt, from, to, n } = this.sectionPostings(s, k, sets[k]!);
      for (let q = 0; q < n; q++) {
        for (let e = from[q]!, end = to[q]!; e < end; e++) {
          const c = cnt[e]!;
          const at = 2 * sec[e]!;
          acc[at]! += c & BODY_MAX;
          acc[at + 1]! += c >>> BODY_BITS;
        }
      }
      return acc;
    });
  }

  /** Zeroes what accumulateSections added (only the query's postings: no pass over every section). */
  private releaseSections(sets: Uint8Array[]): void {
    const accs = this.secAcc;
    this.secAcc = undefined;
    if (!accs) return;
    this.segments.forEach((s, k) => {
      const acc = accs[k]!;
      const { sec, from, to, n } = this.sectionPostings(s, k, sets[k]!);
      for (let q = 0; q < n; q++) {
        for (let e = from[q]!, end = to[q]!; e < end; e++) {
          const at = 2 * sec[e]!;
          acc[at] = 0;
          acc[at + 1] = 0;
        }
      }
    });
  }

  /**
   * The section postings of a match set's term ids in segment k: id q of idsOf(set) has entries [from[q], to[q]) of
   * sec/cnt. In memory: the segment's arrays themselves. From the segment file: the ids' ranges read into per-segment
   * buffers (adjacent ranges — a prefix's expansions — in one read), kept until another set of that segment asks.
   */
  private sectionPostings(s: SegmentData, k: number, set: Uint8Array): SectionPostings {
    let p = this.postings[k];
    if (p?.set === set) return p;
    const ids = this.idsOf(set);
    const n = ids.length;
    const { sxStart } = s;
    if (!p || p.from.length < n) {
      const cap = Math.max(n, 2 * (p?.from.length ?? 8));
      p = this.postings[k] = { set: undefined, sec: p?.sec ?? EMPTY_I32, cnt: p?.cnt ?? EMPTY_U16, from: new Int32Array(cap), to: new Int32Array(cap), n: 0 };
    }
    p.set = undefined; // until filled: a throw leaves no half-read buffers behind
    const secMem = s.sxSec.memory;
    const cntMem = s.sxCnt.memory;
    if (secMem && cntMem) {
      p.sec = secMem;
      p.cnt = cntMem;
      for (let q = 0; q < n; q++) {
        p.from[q] = sxStart[ids[q]!]!;
        p.to[q] = sxStart[ids[q]! + 1]!;
      }
    } else {
      let total = 0;
      for (let q = 0; q < n; q++) total += sxStart[ids[q]! + 1]! - sxStart[ids[q]!]!;
      if (p.sec.length < total) {
        const cap = Math.max(total, 1024);
        p.sec = new Int32Array(cap);
        p.cnt = new Uint16Array(cap);
      }
      let at = 0;
      for (let q = 0; q < n; ) {
        // a run of ids whose ranges touch (consecutive term ids): one read
        const a = sxStart[ids[q]!]!;
        let r = q;
        while (r + 1 < n && sxStart[ids[r + 1]!]! === sxStart[ids[r]! + 1]!) r++;
        const b = sxStart[ids[r]! + 1]!;
        if (b > a) {
          s.sxSec.read(a, b, p.sec, at);
          s.sxCnt.read(a, b, p.cnt, at);
        }
        for (; q <= r; q++) {
          p.from[q] = at + sxStart[ids[q]!]! - a;
          p.to[q] = at + sxStart[ids[q]! + 1]! - a;
        }
        at += b - a;
      }
    }
    p.n = n;
    p.set = set;
    return p;
  }

  /** Term ids marked in a match set, ascending (cached per set). */
  private idsOf(set: Uint8Array): Int32Array {
    let ids = this.idLists.get(set);
    if (!ids) {
      let c = 0;
      for (let t = 0; t < set.length; t++) if (set[t] === 1) c++;
      ids = new Int32Array(c);
      c = 0;
      for (let t = 0; t < set.length; t++) if (set[t] === 1) ids[c++] = t;
      this.idLists.set(set, ids);
    }
    return ids;
  }

  /**
   * The section a non-title hit lands in (-1 intro | k anchor; bestHeadingHit 1 when heading words matched) — the same choice as
   * hit(), from the section postings of the query's term ids (a binary search per id) instead of the page's words.
   */
  private bestSection(s: SegmentData, i: number, k: number, sets: Uint8Array[]): number {
    const sec0 = s.secStart[i]!;
    const nS = s.secStart[i + 1]! - sec0;
    const acc = this.secAcc?.[k];
    if (acc) {
      let best = -1;
      let bestScore = -1;
      let headingHit = 0;
      for (let j = 0, at = 2 * sec0; j < nS; j++, at += 2) {
        const h = acc[at + 1]!;
        const sc = acc[at]! + 3 * h;
        if (sc > bestScore) {
          bestScore = sc;
          best = j - 1;
          headingHit = h > 0 ? 1 : 0;
        }
      }
      this.bestHeadingHit = headingHit;
      return best;
    }
    const { sec: sxSec, cnt: sxCnt, from: pFrom, to: pTo, n: nIds } = this.sectionPostings(s, k, sets[k]!);
    let body = this.secBody;
    let head = this.secHead;
    if (body.length < nS) {
      this.secBody = body = new Int32Array(nS);
      this.secHead = head = new Int32Array(nS);
    } else {
      body.fill(0, 0, nS);
      head.fill(0, 0, nS);
    }
    const secEnd = sec0 + nS;
    for (let q = 0; q < nIds; q++) {
      let lo = pFrom[q]!;
      let hi = pTo[q]!;
      if (lo === hi || sxSec[lo]! >= secEnd || sxSec[hi - 1]! < sec0) continue;
      while (lo < hi) {
        const m = (lo + hi) >>> 1;
        if (sxSec[m]! < sec0) lo = m + 1;
        else hi = m;
      }
      for (let e = lo, end = pTo[q]!; e < end; e++) {
        const sec = sxSec[e]!;
        if (sec >= secEnd) break;
        const c = sxCnt[e]!;
        body[sec - sec0]! += c & BODY_MAX;
        head[sec - sec0]! += c >>> BODY_BITS;
      }
    }
    let best = -1;
    let bestScore = -1;
    let headingHit = 0;
    for (let j = 0; j < nS; j++) {
      const sc = body[j]! + 3 * head[j]!;
      if (sc > bestScore) {
        bestScore = sc;
        best = j - 1;
        headingHit = head[j]! > 0 ? 1 : 0;
      }
    }
    this.bestHeadingHit = headingHit;
    return best;
  }

  /** The static hit JSON up to `"score":` of a local page of a single-segment index (index build time). */
  staticJson(doc: number, titleMatch: boolean, best: number, headingHit: boolean): string {
    const h = this.hitAt(doc, 0, titleMatch, titleMatch ? -2 : best, headingHit, NO_MATCHES);
    return `{"id":${JSON.stringify(h.id)},"url":${JSON.stringify(h.url)},"type":"${h.type}","title":${this.titleJson(doc)},"content":${JSON.stringify(h.content)},"score":`;
  }

  /** Fallback when a segment's static hits were built for another excerpt length: a per-worker memo. */
  private memoPrefix(doc: number, titleMatch: boolean, best: number, headingHit: number): string {
    const key = (doc * 65536 + (best + 2)) * 2 + headingHit;
    let out = this.staticMemo.get(key);
    if (out === undefined) {
      out = this.staticJson(doc, titleMatch, best, headingHit === 1);
      if (this.staticMemo.size >= STATIC_MEMO_MAX) this.staticMemo.clear();
      this.staticMemo.set(key, out);
    }
    return out;
  }

  /** Page metadata by global doc id (for callers that need titles/urls without a query). */
  page(doc: number): PageInfo & { pageType: ContentType } {
    const [s, i] = this.locate(doc);
    return { ...s.pages.at(i)!, pageType: CONTENT_TYPES[s.typeIdx[i]!] ?? 'docs' };
  }
}

/**
 * The length of JSON.stringify(score) in bytes. Scores are multiples of 1e-6 in [0, 1] (rank()
 * rounds them so), whose shortest round-trip text is "0", "1" or "0." and up to six digits without trailing zeros;
 * anything else goes through JSON.stringify.
 */
function scoreLength(score: number): number {
  let n = Math.round(score * 1e6);
  if (!(n > 0 && n < 1e6 && n / 1e6 === score)) return JSON.stringify(score).length;
  let digits = 6;
  while (n % 10 === 0) {
    n /= 10;
    digits--;
  }
  return 2 + digits;
}

/** Writes JSON.stringify(score) at `pos` (scoreLength bytes), returns the end. */
function writeScore(out: Uint8Array, pos: number, score: number): number {
  let n = Math.round(score * 1e6);
  if (n > 0 && n < 1e6 && n / 1e6 === score) {
    out[pos++] = 0x30; // 0
    out[pos++] = 0x2e; // .
    let digits = 6;
    while (n % 10 === 0) {
      n /= 10;
      digits--;
    }
    for (let k = digits - 1; k >= 0; k--) {
      out[pos + k] = 0x30 + (n % 10);
      n = (n - (n % 10)) / 10;
    }
    return pos + digits;
  }
  const sc = JSON.stringify(score);
  for (let c = 0; c < sc.length; c++) out[pos++] = sc.charCodeAt(c);
  return pos;
}

/** Words at the start of the page that repeat the title (the h1): excerpts of page hits skip them. */
function skipTitle(page: PageInfo, s: SegmentData, i: number, nW: number): number {
  const n = page.title.split(/\s+/).filter(Boolean).length;
  if (n === 0 || n >= nW) return 0;
  const head = plainWords(s, i, 0, n);
  return head.replace(/[.:]$/, '').toLowerCase() === page.title.toLowerCase() ? n : 0;
}

/** Bytes of a page's text: `c[b - base]` is byte b of the segment's texts (all of them in memory, or the page's). */
interface PageText { c: Uint8Array; buf: Buffer; base: number }
const wholeTexts = new WeakMap<ColdArray<Uint8Array>, PageText>();
const pageTexts = new WeakMap<ColdArray<Uint8Array>, Map<number, PageText>>();
/** Pages read from a segment file kept per worker (the top hits of recent queries; ≈5 KB each). */
const PAGE_TEXT_MEMO_MAX = 256;

function pageText(s: SegmentData, i: number): PageText {
  const content = s.content;
  const mem = content.memory;
  if (mem) {
    let t = wholeTexts.get(content);
    if (!t) wholeTexts.set(content, (t = { c: mem, buf: Buffer.from(mem.buffer, mem.byteOffset, mem.byteLength), base: 0 }));
    return t;
  }
  let memo = pageTexts.get(content);
  if (!memo) pageTexts.set(content, (memo = new Map()));
  let t = memo.get(i);
  if (!t) {
    const base = s.byteStart[i]!;
    const buf = Buffer.allocUnsafe(s.byteStart[i + 1]! - base);
    content.read(base, base + buf.length, buf, 0);
    t = { c: buf, buf, base };
    if (memo.size >= PAGE_TEXT_MEMO_MAX) memo.clear();
    memo.set(i, t);
  }
  return t;
}

/** Byte offset of word p (page-relative, < the page's word count) of page i: a scan from the nearest checkpoint. */
function wordByte(s: SegmentData, i: number, p: number): number {
  const p0 = s.posStart[i]!;
  const g = p0 + p;
  let w = g - (g % WCK);
  let b: number;
  if (w < p0) {
    w = p0;
    b = s.byteStart[i]!;
  } else b = s.wck[w / WCK]!;
  const { c, base } = pageText(s, i);
  let r = b - base;
  const n = c.length;
  if (s.zws[i]) {
    for (; w < g; w++) {
      while (r < n && !(c[r] === 0xe2 && c[r + 1] === 0x80 && c[r + 2] === 0x8b)) r++;
      r += 3;
    }
  } else {
    for (; w < g; w++) {
      while (r < n && c[r] !== 0x20) r++;
      r++;
    }
  }
  return r + base;
}

/** The stored text of words [from, to) of page i, separators included (a trailing one when to < word count). */
function rawWords(s: SegmentData, i: number, from: number, to: number): string {
  const nW = s.posStart[i + 1]! - s.posStart[i]!;
  const b0 = wordByte(s, i, from);
  const b1 = to < nW ? wordByte(s, i, to) : s.byteStart[i + 1]!;
  const { buf, base } = pageText(s, i);
  return buf.toString('utf8', b0 - base, b1 - base);
}

/** Words [from, to) of page i as plain text. */
function plainWords(s: SegmentData, i: number, from: number, to: number): string {
  const raw = rawWords(s, i, from, to);
  return toPlainText(s.zws[i] ? raw.replaceAll('\u200B', '') : raw);
}

function pageUrl(s: SegmentData, i: number): string {
  return s.pages.url ? s.pages.url(i) : s.pages.at(i)!.url;
}

function pageTitle(s: SegmentData, i: number): string {
  return s.pages.title ? s.pages.title(i) : s.pages.at(i)!.title;
}

const idMemo = new Map<string, string>();

/** Stable result id: the first 16 base64url characters of sha256(hit url). */
export function hitId(url: string): string {
  let id = idMemo.get(url);
  if (id === undefined) {
    id = createHash('sha256').update(url).digest('base64url').slice(0, 16);
    if (idMemo.size >= 200_000) idMemo.clear();
    idMemo.set(url, id);
  }
  return id;
}

/** End of the run of words starting with `prefix` that begins at `from` (the vocabulary is sorted). */
function prefixEnd(arr: List<string>, prefix: string, from: number): number {
  // galloping: most prefixes have few expansions
  let lo = from;
  let step = 1;
  while (lo < arr.length && arr.at(lo)!.startsWith(prefix)) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(lo, arr.length);
  lo = Math.max(from, lo - (step >> 1));
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (arr.at(m)!.startsWith(prefix)) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** Index of `x` in the sorted range [lo, hi) of arr, or -1. */
function findIn(arr: List<string>, x: string, lo: number, hi: number): number {
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    const w = arr.at(m)!;
    if (w === x) return m;
    if (w < x) lo = m + 1;
    else hi = m;
  }
  return -1;
}

function lowerBound(arr: List<string>, x: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (arr.at(m)! < x) lo = m + 1;
    else hi = m;
  }
  return lo;
}
