/**
 * Equivalence of the engine's answers across code changes: over a generated corpus (equivalence-corpus.ts), a wide
 * set of queries — single and multi word, prefixes, rare and common words, tags, limits, offsets (cursor pages),
 * both match modes — is answered by the search API's body (searchBody) and by the hits /ask and MCP use (search),
 * and the hits, their order and the exact bytes are compared with a golden file recorded from the engine as it was.
 * A refactoring must leave every answer byte for byte the same; a deliberate ranking change re-records the file
 * (`UPDATE_GOLDEN=1 npx vitest run test/engine/equivalence.test.ts`) and says why in its commit.
 *
 * Each case runs on an engine with a result cache (answers from cached rankings and later pages of a ranking's
 * prefix) and on one without (every answer a worker round trip), which must agree with each other and the file.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchEngine, SearchOptions } from '../../gateway/engine/search.ts';
import { createSearchEngine } from '../../gateway/engine/search.ts';
import { equivalenceCorpus } from './equivalence-corpus.ts';
import { buildFixtureSite, closePagefind } from './fixture-bundle.ts';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden', 'search-equivalence.json');

interface Case { query: string; opts: Omit<SearchOptions, 'signal'> }
/** `top`: the first urls, readable in a diff; `order`: a hash of every url in order; `body`/`hits`: hashes of the bytes. */
interface Answer { total: number; count: number; top: string[]; order: string; body: string; hits: string }

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex').slice(0, 24);

function cases(words: string[]): Case[] {
  const queries = [
    words[0]!, words[1]!, words[2]!, words[5]!, // common words: most pages match
    'req', 'conf', 'dep', 'ca', // prefixes with many expansions
    words[40]!, words[300]!, words[880]!, 'café', 'cafe', 'über', // mid and rare, non-ASCII
    `${words[0]} ${words[1]}`, `${words[3]} ${words[20]}`, `${words[2]} ${words[4]} ${words[6]}`, `${words[10]} ${words[500]}`,
    'zzzqqq', 'the', 'Deploy, CONFIG!', `${words[1]}-${words[7]}`,
  ];
  const all: Omit<SearchOptions, 'signal'>[] = [
    {}, { limit: 10 }, { limit: 10, offset: 10 }, { limit: 25, offset: 20 }, { limit: 1 }, { limit: 100, offset: 50 },
    { limit: 0 }, { offset: 5 }, { limit: 10, offset: 5000 }, { limit: 7, offset: 63 },
    { tag: 'docs', limit: 10 }, { tag: 'skill' }, { tag: 'hook', limit: 5, offset: 5 },
  ];
  const any: Omit<SearchOptions, 'signal'>[] = [
    { match: 'any', limit: 5 }, { match: 'any', limit: 10, offset: 10 }, { match: 'any' }, { match: 'any', limit: 50, offset: 30 },
    { match: 'any', tag: 'agent', limit: 8 },
  ];
  const questions = [
    `how do I ${words[0]} the ${words[2]} ${words[3]}`, `what is ${words[1]} ${words[6]} ${words[300]}`, `${words[40]} ${words[880]} zzzqqq`,
  ];
  const out: Case[] = [];
  for (const query of queries) {
    for (const opts of all) out.push({ query, opts });
    for (const opts of any) out.push({ query, opts });
  }
  for (const query of questions) for (const opts of [...any, { limit: 10 }]) out.push({ query, opts });
  return out;
}

async function answer(engine: SearchEngine, c: Case): Promise<Answer> {
  const b = await engine.searchBody(c.query, c.opts);
  const s = await engine.search(c.query, c.opts);
  const parsed = JSON.parse(b.body.toString('utf8')) as { url: string }[];
  expect(s.total).toBe(b.total);
  expect(s.hits.map((h) => h.url)).toEqual(parsed.map((h) => h.url));
  const urls = parsed.map((h) => h.url);
  return { total: b.total, count: b.count, top: urls.slice(0, 10), order: sha(urls.join('\n')), body: sha(b.body), hits: sha(JSON.stringify(s.hits)) };
}

const keyOf = (c: Case) => `${c.query} ${JSON.stringify(c.opts)}`;

