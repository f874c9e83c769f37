// Retrieval over the portfolio tree (DIST_DIR/portfolio): the search engine over its
// Pagefind bundle finds the pages, and each source handed to the answerer carries the
// page's whole Markdown twin (portfolio pages are short), so the model sees complete
// facts rather than snippets.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadManifest, type Manifest } from '../engine/manifest.ts';
import type { SearchEngine } from '../engine/search.ts';
import type { AnswerSource } from '../engine/answer.ts';

export interface CorpusPage {
  path: string;
  title: string;
  description: string;
  url: string;
  markdown: string;
}

export interface Corpus {
  readonly manifest: Manifest;
  readonly pages: Map<string, CorpusPage>;
  /** Best pages for a question, best first (at most `limit`); the home page when nothing matches. */
  retrieve(question: string, opts?: { limit?: number; signal?: AbortSignal }): Promise<CorpusPage[]>;
}

/** Characters of one page handed to the answerer. */
const MAX_SOURCE_CHARS = 6000;
const MAX_TERMS = 8;

const stopwords = new Set(
  ('a about above after again all am an and any are as at be been being but by can could did do does doing for from had has have having he her him his how i if in into ' +
    'is it its just me more most my no not now of on or our out over own she should so some such than that the their them then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you your yours tell know please site page')
    .split(' '),
);

/** Significant words of a question, in order, without duplicates. */
export function questionTerms(question: string): string[] {
  const words = question
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 && !stopwords.has(w));
  return [...new Set(words)].slice(0, MAX_TERMS);
}

/** The twin without HTML comments (editor notes such as the example-content marker). */
function sourceText(markdown: string): string {
  const text = markdown.replace(/<!--[\s\S]*?-->\s*/g, '').trim();
  return text.length > MAX_SOURCE_CHARS ? `${text.slice(0, MAX_SOURCE_CHARS)}…` : text;
}

/** What the answerer reads: the whole page (without editor comments), capped. */
export function answerSource(p: CorpusPage): AnswerSource {
  return { url: p.url, title: p.title, content: sourceText(p.markdown) };
}

/** What API clients get back: title, URL and a short excerpt. */
export function apiSource(p: CorpusPage): { title: string; url: string; content: string } {
  const text = p.description || sourceText(p.markdown).replace(/^#.*$/gm, '').replace(/\s+/g, ' ').trim();
  return { title: p.title, url: p.url, content: text.length > 300 ? `${text.slice(0, 297)}…` : text };
}

export async function loadCorpus(siteDir: string, siteUrl: string, engine: SearchEngine): Promise<Corpus> {
  const manifest = await loadManifest(siteDir);
  const pages = new Map<string, CorpusPage>();
  for (const p of manifest.pages) {
    const markdown = await readFile(join(siteDir, p.md), 'utf8');
    pages.set(p.path, { path: p.path, title: p.title, description: p.description, url: `${siteUrl}${p.path === '/' ? '/' : p.path}`, markdown });
  }
  const home = pages.get('/') ?? [...pages.values()][0];

  return {
    manifest,
    pages,
    async retrieve(question, opts = {}) {
      const limit = opts.limit ?? 3;
      // Pages ranked by how many question terms they contain, then by summed relevance;
      // a page matching the whole question (the engine's AND query) ranks first.
      const rank = new Map<string, { terms: number; score: number; all: boolean }>();
      const bump = (path: string, score: number, all: boolean) => {
        const r = rank.get(path) ?? { terms: 0, score: 0, all: false };
        if (all) r.all = true;
        else r.terms++;
        r.score += score;
        rank.set(path, r);
      };
      const terms = questionTerms(question);
      const searches = [
        engine.search(terms.join(' ') || question, { limit: 50, signal: opts.signal }).then((res) => ({ res, all: true })),
        ...(terms.length > 1 ? terms.map((t) => engine.search(t, { limit: 50, signal: opts.signal }).then((res) => ({ res, all: false }))) : []),
      ];
      for (const { res, all } of await Promise.all(searches)) {
        const best = new Map<string, number>();
        for (const hit of res.hits) best.set(hit.path, Math.max(best.get(hit.path) ?? 0, hit.score));
        for (const [path, score] of best) bump(path, score, all);
      }
      const ranked = [...rank.entries()]
        .filter(([path]) => pages.has(path))
        .sort(([pa, a], [pb, b]) => Number(b.all) - Number(a.all) || b.terms - a.terms || b.score - a.score || pa.localeCompare(pb))
        .slice(0, limit)
        .map(([path]) => pages.get(path)!);
      if (ranked.length === 0 && home) ranked.push(home);
      return ranked;
    },
  };
}
