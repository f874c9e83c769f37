// GET /api/search on the real gateway: results, headers, pagination walks, tags,
// cursor errors and every 400.
import { describe, expect, it } from 'vitest';
import { SearchResults } from '../../gateway/contract/docs-api.ts';
import { fixtureBuild } from '../helpers/manifest.ts';
import { expectApiHeaders, expectProblem, expectValid, parseLinks, useGateway } from './helpers.ts';

const { distDir, manifest, site } = fixtureBuild();
const gw = useGateway(distDir);

const search = (qs: string, init?: RequestInit) => fetch(`${gw.url}/api/search?${qs}`, init);

async function results(qs: string) {
  const res = await search(qs);
  expect(res.status, await res.clone().text()).toBe(200);
  return { res, hits: expectValid(SearchResults, await res.json()), total: Number(res.headers.get('x-total-count')) };
}

/** A query matching at least `min` hits in the fixture. */
async function broadQuery(min: number): Promise<string> {
  for (const q of ['api', 'the', 'docs', 'request', 'page']) {
    const { total } = await results(`query=${q}`);
    if (total >= min) return q;
  }
  throw new Error(`no fixture query with ${min} hits`);
}

describe('GET /api/search', () => {
  it('tolerates one typo in a word of 4+ characters and finds the same page; a 3-character misspelling does not fuzzy-match', async () => {
    const exact = await results('query=pagination');
    const typo = await results('query=pagnation');
    expect(exact.hits.length).toBeGreaterThan(0);
    expect(typo.hits.length).toBeGreaterThan(0);
    expect(typo.hits[0]!.url.split('#')[0]).toBe(exact.hits[0]!.url.split('#')[0]);
    // "page" is on every page: its 4-character misspelling (one swap), unknown to the index, finds them
    const four = await results('query=pgae');
    expect(four.total).toBe((await results('query=page')).total);
    // 3 characters are too few to guess from
    const short = await results('query=pge');
    expect(short.total).toBe(0);
  });

  it('ranks a question by coverage: results although no page holds every word, the page that answers it first', async () => {
    // "how", "do", "I" are stop words, "way" is question filler; no fixture page holds all of the rest
    const question = 'is there a way to walk every page of the results with a cursor';
    const { hits, total } = await results(`query=${encodeURIComponent(question)}`);
    expect(hits.length).toBeGreaterThan(0);
    expect(total).toBe(hits.length);
    expect(hits.slice(0, 3).map((h) => h.url.split('#')[0])).toContain('/docs/api/search');
    // limited pages walk the same ranking, with the same total on every page
    const first = await results(`query=${encodeURIComponent(question)}&limit=5`);
    expect(first.total).toBe(total);
    expect(first.hits.map((h) => h.id)).toEqual(hits.slice(0, 5).map((h) => h.id));
    const next = await results(`query=${encodeURIComponent(question)}&cursor=${encodeURIComponent(first.res.headers.get('x-next-cursor')!)}`);
    expect(next.total).toBe(total);
    expect(next.hits.map((h) => h.id)).toEqual(hits.slice(5, 10).map((h) => h.id));
  });

  it('returns ranked hits with the contract fields and X-Total-Count', async () => {
    const page = manifest.pages.find((p) => p.path === '/docs/api/search') ?? manifest.pages[0]!;
    const { res, hits, total } = await results(`query=${encodeURIComponent(page.title)}`);
    expectApiHeaders(res.headers);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(hits.length).toBeGreaterThan(0);
    expect(total).toBe(hits.length);
    for (const h of hits) {
      expect(h.url).toMatch(/^\/docs\/[a-z0-9-]+\/[a-z0-9-]+(#.+)?$/);
      expect(['page', 'heading', 'text']).toContain(h.type);
      expect(h.content).not.toMatch(/<[a-z][^>]*>/i);
      expect(h.score).toBeGreaterThanOrEqual(0);
      expect(h.score).toBeLessThanOrEqual(1);
      // Headings always point at their anchor (text before the first heading has none).
      if (h.type === 'heading') expect(h.url).toContain('#');
    }
    // One result per page, as its best match.
    expect(new Set(hits.map((h) => h.url.split('#')[0])).size).toBe(hits.length);
    const scores = hits.map((h) => h.score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // The page whose title we searched is among the top hits.
    expect(hits.slice(0, 5).map((h) => h.url.split('#')[0])).toContain(page.path);
    // Without limit: everything, no next page.
    expect(res.headers.get('x-next-cursor')).toBeNull();
    expect(parseLinks(res.headers.get('link')).find((l) => l.rel === 'next')).toBeUndefined();
  });

  it('gives the same ids for the same content on every call', async () => {
    const a = await results('query=rate%20limit');
    const b = await results('query=rate%20limit');
    expect(b.hits).toEqual(a.hits);
  });

  it('answers an unknown word with an empty array and X-Total-Count 0', async () => {
    const { hits, total, res } = await results('query=zzqxjvunmatched');
    expect(hits).toEqual([]);
    expect(total).toBe(0);
    expect(res.headers.get('x-next-cursor')).toBeNull();
  });

  it('walks every page with limit and cursor: no overlap, no gap, stable totals', async () => {
    const q = await broadQuery(7);
    const all = await results(`query=${q}`);
    for (const limit of [1, 3]) {
      const seen: string[] = [];
      let qs = `query=${q}&limit=${limit}`;
      for (let n = 0; n < 200; n++) {
        const { res, hits, total } = await results(qs);
        expect(total).toBe(all.total);
        expect(hits.length).toBeLessThanOrEqual(limit);
        seen.push(...hits.map((h) => h.id));
        const cursor = res.headers.get('x-next-cursor');
        const next = parseLinks(res.headers.get('link')).find((l) => l.rel === 'next');
        if (!cursor) {
          expect(next).toBeUndefined();
          break;
        }
        expect(hits.length).toBe(limit);
        // The Link target is the same request with the cursor: follow it as is.
        expect(next?.url).toBeDefined();
        const nextUrl = new URL(next!.url, gw.url);
        expect(nextUrl.pathname).toBe('/api/search');
        expect(nextUrl.searchParams.get('cursor')).toBe(cursor);
        qs = nextUrl.searchParams.toString();
      }
      expect(seen).toEqual(all.hits.map((h) => h.id));
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it('keeps the cursor working without repeating limit (the cursor carries the page size)', async () => {
    const q = await broadQuery(4);
    const first = await results(`query=${q}&limit=2`);
    const cursor = first.res.headers.get('x-next-cursor')!;
    const second = await results(`query=${q}&cursor=${encodeURIComponent(cursor)}`);
    expect(second.hits.length).toBe(2);
    const all = await results(`query=${q}`);
    expect(second.hits.map((h) => h.id)).toEqual(all.hits.slice(2, 4).map((h) => h.id));
  });

  it('serves the same under /api/v1/search', async () => {
    const a = await results('query=install&limit=3');
    const res = await fetch(`${gw.url}/api/v1/search?query=install&limit=3`);
    expect(res.status).toBe(200);
    expectApiHeaders(res.headers);
    expect(expectValid(SearchResults, await res.json())).toEqual(a.hits);
    const next = parseLinks(res.headers.get('link')).find((l) => l.rel === 'next');
    if (next) expect(next.url.startsWith('/api/v1/search?')).toBe(true);
  });

  it('filters by tag: only pages of that content type', async () => {
    const typeOf = new Map(manifest.pages.map((p) => [p.path, p.type]));
    const types = [...new Set(manifest.pages.map((p) => p.type))];
    expect(types.length).toBe(5);
    for (const tag of types) {
      // Search for a word of the title of a page of that type, so the filter has something to keep.
      const page = manifest.pages.find((p) => p.type === tag)!;
      const word = page.title.split(/\s+/).find((w) => w.length > 3) ?? page.title;
      const { hits, total } = await results(`query=${encodeURIComponent(word)}&tag=${tag}`);
      expect(hits.length).toBeGreaterThan(0);
      expect(total).toBe(hits.length);
      for (const h of hits) expect(typeOf.get(h.url.split('#')[0]!)).toBe(tag);
      const unfiltered = await results(`query=${encodeURIComponent(word)}`);
      expect(unfiltered.total).toBeGreaterThanOrEqual(total);
    }
  });

  it('400 Missing query parameter for a missing, empty or blank query', async () => {
    for (const qs of ['', 'query=', 'query=%20%20', 'limit=3']) {
      const res = await search(qs);
      expectApiHeaders(res.headers);
      const body = await expectProblem(res, 'missing-query-parameter', site, '/api/search');
      expect(body.detail).toMatch(/`query` is required and must be a non-empty string/);
    }
  });

  it('400 Invalid parameter for bad limit, tag or repeated parameters', async () => {
    for (const qs of ['query=a&limit=0', 'query=a&limit=101', 'query=a&limit=abc', 'query=a&limit=1.5', 'query=a&limit=-1', 'query=a&tag=blog', 'query=a&tag=Docs', 'query=a&query=b', 'query=a&limit=2&limit=3']) {
      const res = await search(qs);
      const body = await expectProblem(res, 'invalid-parameter', site, '/api/search');
      expect(body.detail).toMatch(/`(limit|tag|query)`/);
    }
    // The boundaries themselves are fine.
    expect((await search('query=api&limit=1')).status).toBe(200);
    expect((await search('query=api&limit=100')).status).toBe(200);
  });

  it('400 Invalid cursor for malformed, altered and foreign cursors', async () => {
    const q = await broadQuery(3);
    const first = await results(`query=${q}&limit=1`);
    const cursor = first.res.headers.get('x-next-cursor')!;
    expect(cursor).toMatch(/^[A-Za-z0-9_.-]+$/);
    const [payload, check] = cursor.split('.');
    const json = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...json, o: json.o + 1 })).toString('base64url');
    const cases: [string, RegExp][] = [
      ['not-a-cursor', /not a cursor/],
      [`${payload}.${check!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`, /altered/],
      [`${forged}.${check}`, /altered/],
      [cursor.slice(0, -3), /not a cursor|altered/],
    ];
    for (const [c, detail] of cases) {
      const body = await expectProblem(await search(`query=${q}&limit=1&cursor=${encodeURIComponent(c)}`), 'invalid-cursor', site);
      expect(body.detail).toMatch(detail);
    }
    // Another query or another tag: the fingerprint differs.
    for (const qs of [`query=${q}x&limit=1`, `query=${q}&limit=1&tag=skill`]) {
      const body = await expectProblem(await search(`${qs}&cursor=${encodeURIComponent(cursor)}`), 'invalid-cursor', site);
      expect(body.detail).toMatch(/another query, tag or build/);
    }
  });

  it('405 with Allow for other methods, and HEAD works', async () => {
    const res = await search('query=a', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await expectProblem(res, 'method-not-allowed', site);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const head = await search('query=install', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-total-count')).toMatch(/^\d+$/);
  });
});
