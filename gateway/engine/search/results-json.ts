/**
 * The search API's result array as bytes: `[{"id":…,"url":…,"type":…,"title":…,"content":…,"score":…},…]`, byte
 * for byte what JSON.stringify of those objects gives, for a slice of a ranking.
 *
 * Why bytes built in a worker: an unlimited answer for a common term is thousands of hits (≈2 MB); the first
 * FULL_EXCERPT_RANKS are rendered for the query (hits.ts), every later one is its chosen section's precomputed static
 * hit copied from the segment plus its score, into one exactly-sized buffer that is transferred to the main thread
 * without a copy or a parse.
 */
import type { Documents } from './documents.ts';
import { type HitRenderer, PAGE_SECTION, hitJsonUntilScore } from './hits.ts';
import type { SectionChooser } from './sections.ts';
import { FULL_EXCERPT_RANKS, STATIC_WORDS } from './segment.ts';
import { BoundedMemo } from '../lru.ts';

/** Bound of the per-worker memo of static hits rendered on demand (≈350 bytes each: ≤ ≈12 MB per worker). */
const STATIC_MEMO_MAX = 30_000;

export class ResultsWriter {
  private readonly documents: Documents;
  private readonly sections: SectionChooser;
  private readonly hits: HitRenderer;
  /** Buffer views of the static hit bytes (Buffer.copy: one native copy per hit, no view object per hit). */
  private readonly staticHitBuffers: Buffer[];
  /** Static hits of segments whose stored ones were rendered with another STATIC_WORDS. */
  private readonly staticMemo = new BoundedMemo<number, string>(STATIC_MEMO_MAX);

  constructor(documents: Documents, sections: SectionChooser, hits: HitRenderer) {
    this.documents = documents;
    this.sections = sections;
    this.hits = hits;
    this.staticHitBuffers = documents.segments.map((s) => Buffer.from(s.staticHitBytes.buffer, s.staticHitBytes.byteOffset, s.staticHitBytes.byteLength));
  }

  /**
   * The JSON array of ranked pages `docs` (with their scores and title matches) that start at rank `fromRank`, as
   * UTF-8 bytes in a fresh (transferable) ArrayBuffer.
   */
  bytes(docs: Int32Array, scores: Float64Array, titleMatch: Uint8Array, fromRank: number, sets: Uint8Array[]): Uint8Array<ArrayBuffer> {
    const n = docs.length;
    if (n === 0) return new Uint8Array(Buffer.from('[]'));
    const nHead = Math.max(0, Math.min(n, FULL_EXCERPT_RANKS - fromRank));
    const parts = new Array<string>(nHead);
    for (let k = 0; k < nHead; k++) {
      const d = docs[k]!;
      const h = this.hits.hit(d, scores[k]!, titleMatch[k] === 1, sets, true);
      parts[k] = `${hitJsonUntilScore(h, this.documents.titleJson(d))}${JSON.stringify(scores[k]!)}}`;
    }
    const headStr = `[${parts.join(',')}`;
    const nTail = n - nHead;
    // tail: per hit a byte range of a segment's static hits (segment k, [a, b)) or a memo string (fallback)
    const tailSegment = new Int32Array(nTail);
    const tailFrom = new Uint32Array(nTail);
    const tailTo = new Uint32Array(nTail);
    let strs: string[] | undefined;
    // exact size: '[', the head, per tail hit its bytes, score, '}' and a ',' before it unless it comes first; ']'
    let size = Buffer.byteLength(headStr, 'utf8') + 1 - (nHead === 0 && nTail > 0 ? 1 : 0);
    this.sections.accumulate(sets, nTail);
    const { segments, segmentBase } = this.documents;
    const nSeg = segments.length;
    for (let t = 0; t < nTail; t++) {
      const d = docs[nHead + t]!;
      const tm = titleMatch[nHead + t] === 1;
      let k = nSeg - 1;
      while (k > 0 && segmentBase[k]! > d) k--;
      const s = segments[k]!;
      const i = d - segmentBase[k]!;
      let section = PAGE_SECTION;
      let headingHit = 0;
      if (!tm) {
        section = this.sections.choose(s, i, k, sets);
        headingHit = this.sections.headingHit;
      }
      if (s.staticHitWords[0] === STATIC_WORDS && s.staticHitOffsets.length > 1) {
        const slot = 2 * s.pageFirstSection[i]! + (section === PAGE_SECTION ? 1 : section === -1 ? 0 : 2 * (section + 1) + headingHit);
        tailSegment[t] = k;
        tailFrom[t] = s.staticHitOffsets[slot]!;
        tailTo[t] = s.staticHitOffsets[slot + 1]!;
        size += tailTo[t]! - tailFrom[t]! + scoreLength(scores[nHead + t]!) + 2;
      } else {
        tailSegment[t] = -1;
        strs ??= [];
        const str = this.memoStatic(d, tm, section, headingHit);
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
      const k = tailSegment[t]!;
      if (k >= 0) pos += this.staticHitBuffers[k]!.copy(out, pos, tailFrom[t]!, tailTo[t]!); // the hit up to `"score":`
      else pos += out.write(strs![t]!, pos, 'utf8');
      pos = writeScore(out, pos, scores[nHead + t]!);
      out[pos++] = 0x7d; // '}'
    }
    out[pos++] = 0x5d; // ']'
    this.sections.release(sets);
    if (pos !== size) throw new Error(`search: result bytes ${pos} ≠ computed size ${size}`);
    return new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, pos);
  }

  private memoStatic(doc: number, titleMatch: boolean, section: number, headingHit: number): string {
    const key = (doc * 65536 + (section + 2)) * 2 + headingHit;
    return this.staticMemo.get(key) ?? this.staticMemo.remember(key, this.hits.staticJson(doc, titleMatch, section, headingHit === 1));
  }
}

/**
 * The length of JSON.stringify(score) in bytes. Scores are multiples of 1e-6 in [0, 1] (the query rounds them so),
 * whose shortest round-trip text is "0", "1" or "0." and up to six digits without trailing zeros; anything else
 * goes through JSON.stringify.
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
