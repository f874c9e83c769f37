/**
 * Index building: one segment from Pagefind fragments (the bundle's meta index is the authoritative page list; its
 * fragments hold the text, headings/anchors, title and filters Pagefind extracted at build time). Tokenizes each
 * distinct word spelling once (text.ts), weights words under headings (h1 3, h2 2.5, h3 2, h4–h6 1.5), and lays the
 * result out as the flat arrays of segment.ts: a sorted term dictionary, body, title and section-heading postings
 * (CSR), page texts with word checkpoints. Section postings and static hits are added by section-builder.ts.
 *
 * Why in child processes (build-process.ts), one segment each: a build's transient memory (maps, growing arrays,
 * strings) goes back to the OS when the process exits, and segments build in parallel. Fragments come in as an
 * iterable so they can be streamed.
 */
import { inMemory } from './cold-array.ts';
import type { PagefindFragment } from '../pagefind-bundle.ts';
import { sectionTerm, toPlainText, wordTerms } from '../text.ts';
import { GrowableArray } from './growable-array.ts';
import { withSectionsAndStaticHits } from './section-builder.ts';
import { segmentTypoIndex } from './typo-index.ts';
import { type AnchorInfo, CONTENT_TYPES, type ContentType, type ManifestFallback, type PageInfo, type SegmentData, WORD_CHECKPOINT_INTERVAL } from './segment.ts';

