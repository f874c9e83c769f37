/**
 * A deterministic generated corpus for the engine's equivalence test: a few hundred pages with a Zipf-like
 * vocabulary, headings with anchors, every content type, compound identifiers sharing long prefixes (so a prefix
 * query has hundreds of expansions and takes the threshold path of the term dictionary), non-ASCII words, and
 * common words matching most pages (so rankings reach the static-excerpt tail and the section accumulation).
 * The same seed always yields the same pages: the recorded answers stay comparable across code changes.
 */
import type { FixturePage } from './fixture-bundle.ts';

const TYPES: FixturePage['type'][] = ['docs', 'skill', 'agent', 'hook', 'composition'];
const SECTIONS = ['guides', 'reference', 'recipes', 'concepts', 'operations'];

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sta', 'ter', 'vin', 'dor', 'pel', 'qua', 'zen', 'bri', 'cho', 'fa', 'gu'];
const COMMON = ['deploy', 'config', 'widget', 'server', 'request', 'install', 'cache', 'token', 'index', 'search', 'plugin', 'route'];
const NON_ASCII = ['café', 'naïve', 'über', 'straße', 'résumé', 'déjà'];

export interface Corpus {
  pages: FixturePage[];
  /** Words by frequency rank (the most frequent first). */
  words: string[];
}

export function equivalenceCorpus(nPages = 360, seed = 20261125): Corpus {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const words: string[] = [...COMMON];
  const seen = new Set(words);
  while (words.length < 900) {
    let w = '';
    const n = 2 + Math.floor(rand() * 3);
    for (let k = 0; k < n; k++) w += pick(SYLLABLES);
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  // compound identifiers: 'requestHandler…' style words sharing the prefix of a common word
  for (let k = 0; k < 700; k++) words.push(`${COMMON[k % 3]}${pick(SYLLABLES)}${k}`);
  words.push(...NON_ASCII);
  // Zipf-like draw: rank r with weight 1 / (r + 1)
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 0; r < words.length; r++) cumulative.push((sum += 1 / (r + 1)));
  const draw = (): string => {
    const x = rand() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (cumulative[m]! < x) lo = m + 1;
      else hi = m;
    }
    return words[lo]!;
  };
  const sentence = (n: number): string => Array.from({ length: n }, draw).join(' ');
  const pages: FixturePage[] = [];
  for (let i = 0; i < nPages; i++) {
    const section = SECTIONS[i % SECTIONS.length]!;
    const type = TYPES[Math.floor(rand() * TYPES.length)]!;
    const title = sentence(1 + Math.floor(rand() * 3)).replace(/^./, (c) => c.toUpperCase());
    let body = `<p>${sentence(8 + Math.floor(rand() * 40))}.</p>`;
    const nHeadings = Math.floor(rand() * 5);
    for (let h = 0; h < nHeadings; h++) {
      const tag = rand() < 0.7 ? 'h2' : 'h3';
      body += `\n<${tag} id="part-${h}">${sentence(1 + Math.floor(rand() * 3))}</${tag}><p>${sentence(10 + Math.floor(rand() * 80))}.</p>`;
    }
    if (rand() < 0.1) body += `\n<p id="note-${i}">Note: ${sentence(6)}.</p>`;
    pages.push({ path: `/docs/${section}/p-${String(i).padStart(4, '0')}`, title, type, body });
  }
  return { pages, words };
}
