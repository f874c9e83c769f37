/**
 * The systems the evaluation compares, each a function from a query to page paths, best first, one per page:
 *   api-search  GET /api/search of the running gateway (limit 10);
 *   ask         GET /ask in list mode;
 *   pagefind    the site's own Pagefind bundle (the search box's engine), run in Node — Pagefind alone, without the
 *               gateway's ranking;
 *   minisearch  MiniSearch over the Markdown twins (title, headings, body; title boosted ×3, headings ×1.5; fuzzy 0.2,
 *               prefix; English stop words dropped), the usual client-side library a docs team would otherwise reach for.
 * And the generate-mode answer of /ask, with its citations and whether it said the docs do not cover the question.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, relative } from 'node:path';
import MiniSearch from 'minisearch';
import { checkBundles } from '../../../gateway/engine/pagefind-bundle.ts';
import { citedPath } from './metrics.ts';

export type Ranker = (query: string) => Promise<string[]>;

function uniquePages(urls: readonly string[]): string[] {
  return [...new Set(urls.map(citedPath))];
}

export async function getJson(url: string, attempts = 3): Promise<unknown> {
  let res: Response;
  let body: unknown;
  try {
    res = await fetch(url);
    body = await res.json();
  } catch (err) {
    // a keep-alive connection the server closed just as it was reused: retry on a fresh one
    if (attempts > 1) return getJson(url, attempts - 1);
    throw err;
  }
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

export function apiSearchRanker(gatewayUrl: string): Ranker {
  return async (query) => {
    const hits = (await getJson(`${gatewayUrl}/api/search?limit=10&query=${encodeURIComponent(query)}`)) as { url: string }[];
    return uniquePages(hits.map((h) => h.url));
  };
}

export function askRanker(gatewayUrl: string): Ranker {
  return async (query) => {
    const body = (await getJson(`${gatewayUrl}/ask?query=${encodeURIComponent(query)}`)) as { results: { url: string }[] };
    return uniquePages(body.results.map((r) => r.url));
  };
}

interface PagefindModule {
  options(o: { basePath: string }): Promise<void>;
  init(): Promise<void>;
  mergeIndex(url: string): Promise<void>;
  search(q: string): Promise<{ results: { data(): Promise<{ url: string }> }[] }>;
}

/**
 * Pagefind's browser bundle runs in Node too (fetch, WebAssembly, DecompressionStream); it fetches its index files
 * over HTTP, here from a loopback server of the bundle's own directory. Returns the ranker and a way to stop it.
 */
export async function pagefindRanker(siteDir: string): Promise<{ rank: Ranker; close: () => void }> {
  const bundle = join(siteDir, 'pagefind');
  const server = createServer((req, res) => {
    const name = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^[/\\]+/, '');
    // no keep-alive: on a loaded machine a reused connection races the server's idle timeout (ECONNRESET)
    readFile(join(bundle, name)).then(
      (bytes) => res.writeHead(200, { connection: 'close' }).end(bytes),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const pagefind = (await import(join(bundle, 'pagefind.js'))) as PagefindModule;
  await pagefind.options({ basePath: `http://127.0.0.1:${port}/` });
  await pagefind.init();
  // a site indexed in parts (src/integration/search-index.ts): the others merged, as the search box does
  for (const part of checkBundles(siteDir).slice(1)) await pagefind.mergeIndex(`http://127.0.0.1:${port}/${relative(bundle, part.dir)}/`);
  const rank: Ranker = async (query) => {
    const { results } = await pagefind.search(query);
    const data = await Promise.all(results.slice(0, 10).map((r) => r.data()));
    return uniquePages(data.map((d) => d.url));
  };
  return { rank, close: () => server.close() };
}

/** English function words, dropped as any docs team would (MiniSearch keeps every term by default). */
const MINISEARCH_STOPWORDS = new Set(
  'a an and are as at be by can do does for from how i if in into is it my of on or should so that the this to use using what when where which why will with you your'.split(' '),
);

interface TwinDoc { id: string; title: string; headings: string; text: string }

export function minisearchRanker(siteDir: string, pages: readonly { path: string; title: string; md: string }[]): Ranker {
  const docs: TwinDoc[] = pages.map((p) => {
    const md = readFileSync(join(siteDir, p.md), 'utf8');
    const headings = md.split('\n').filter((l) => /^#{2,6}\s/.test(l)).map((l) => l.replace(/^#+\s*/, ''));
    return { id: p.path, title: p.title, headings: headings.join('\n'), text: md };
  });
  const index = new MiniSearch<TwinDoc>({
    fields: ['title', 'headings', 'text'],
    processTerm: (term) => (MINISEARCH_STOPWORDS.has(term.toLowerCase()) ? null : term.toLowerCase()),
    searchOptions: { boost: { title: 3, headings: 1.5 }, fuzzy: 0.2, prefix: true },
  });
  index.addAll(docs);
  return async (query) => index.search(query).slice(0, 10).map((r) => r.id as string);
}

export interface GeneratedAnswer {
  text: string;
  citations: string[];
  notCovered: boolean;
}

/** "Not covered": `_meta.answer_status` when the gateway reports it, else the extractive answerer's own wording. */
export async function generateAnswer(gatewayUrl: string, query: string): Promise<GeneratedAnswer> {
  const body = (await getJson(`${gatewayUrl}/ask?mode=generate&query=${encodeURIComponent(query)}`)) as {
    answer?: string;
    citations?: string[];
    _meta: { answer_status?: string };
  };
  const text = body.answer ?? '';
  const notCovered = body._meta.answer_status !== undefined ? body._meta.answer_status === 'not_covered' : /do not (cover|answer) this/i.test(text);
  return { text, citations: body.citations ?? [], notCovered };
}