let root: string;
let words: string[];
let cached: SearchEngine;
let uncached: SearchEngine;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'engine-equivalence-'));
  const corpus = equivalenceCorpus();
  words = corpus.words;
  await buildFixtureSite(join(root, 'site'), corpus.pages);
  await closePagefind();
  cached = await createSearchEngine({ siteDir: join(root, 'site'), workers: 2, indexCacheDir: false });
  uncached = await createSearchEngine({ siteDir: join(root, 'site'), workers: 1, indexCacheDir: false, cacheSize: 0 });
}, 120_000);

afterAll(async () => {
  await cached?.close();
  await uncached?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('engine equivalence over a generated corpus', () => {
  it('answers every case with the recorded hits, order and bytes (cached and uncached engines)', { timeout: 180_000 }, async () => {
    const got: Record<string, Answer> = {};
    for (const c of cases(words)) {
      const a = await answer(cached, c);
      expect(await answer(uncached, c), keyOf(c)).toEqual(a);
      got[keyOf(c)] = a;
    }
    // a second pass on the cached engine: answers from the cache are the same bytes
    for (const c of cases(words)) expect(await answer(cached, c), keyOf(c)).toEqual(got[keyOf(c)]);
    // the corpus reaches the paths worth covering: long rankings (static tail), several pages of them
    expect(Math.max(...Object.values(got).map((a) => a.total))).toBeGreaterThan(200);
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(GOLDEN)) {
      if (process.env.CI === 'true' && process.env.UPDATE_GOLDEN !== '1') throw new Error(`golden file missing: ${GOLDEN}`);
      mkdirSync(dirname(GOLDEN), { recursive: true });
      writeFileSync(GOLDEN, `${JSON.stringify(got, null, 1)}\n`);
    }
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, Answer>;
    expect(Object.keys(got)).toEqual(Object.keys(golden));
    for (const k of Object.keys(golden)) expect(got[k], k).toEqual(golden[k]);
  });

  it('limited pages concatenated are the unlimited answer: same bytes, same total on every page (top-k and later cursor pages)', { timeout: 180_000 }, async () => {
    // queries no case above asked, so the cached engine meets them cold and extends their ranking page by page
    const walks: Case[] = [
      { query: words[3]!, opts: {} }, { query: words[8]!, opts: {} }, { query: 'ser', opts: {} }, { query: `${words[0]} ${words[9]}`, opts: {} },
      { query: words[3]!, opts: { tag: 'docs' } }, { query: words[8]!, opts: { match: 'any' } },
      { query: `how to ${words[4]} ${words[11]} ${words[200]}`, opts: { match: 'any' } },
    ];
    const join = (bodies: Buffer[]) => `[${bodies.map((b) => b.toString('utf8').slice(1, -1)).filter((x) => x.length > 0).join(',')}]`;
    for (const { query, opts } of walks) {
      const whole = await uncached.searchBody(query, opts);
      const wholeHits = JSON.stringify((await uncached.search(query, opts)).hits);
      expect(whole.total, query).toBeGreaterThan(30);
      for (const size of [1, 7, 10, 25, 100]) {
        const end = size === 1 ? 40 : whole.total;
        for (const engine of [cached, uncached]) {
          const bodies: Buffer[] = [];
          const hits: string[] = [];
          for (let offset = 0; offset < end; offset += size) {
            const page = await engine.searchBody(query, { ...opts, offset, limit: size });
            expect(page.total).toBe(whole.total);
            bodies.push(page.body);
            const h = await engine.search(query, { ...opts, offset, limit: size });
            expect(h.total).toBe(whole.total);
            hits.push(JSON.stringify(h.hits).slice(1, -1));
          }
          const label = `${query} ${JSON.stringify(opts)} by ${size}`;
          if (end === whole.total) {
            expect(join(bodies), label).toBe(whole.body.toString('utf8'));
            expect(`[${hits.filter((x) => x.length > 0).join(',')}]`, label).toBe(wholeHits);
          } else {
            expect(join(bodies), label).toBe(`[${(JSON.parse(whole.body.toString('utf8')) as unknown[]).slice(0, end).map((x) => JSON.stringify(x)).join(',')}]`);
          }
        }
      }
    }
  });
});
