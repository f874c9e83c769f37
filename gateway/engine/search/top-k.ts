/**
 * Collection: the candidates of a query in ranking order — title tier first, score desc, url asc, a strict total
 * order — either all of them (one native sort of packed keys) or only the first k (a bounded heap).
 *
 * Why two ways: sorting every match of a common term (thousands) costs more than the rest of a query, while a
 * limited search needs only a short prefix (engine.ts RANK_AHEAD × (offset + limit)); a heap of k keeps that cost ∝ matches × log k. Both give the
 * same pages in the same order, so a prefix from the heap is a prefix of the full sort.
 */

/** What the order compares: per page its final score and title-tier flag, and the url ranks. */
export interface RankingKeys {
  scores: Float64Array;
  /** Title terms matched per page; a page is in the title tier when it matched all `termCount`. */
  titleMatches: Uint8Array;
  termCount: number;
  urlRank: Int32Array;
  byUrlRank: Int32Array;
  urlRankBits: number;
}

/** Largest k selected with the heap; beyond, the full sort is as cheap. */
export const TOP_K_MAX = 1024;

const scoreBits = new Float64Array(1);
const scoreWords = new Uint32Array(scoreBits.buffer);

/** The first k of `candidates[0, n)` in ranking order: a heap of the k best seen, rooted at the worst of them. */
export function selectTop(keys: RankingKeys, candidates: Int32Array, n: number, k: number): Int32Array {
  const { scores, titleMatches, termCount, urlRank } = keys;
  // a ranks after b
  const worse = (a: number, b: number): boolean => {
    const ta = titleMatches[a] === termCount;
    if (ta !== (titleMatches[b] === termCount)) return !ta;
    const fa = scores[a]!;
    const fb = scores[b]!;
    return fa !== fb ? fa < fb : urlRank[a]! > urlRank[b]!;
  };
  const heap = new Int32Array(k);
  let size = 0;
  const down = (at: number): void => {
    const d = heap[at]!;
    for (;;) {
      let c = 2 * at + 1;
      if (c >= size) break;
      if (c + 1 < size && worse(heap[c + 1]!, heap[c]!)) c++;
      if (!worse(heap[c]!, d)) break;
      heap[at] = heap[c]!;
      at = c;
    }
    heap[at] = d;
  };
  if (k === 0) return heap;
  let j = 0;
  for (; j < n && size < k; j++) {
    const d = candidates[j]!;
    let at = size++;
    while (at > 0) {
      const p = (at - 1) >> 1;
      if (!worse(d, heap[p]!)) break;
      heap[at] = heap[p]!;
      at = p;
    }
    heap[at] = d;
  }
  // the heap is full: most candidates rank after its root, which a comparison with the root's keys (held in locals
  // until the root changes) rejects without calling worse()
  let rootTitle = titleMatches[heap[0]!] === termCount;
  let rootScore = scores[heap[0]!]!;
  for (; j < n; j++) {
    const d = candidates[j]!;
    const title = titleMatches[d] === termCount;
    if (title === rootTitle) {
      const score = scores[d]!;
      if (score < rootScore || (score === rootScore && urlRank[d]! > urlRank[heap[0]!]!)) continue;
    } else if (!title) continue;
    heap[0] = d;
    down(0);
    rootTitle = titleMatches[heap[0]!] === termCount;
    rootScore = scores[heap[0]!]!;
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/**
 * Every candidate in ranking order. One native sort of packed 64-bit keys [not title tier | ~score bits, truncated
 * | url rank]; runs with an equal truncated score are re-sorted exactly.
 */
export function sortAll(keys: RankingKeys, candidates: Int32Array, n: number): Int32Array {
  const { scores, titleMatches, termCount, urlRank, byUrlRank, urlRankBits: bits } = keys;
  const packed = new BigUint64Array(n);
  const words = new Uint32Array(packed.buffer);
  const low = bits >= 32 ? 0 : ~((1 << bits) - 1);
  for (let k = 0; k < n; k++) {
    const d = candidates[k]!;
    scoreBits[0] = scores[d]!; // ≥ 0: its bits order like the number
    words[2 * k] = ((~scoreWords[0]! & low) | urlRank[d]!) >>> 0;
    words[2 * k + 1] = ((titleMatches[d] === termCount ? 0 : 0x80000000) | (~scoreWords[1]! & 0x7fffffff)) >>> 0;
  }
  packed.sort();
  const docs = new Int32Array(n);
  const mask = bits >= 32 ? 0xffffffff : (1 << bits) - 1;
  for (let k = 0; k < n; k++) docs[k] = byUrlRank[words[2 * k]! & mask]!;
  for (let a = 0; a < n; ) {
    let b = a + 1;
    while (b < n && words[2 * b + 1] === words[2 * a + 1] && (words[2 * b]! & low) === (words[2 * a]! & low)) b++;
    if (b - a > 1) {
      const run = docs.subarray(a, b);
      let same = true;
      for (let j = 1; j < run.length && same; j++) same = scores[run[j]!] === scores[run[0]!];
      if (!same) run.sort((x, y) => scores[y]! - scores[x]! || urlRank[x]! - urlRank[y]!);
    }
    a = b;
  }
  return docs;
}