type SharedCtor<T> = { new (b: SharedArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number };

/** Copies the first n elements of src into a SharedArrayBuffer-backed array of the same kind. */
function shared<T extends Int32Array | Uint32Array | Float32Array | Uint8Array>(Ctor: SharedCtor<T>, src: T, n: number): T {
  const out = new Ctor(new SharedArrayBuffer(Math.max(1, n) * Ctor.BYTES_PER_ELEMENT), 0, n);
  if (n > 0) (out as Int32Array).set((src as Int32Array).subarray(0, n));
  return out;
}

const WORD = /(?:[^\s]|\uFEFF)+/g;
const NON_ASCII = /[^\x00-\x7f]/;
/** Section headings (h1 is the page's title, a field of its own). */
const SECTION_HEADING = /^h[2-6]$/i;
const HEADING_WEIGHT: Record<string, number> = { h1: 3, h2: 2.5, h3: 2, h4: 1.5, h5: 1.5, h6: 1.5 };

/** Builds one segment from Pagefind fragments (in the given order; an iterable so they can be streamed). */
export function buildSegment(frags: Iterable<PagefindFragment>, n: number, fallback?: Record<string, ManifestFallback>): SegmentData {
  const termIds = new Map<string, number>();
  const vocabulary: string[] = [];
  const idOf = (t: string): number => {
    let id = termIds.get(t);
    if (id === undefined) {
      id = vocabulary.length;
      vocabulary.push(t);
      termIds.set(t, id);
    }
    return id;
  };
  const bodyTerms = new GrowableArray((k) => new Int32Array(k), 1 << 16);
  const bodyPages = new GrowableArray((k) => new Int32Array(k), 1 << 16);
  const bodyFrequencies = new GrowableArray((k) => new Float32Array(k), 1 << 16);
  const titleTerms = new GrowableArray((k) => new Int32Array(k));
  const titlePages = new GrowableArray((k) => new Int32Array(k));
  const descriptionTerms = new GrowableArray((k) => new Int32Array(k));
  const descriptionPages = new GrowableArray((k) => new Int32Array(k));
  const headingTerms = new GrowableArray((k) => new Int32Array(k));
  const headingPages = new GrowableArray((k) => new Int32Array(k));
  const tokens = new GrowableArray((k) => new Int32Array(k), 1 << 16);
  const checkpoints = new GrowableArray((k) => new Uint32Array(k), 1 << 12);
  const firstWord = new Int32Array(n + 1);
  const firstByte = new Uint32Array(n + 1);
  const lengths = new Float32Array(n);
  const types = new Uint8Array(n);
  const zeroWidth = new Uint8Array(n);
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
    types[i] = ti ?? 0;
    const section = firstOf(f.filters?.section) ?? fb?.section ?? (url.split('/')[2] ?? '');
    // sections open at headings only (the elements Pagefind's own sub-results use): an id on another element (a code
    // group's tab and its hidden panel, an id another tool keeps inside a heading, an author's `<a id>`) belongs to the
    // section of the heading above it, which is where a reader following the result expects to land
    const anchors: AnchorInfo[] = (Array.isArray(f.anchors) ? f.anchors : [])
      .filter((a) => a && typeof a.id === 'string' && a.id.length > 0 && typeof a.location === 'number' && /^h[1-6]$/i.test(a.element ?? ''))
      .map((a) => {
        const text = toPlainText(a.text ?? '');
        return { loc: a.location, id: a.id, text, words: text ? text.split(' ').length : 0 };
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
    firstWord[i] = tokens.size;
    firstByte[i] = bytes;
    let pos = 0;
    let pageBytes = 0;
    const addWord = (w: string): void => {
      if (pos > 0) {
        parts.push(joiner);
        pageBytes += joinerBytes;
      }
      if (tokens.size % WORD_CHECKPOINT_INTERVAL === 0) checkpoints.push(bytes + pageBytes);
      parts.push(w);
      pageBytes += ascii ? w.length : Buffer.byteLength(w);
      let ids = wordIds.get(w);
      if (ids === undefined) {
        const terms = wordTerms(w);
        // a word of several terms: the one its section counts it by first (a call's name, text.ts sectionTerm)
        const first = terms.length > 1 ? sectionTerm(w) : '';
        ids = terms.length === 0 ? -1 : terms.length === 1 ? idOf(terms[0]!) : [first, ...terms.filter((t) => t !== first)].map(idOf);
        wordIds.set(w, ids);
      }
      if (ids === -1) {
        tokens.push(-1);
      } else {
        while (ri < ranges.length && ranges[ri]![1] <= pos) ri++;
        const weight = ri < ranges.length && ranges[ri]![0] <= pos ? ranges[ri]![2] : 1;
        if (typeof ids === 'number') {
          if (ids >= tf.length) tf = growTf(tf, ids);
          if (tf[ids] === 0) touched.push(ids);
          tf[ids]! += weight;
          tokens.push(ids);
        } else {
          for (const id of ids) {
            if (id >= tf.length) tf = growTf(tf, id);
            if (tf[id] === 0) touched.push(id);
            tf[id]! += weight;
          }
          tokens.push(ids[0]!);
        }
      }
      pos++;
    };
    if (isZws) {
      zeroWidth[i] = 1;
      for (const w of content.split('\u200B')) addWord(w);
    } else {
      if (content.length > 0 && /^[^\S\uFEFF]/.test(content)) addWord(''); // Pagefind's split() yields a leading ''
      WORD.lastIndex = 0;
      for (let m = WORD.exec(content); m; m = WORD.exec(content)) addWord(m[0]);
    }
    const buf = Buffer.from(parts.join(''), 'utf8');
    if (buf.length !== pageBytes) throw new Error(`buildSegment: byte accounting mismatch on ${url}`);
    lengths[i] = Math.max(1, pos);
    for (const id of touched) {
      bodyTerms.push(id);
      bodyPages.push(i);
      bodyFrequencies.push(tf[id]!);
      tf[id] = 0;
    }
    touched.length = 0;
    // title and section-heading postings: each term once per page, camelCase words split (`setupFiles`: `setup`, `file`)
    const fieldPostings = (texts: Iterable<string>, terms: GrowableArray<Int32Array>, pagesOf: GrowableArray<Int32Array>) => {
      const seen = new Set<number>();
      for (const text of texts) {
        for (const w of text.split(/\s+/)) {
          for (const t of wordTerms(w, true)) {
            const id = idOf(t);
            if (seen.has(id)) continue;
            seen.add(id);
            terms.push(id);
            pagesOf.push(i);
          }
        }
      }
    };
    fieldPostings([title], titleTerms, titlePages);
    if (fb?.description) fieldPostings([toPlainText(fb.description)], descriptionTerms, descriptionPages);
    const headings = (Array.isArray(f.anchors) ? f.anchors : []).filter((a) => a?.text && SECTION_HEADING.test(a.element ?? ''));
    fieldPostings(headings.map((a) => toPlainText(a.text!)), headingTerms, headingPages);
    chunks.push(buf);
    bytes += buf.length;
  }
  if (i !== n - 1) throw new Error(`buildSegment: expected ${n} fragments, got ${i + 1}`);
  firstWord[n] = tokens.size;
  firstByte[n] = bytes;

  // sort the vocabulary, remap ids
  const V = vocabulary.length;
  const order = Array.from({ length: V }, (_, k) => k).sort((a, b) => (vocabulary[a]! < vocabulary[b]! ? -1 : vocabulary[a]! > vocabulary[b]! ? 1 : 0));
  const newId = new Int32Array(V);
  const sortedVocabulary: string[] = new Array(V);
  for (let k = 0; k < V; k++) {
    newId[order[k]!] = k;
    sortedVocabulary[k] = vocabulary[order[k]!]!;
  }
  const termOfWord = tokens.array.subarray(0, tokens.size);
  for (let p = 0; p < termOfWord.length; p++) if (termOfWord[p]! >= 0) termOfWord[p] = newId[termOfWord[p]!]!;

  const csr = (terms: GrowableArray<Int32Array>, docs: GrowableArray<Int32Array>, tfs?: GrowableArray<Float32Array>) => {
    const start = new Int32Array(new SharedArrayBuffer((V + 1) * 4));
    for (let e = 0; e < terms.size; e++) start[newId[terms.array[e]!]! + 1]!++;
    for (let k = 0; k < V; k++) start[k + 1]! += start[k]!;
    const fill = start.slice(0, V);
    const d = n <= 65536 ? new Uint16Array(new SharedArrayBuffer(Math.max(1, terms.size) * 2), 0, terms.size) : new Int32Array(new SharedArrayBuffer(Math.max(1, terms.size) * 4), 0, terms.size);
    const w = tfs ? new Uint16Array(new SharedArrayBuffer(Math.max(1, terms.size) * 2), 0, terms.size) : undefined;
    for (let e = 0; e < terms.size; e++) {
      const k = fill[newId[terms.array[e]!]!]!++;
      d[k] = docs.array[e]!;
      if (w) w[k] = Math.min(65535, Math.round(2 * tfs!.array[e]!));
    }
    return { start, d, w };
  };
  const bodyPostings = csr(bodyTerms, bodyPages, bodyFrequencies);
  const titlePostings = csr(titleTerms, titlePages);
  const descriptionPostings = csr(descriptionTerms, descriptionPages);
  const headingPostings = csr(headingTerms, headingPages);
  const content = new Uint8Array(new SharedArrayBuffer(Math.max(1, bytes)), 0, bytes);
  const byUrl = new Int32Array(new SharedArrayBuffer(Math.max(1, n) * 4), 0, n);
  Array.from({ length: n }, (_, k) => k)
    .sort((a, b) => (pages[a]!.url < pages[b]!.url ? -1 : pages[a]!.url > pages[b]!.url ? 1 : a - b))
    .forEach((p, r) => (byUrl[r] = p));
  let off = 0;
  for (const c of chunks) {
    content.set(c, off);
    off += c.length;
  }
  const typo = segmentTypoIndex(sortedVocabulary, bodyPostings.start, titlePostings.start, headingPostings.start);
  return withSectionsAndStaticHits(termOfWord, {
    pageCount: n,
    pages,
    terms: sortedVocabulary,
    pagesByUrl: byUrl,
    bodyPostingsStart: bodyPostings.start,
    bodyPostingPages: bodyPostings.d,
    bodyPostingFrequencies: bodyPostings.w!,
    titlePostingsStart: titlePostings.start,
    titlePostingPages: titlePostings.d,
    descriptionPostingsStart: descriptionPostings.start,
    descriptionPostingPages: descriptionPostings.d,
    headingPostingsStart: headingPostings.start,
    headingPostingPages: headingPostings.d,
    pageLengths: shared(Float32Array, lengths, n),
    pageTypes: shared(Uint8Array, types, n),
    pageFirstWord: shared(Int32Array, firstWord, n + 1),
    wordCheckpoints: shared(Uint32Array, checkpoints.array, checkpoints.size),
    pageFirstByte: shared(Uint32Array, firstByte, n + 1),
    texts: inMemory(content),
    zeroWidthSeparated: shared(Uint8Array, zeroWidth, n),
    typoHashes: shared(Uint32Array, typo.hashes, typo.hashes.length),
    typoTermIds: shared(Uint32Array, typo.termIds, typo.termIds.length),
  });
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
