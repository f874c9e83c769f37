// Retrieval over the portfolio tree (DIST_DIR/portfolio): the search engine ranks the
// pages, asked the way the docs /ask asks it (match 'any': a question rarely has all of
// its words on one page), and each source handed to the answerer carries the page's whole
// Markdown twin (portfolio pages are short), so the model sees complete facts rather than
// snippets.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from '../engine/manifest.ts';
import type { Corrections, SearchEngine, TermPages } from '../engine/search.ts';
import { QUESTION_FILLER, STOPWORDS, queryTerms } from '../engine/text.ts';
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
  /**
   * Best pages for a question, best first (at most `limit`); the home page when nothing matches. With them, what the
   * question's misspelt words stand for and how common its words are (the engine's corrections and term pages, for
   * the answerer).
   */
  retrieve(question: string, opts?: { limit?: number; signal?: AbortSignal }): Promise<Retrieved>;
}

export interface Retrieved {
  pages: CorpusPage[];
  corrections: Corrections;
  termPages: TermPages;
  /** The question as searched: without the owner's name unless only stop words and question filler were left (the answerer's focus). */
  searched: string;
}

/** Characters of one page handed to the answerer. */
const MAX_SOURCE_CHARS = 6000;

/**
 * The question without the site owner's name: on a portfolio every page is about its owner,
 * so the name selects nothing, yet a page that happens to repeat it would outrank the page
 * the rest of the question is about ("What does Robin write about?" is a question about writing).
 */
export function withoutOwnerName(question: string, ownerName: string): string {
  const words = ownerName
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (!words.length) return question;
  return question.replace(new RegExp(`(?<![\\p{L}\\p{N}])(${words.join('|')})(['’]s)?(?![\\p{L}\\p{N}])`, 'giu'), ' ').replace(/\s+/g, ' ').trim();
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

export async function loadCorpus(manifest: Manifest, siteDir: string, siteUrl: string, engine: SearchEngine): Promise<Corpus> {
  const pages = new Map<string, CorpusPage>();
  for (const p of manifest.pages) {
    const markdown = await readFile(join(siteDir, p.md), 'utf8');
    pages.set(p.path, { path: p.path, title: p.title, description: p.description, url: `${siteUrl}${p.path === '/' ? '/' : p.path}`, markdown });
  }
  const home = pages.get('/') ?? [...pages.values()][0];
  /** The home page's title names the site's owner (the system prompt says so too). */
  const owner = home?.title ?? '';

  return {
    manifest,
    pages,
    async retrieve(question, opts = {}) {
      const limit = opts.limit ?? 3;
      // The engine ranks, through the same call as the docs /ask: pages matching any of the question's terms.
      const ask = (query: string) => engine.search(query, { limit: limit * 4, match: 'any', signal: opts.signal });
      // without the owner's name unless only stop words and question filler are left ("Who is Robin?", "Describe Robin")
      const focused = withoutOwnerName(question, owner);
      const hasContent = queryTerms(focused).some((t) => !STOPWORDS.has(t) && !QUESTION_FILLER.has(t));
      let searched = hasContent ? focused : question;
      let found = await ask(searched);
      if (found.hits.length === 0 && searched !== question) found = await ask((searched = question));
      const { hits, corrections, termPages } = found;
      const ranked: CorpusPage[] = [];
      for (const hit of hits) {
        const page = pages.get(hit.path);
        if (page && !ranked.includes(page)) ranked.push(page);
        if (ranked.length >= limit) break;
      }
      if (ranked.length === 0 && home) ranked.push(home);
      return { pages: ranked, corrections, termPages, searched };
    },
  };
}
