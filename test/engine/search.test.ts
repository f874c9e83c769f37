import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFile, bundlePageCount } from '../../gateway/engine/pagefind-bundle.ts';
import type { SearchEngine, SearchHit } from '../../gateway/engine/search.ts';
import { createSearchEngine, prepareSearchIndex } from '../../gateway/engine/search.ts';
import { SearchIndex } from '../../gateway/engine/search/search-index.ts';
import { EXCERPT_SCAN_WORDS, hitId } from '../../gateway/engine/search/hits.ts';
import { FULL_EXCERPT_RANKS } from '../../gateway/engine/search/segment.ts';
import { type ColdArray, inMemory } from '../../gateway/engine/search/cold-array.ts';
import { closeSegmentFile, openSegmentFile, segmentFromFile } from '../../gateway/engine/search/index-file.ts';
import { segmentCount } from '../../gateway/engine/search/index-cache.ts';
import { queryTerms } from '../../gateway/engine/text.ts';
import { loadManifest } from '../../gateway/engine/manifest.ts';
import { buildFixtureSite, closePagefind, fixturePages, page } from './fixture-bundle.ts';

let root: string;
let siteDir: string;
let site2Dir: string;
let cacheDir: string;
let engine: SearchEngine;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'engine-search-'));
  siteDir = join(root, 'site');
  site2Dir = join(root, 'site2');
  cacheDir = join(root, 'index-cache');
  await buildFixtureSite(siteDir, fixturePages());
  // a second build: same pages plus one more, different build id
  await buildFixtureSite(site2Dir, [...fixturePages(), page('/docs/getting-started/upgrade', 'Upgrade', 'docs', '<p>Upgrade the widget CLI.</p>')], 'fedcba9876543210');
  await closePagefind();
  // a stale fragment left over in a reused output directory must be ignored (the meta index is authoritative)
  writeFileSync(join(siteDir, 'pagefind', 'fragment', 'en_stale00.pf_fragment'), 'garbage');
  engine = await createSearchEngine({ siteDir, workers: 2, indexCacheDir: cacheDir });
}, 60_000);

afterAll(async () => {
  await engine?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const urls = (hits: SearchHit[]) => hits.map((h) => h.url);

describe('createSearchEngine', () => {
  it('builds a site in segments by its size, never by the machine alone: one up to 5,000 pages, one per core at most', () => {
    expect([1, 224, 5_000].map((pages) => segmentCount(pages, 4))).toEqual([1, 1, 1]);
    expect([5_001, 10_000, 20_000, 40_000].map((pages) => segmentCount(pages, 4))).toEqual([2, 2, 4, 4]);
    expect([10_000, 20_000].map((pages) => segmentCount(pages, 2))).toEqual([2, 2]);
    expect(segmentCount(20_000, 1)).toBe(1);
    expect([undefined, Number.NaN].map((pages) => segmentCount(pages, 3))).toEqual([3, 3]); // an entry without a count: one per builder
    expect(bundlePageCount([{ dir: 'x', entry: { version: '1', languages: { en: { hash: 'h', page_count: 4 }, fr: { hash: 'g', page_count: 2 } } } }])).toBe(6);
    expect(bundlePageCount([{ dir: 'x', entry: { version: '1', languages: { en: { hash: 'h', page_count: '4' as unknown as number } } } }])).toBeUndefined();
    // the fixture site is small: one segment file, whatever the cores of the machine running the tests
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.idx')).every((f) => f.endsWith('-0of1.idx'))).toBe(true);
  });

  it('rejects with a clear error when the bundle is missing (and the process survives)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'engine-empty-'));
    try {
      await expect(createSearchEngine({ siteDir: empty })).rejects.toThrow(/Pagefind bundle not found: .*pagefind-entry\.json/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('answers on the calling thread (workers: 0) exactly as its query workers do, for a small index only', async () => {
    const inThread = await createSearchEngine({ siteDir, workers: 0, indexCacheDir: cacheDir });
    try {
      expect(inThread.stats().workers).toBe(0);
      for (const q of ['widget', 'configuration options', 'instal', 'widgte cli']) {
        for (const o of [{}, { match: 'any' as const, limit: 3 }, { offset: 2, limit: 2 }]) {
          expect(await inThread.search(q, o), `${q} ${JSON.stringify(o)}`).toEqual(await engine.search(q, o));
          expect((await inThread.searchBody(q, o)).body.toString()).toBe((await engine.searchBody(q, o)).body.toString());
        }
      }
    } finally {
      await inThread.close();
    }
    const big = join(root, 'big');
    await buildFixtureSite(big, Array.from({ length: 51 }, (_, i) => page(`/docs/big/p${i}`, `Page ${i}`, 'docs', '<p>Widget page.</p>')));
    await closePagefind();
    await expect(createSearchEngine({ siteDir: big, workers: 0, indexCacheDir: false })).rejects.toThrow(/51 pages are too many to answer queries on the event loop/);
  });

  it('takes buildId from build-manifest.json and counts the indexed pages', async () => {
    expect(engine.buildId).toBe((await loadManifest(siteDir)).buildId);
    expect(engine.buildId).toBe('0123456789abcdef');
    expect(engine.pageCount).toBe(fixturePages().length);
    expect(engine.stats().workers).toBe(2);
  });

  it('loads the index cache on a restart of the same build', async () => {
    const again = await createSearchEngine({ siteDir, workers: 1, indexCacheDir: cacheDir });
    try {
      expect(again.stats().segmentsBuilt).toBe(0);
      const a = await again.search('installation');
      const b = await engine.search('installation');
      expect(a).toEqual(b);
    } finally {
      await again.close();
    }
  });

  it('prepareSearchIndex builds into the cache so the next start only loads', async () => {
    const dir = join(root, 'prepared-cache');
    const r = await prepareSearchIndex({ siteDir: site2Dir, indexCacheDir: dir });
    expect(r.built).toBeGreaterThan(0);
    const e = await createSearchEngine({ siteDir: site2Dir, workers: 1, indexCacheDir: dir });
    try {
      expect(e.stats().segmentsBuilt).toBe(0);
      expect(e.buildId).toBe('fedcba9876543210');
    } finally {
      await e.close();
    }
  });

  it('works without an index cache directory', async () => {
    const e = await createSearchEngine({ siteDir, workers: 1, indexCacheDir: false });
    try {
      expect(e.stats().segmentsBuilt).toBeGreaterThan(0);
      expect((await e.search('reviewer')).total).toBeGreaterThan(0);
    } finally {
      await e.close();
    }
  });
});

describe('search', () => {
  it('ranks title matches above body matches, one hit per page, best score 1', async () => {
    const r = await engine.search('installation');
    expect(r.hits[0]).toMatchObject({ url: '/docs/getting-started/installation', type: 'page', title: 'Installation', score: 1, pageType: 'docs', section: 'getting-started', path: '/docs/getting-started/installation' });
    const deploy = r.hits.find((h) => h.path === '/docs/skills/deploy');
    expect(deploy).toBeDefined();
    expect(deploy!.type).not.toBe('page');
    expect(new Set(r.hits.map((h) => h.path)).size).toBe(r.hits.length);
    expect(r.total).toBe(r.hits.length);
  });

  it('prefix and light stemming: "install" finds installing/installation pages', async () => {
    const r = await engine.search('install');
    expect(urls(r.hits).map((u) => u.split('#')[0])).toEqual(expect.arrayContaining(['/docs/getting-started/installation', '/docs/getting-started/configuration', '/docs/skills/deploy']));
  });

  it('heading hits point at the matching heading anchor', async () => {
    const r = await engine.search('plugins');
    expect(r.hits[0]).toMatchObject({ type: 'heading', url: '/docs/getting-started/configuration#install-plugins', path: '/docs/getting-started/configuration' });
    expect(r.hits[0]!.content).toMatch(/^Install plugins/);
  });

  it('text hits carry the nearest anchor', async () => {
    const r = await engine.search('npm 11');
    expect(r.hits[0]).toMatchObject({ type: 'text', url: '/docs/getting-started/installation#requirements' });
    const intro = await engine.search('anywhere');
    expect(intro.hits[0]).toMatchObject({ type: 'text', url: '/docs/getting-started/installation' });
  });

  it('content is a plain-text excerpt: no HTML markup or <mark>, entities decoded, literal text kept', async () => {
    const r = await engine.search('npm');
    for (const h of r.hits) {
      expect(h.content).not.toMatch(/<\/?(mark|p|h[1-6]|span|div|a|code|article)\b[^>]*>/i);
      expect(h.content).not.toMatch(/&(amp|lt|gt|quot|#\d+);/);
      expect(h.content.length).toBeGreaterThan(0);
    }
    expect(r.hits.map((h) => h.content).join(' ')).toContain('npm & friends');
    // the page text "Use &lt;target&gt; for …" is literal text, not markup
    expect((await engine.search('output directory')).hits[0]!.content).toContain('Use <target> for the output directory');
  });

  it(`a query excerpt looks for its matches in the first ${EXCERPT_SCAN_WORDS} words of a section, however long the page`, async () => {
    const long = join(root, 'long');
    const words = Array.from({ length: EXCERPT_SCAN_WORDS + 10_000 }, (_, i) => (i === 500 ? 'nearneedle' : i === EXCERPT_SCAN_WORDS + 5_000 ? 'farneedle' : `filler${i % 50}`));
    await buildFixtureSite(long, [page('/docs/big/generated', 'Generated reference', 'docs', `<p>${words.join(' ')}</p>`), page('/docs/big/other', 'Other', 'docs', '<p>Another page.</p>')]);
    await closePagefind();
    const e = await createSearchEngine({ siteDir: long, workers: 1, indexCacheDir: false });
    try {
      expect((await e.search('nearneedle')).hits[0]!.content).toContain('nearneedle');
      // past the words read: the page is still found, with the start of its section as the excerpt
      const far = await e.search('farneedle');
      expect(far.hits.map((h) => h.path)).toEqual(['/docs/big/generated']);
      expect(far.hits[0]!.content).toMatch(/^filler0 filler1 /);
    } finally {
      await e.close();
    }
  });

  it('excerpts of page hits skip the repeated title (h1) words', async () => {
    const r = await engine.search('installation');
    expect(r.hits[0]!.content.startsWith('Install the widget CLI')).toBe(true);
  });

  it('filters by tag (Pagefind type filter)', async () => {
    const all = await engine.search('deploy');
    const skills = await engine.search('deploy', { tag: 'skill' });
    expect(skills.total).toBeGreaterThan(0);
    expect(skills.total).toBeLessThan(all.total);
    expect(skills.hits.every((h) => h.pageType === 'skill')).toBe(true);
    expect((await engine.search('reviewer', { tag: 'agent' })).hits[0]!.path).toBe('/docs/agents/reviewer');
    expect((await engine.search('linters', { tag: 'hook' })).total).toBe(1);
    expect((await engine.search('linters', { tag: 'composition' })).total).toBe(0);
  });

  it('scores are in 0..1 and non-increasing', async () => {
    for (const q of ['widget', 'install', 'the', 'gadget assembly']) {
      const { hits } = await engine.search(q);
      expect(hits[0]!.score).toBe(1);
      for (let i = 1; i < hits.length; i++) {
        expect(hits[i]!.score).toBeGreaterThanOrEqual(0);
        expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
      }
    }
  });

  it('paginates without drift: pages neither overlap nor skip, totals stable, deterministic tiebreak by url', async () => {
    const full = await engine.search('gadget');
    expect(full.total).toBe(25);
    expect(full.hits).toHaveLength(25);
    // equal scores → url order
    expect(urls(full.hits).map((u) => u.split('#')[0])).toEqual(Array.from({ length: 25 }, (_, i) => `/docs/widgets/w-${String(i + 1).padStart(2, '0')}`));
    const walked: SearchHit[] = [];
    for (let offset = 0; offset < full.total; offset += 7) {
      const p = await engine.search('gadget', { offset, limit: 7 });
      expect(p.total).toBe(25);
      walked.push(...p.hits);
    }
    expect(walked).toEqual(full.hits);
    expect((await engine.search('gadget', { offset: 25, limit: 7 })).hits).toEqual([]);
    expect((await engine.search('gadget', { offset: 3, limit: 0 })).hits).toEqual([]);
  });

  it('is deterministic across workers, cache hits and a fresh engine', async () => {
    const a = await engine.search('widget', { limit: 10 });
    const b = await engine.search('widget', { limit: 10 });
    const fresh = await createSearchEngine({ siteDir, workers: 3, indexCacheDir: false });
    try {
      const c = await fresh.search('widget', { limit: 10 });
      expect(b).toEqual(a);
      expect(c).toEqual(a);
      // query normalization: case, spacing and word order share one result
      expect(await fresh.search('  WIDGET  ', { limit: 10 })).toEqual(a);
      expect(await engine.search('assembly gadget')).toEqual(await engine.search('gadget   Assembly'));
    } finally {
      await fresh.close();
    }
  });

  it('counts pages before slicing and title matches first for "widget"', async () => {
    const r = await engine.search('widget', { limit: 5 });
    expect(r.total).toBe(26); // 25 widget pages (title) + installation (body)
    expect(r.hits.every((h) => h.type === 'page')).toBe(true);
    const last = await engine.search('widget', { offset: 25, limit: 5 });
    expect(last.hits).toHaveLength(1);
    expect(last.hits[0]!.path).toBe('/docs/getting-started/installation');
    expect(last.hits[0]!.type).not.toBe('page');
  });

  it('ids are stable across builds for unchanged content (hash of the hit url)', async () => {
    const other = await createSearchEngine({ siteDir: site2Dir, workers: 1, indexCacheDir: cacheDir });
    try {
      const a = await engine.search('plugins');
      const b = await other.search('plugins');
      expect(b.hits[0]!.id).toBe(a.hits[0]!.id);
      expect(a.hits[0]!.id).toBe(hitId(a.hits[0]!.url));
      expect(a.hits[0]!.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(other.buildId).not.toBe(engine.buildId);
    } finally {
      await other.close();
    }
  });

  it('drops stopwords from queries that have other terms; match "any" for questions', async () => {
    expect(await engine.search('how do I deploy')).toEqual(await engine.search('deploy'));
    expect((await engine.search('the')).total).toBeGreaterThan(0); // only stopwords: kept
    // AND finds nothing for a question mixing known and unknown words; "any" ranks the pages that match some of it
    expect((await engine.search('deploy kubernetes cluster')).total).toBe(0);
    const any = await engine.search('deploy kubernetes cluster', { match: 'any' });
    expect(any.hits[0]!.path).toBe('/docs/skills/deploy');
    const both = await engine.search('reviewer deploy', { match: 'any' });
    expect(both.hits[0]!.path).toBe('/docs/compositions/release'); // mentions both
    await expect(engine.search('x', { match: 'some' as never })).rejects.toThrow(/match/);
  });

  it('empty, punctuation-only and unmatched queries give no hits', async () => {
    const none = { total: 0, hits: [], corrections: new Map() };
    expect(await engine.search('')).toMatchObject(none);
    expect(await engine.search(' ?! ')).toMatchObject(none);
    expect(await engine.search('zzqxv')).toMatchObject(none);
    expect(await engine.search('widget zzqxv')).toMatchObject(none); // AND semantics
  });

  it("counts the pages holding each query term, for the answerer, a misspelling's neighbours aside", async () => {
    const { termPages } = await engine.search('gadget zzqxv', { match: 'any' });
    expect(termPages.pageCount).toBe(engine.pageCount);
    expect(termPages.byTerm.get('gadget')).toBe(25); // every widget part's body
    expect(termPages.byTerm.get('zzqxv')).toBe(0);
    // a misspelling ranks the pages of the word it stands for, but is not itself a common word
    const misspelt = await engine.search('gadgte', { match: 'any' });
    expect(misspelt.total).toBe(25);
    expect([...misspelt.termPages.byTerm.values()]).toEqual([0]);
  });

  it('does not index the stale fragment nor navigation outside data-pagefind-body', async () => {
    expect(engine.pageCount).toBe(fixturePages().length);
    expect((await engine.search('navigation noise')).total).toBe(0);
  });

  it('caches results per (build, query, tag)', async () => {
    const before = engine.stats().cache.hits;
    await engine.search('configuration', { tag: 'docs' });
    await engine.search('configuration', { tag: 'docs' });
    expect(engine.stats().cache.hits).toBeGreaterThan(before);
  });

  it('counts the lookups of rankings as hits and misses, not those of the answers stored beside them', async () => {
    const fresh = await createSearchEngine({ siteDir, workers: 0, indexCacheDir: cacheDir });
    try {
      for (let k = 0; k < 3; k++) expect((await fresh.searchBody('configuration', { limit: 1 })).count).toBe(1);
      // one miss (the first ranking), two hits; the answers stored beside the ranking are not counted again
      expect(fresh.stats().cache).toMatchObject({ misses: 1, hits: 2 });
    } finally {
      await fresh.close();
    }
  });

  it('validates options and honours an aborted signal', async () => {
    await expect(engine.search('x', { tag: 'nope' as never })).rejects.toThrow(/unknown tag/);
    await expect(engine.search('x', { limit: -1 })).rejects.toThrow(/limit/);
    await expect(engine.search('x', { offset: 1.5 })).rejects.toThrow(/offset/);
    const ac = new AbortController();
    ac.abort();
    await expect(engine.search('widget', { signal: ac.signal })).rejects.toThrow(/abort/i);
  });

  it('never reads outside the bundle directory', () => {
    expect(() => bundleFile('/srv/site/pagefind', '..', 'secret')).toThrow(/Refusing/);
    expect(() => bundleFile('/srv/site/pagefind', 'fragment', '../../x')).toThrow(/Refusing/);
    expect(bundleFile('/srv/site/pagefind', 'fragment', 'en_1.pf_fragment')).toBe('/srv/site/pagefind/fragment/en_1.pf_fragment');
  });

  it('rejects searches after close', async () => {
    const e = await createSearchEngine({ siteDir, workers: 1, indexCacheDir: cacheDir });
    await e.close();
    await expect(e.search('widget')).rejects.toThrow(/closed/);
  });
});

describe('serialized bodies, static excerpts beyond the top ranks, prebuilt index', () => {
  const asApi = (hits: SearchHit[]) => JSON.stringify(hits.map((h) => ({ id: h.id, url: h.url, type: h.type, title: h.title, content: h.content, score: h.score })));

  it('searchBody is byte for byte the JSON of the same slice of search(), cached per slice', async () => {
    for (const [q, o] of [
      ['widget', {}],
      ['widget', { limit: 5 }],
      ['widget', { limit: 5, offset: 5 }],
      ['widget', { offset: 24 }],
      ['install', { tag: 'skill' as const }],
      ['deploy', { match: 'any' as const, limit: 3 }],
    ] as const) {
      const body = await engine.searchBody(q, o);
      const plain = await engine.search(q, o);
      expect(body.total).toBe(plain.total);
      expect(body.count).toBe(plain.hits.length);
      expect(body.body.toString('utf8')).toBe(asApi(plain.hits));
      expect((await engine.searchBody(q, o)).body).toBe(body.body); // the same bytes: a memory write
    }
    // an uncached query answered first as a body, then as hits (and past the end, and with no terms)
    const b = await engine.searchBody('configuration widget', { limit: 2, offset: 1 });
    expect(b.body.toString()).toBe(asApi((await engine.search('configuration widget', { limit: 2, offset: 1 })).hits));
    expect((await engine.searchBody('widget', { offset: 1000 })).body.toString()).toBe('[]');
    expect((await engine.searchBody('!!!')).body.toString()).toBe('[]');
  });

  it("keeps a body by its own use: reading a ranking's hits does not keep the ranking's bodies", async () => {
    const others = ['install', 'deploy', 'configuration'];
    const steps = async (e: SearchEngine) => {
      const first = await e.searchBody('widget');
      await e.search('widget'); // the hits, as /ask and MCP read them
      for (const q of others) await e.search(q);
      return first.body;
    };
    // the sizes, on a cache with no memory bound
    const unbounded = await createSearchEngine({ siteDir, workers: 1, indexCacheDir: cacheDir });
    await steps(unbounded);
    const everything = unbounded.stats().cache.bytes;
    await unbounded.close();
    // one byte short of holding everything: the least recently used goes, the body the hits' readers never asked for
    const e = await createSearchEngine({ siteDir, workers: 1, indexCacheDir: cacheDir, cacheBytes: everything - 1 });
    try {
      const body = await steps(e);
      const requests = e.stats().workerRequests;
      await e.search('widget');
      expect(e.stats().workerRequests).toBe(requests); // the ranking and its hits are still cached
      expect(e.stats().cache.entries).toBe(1 + others.length); // every ranking: bodies do not count as rankings
      const again = await e.searchBody('widget');
      expect(e.stats().workerRequests).toBe(requests + 1); // the body is rendered again, the same bytes
      expect(again.body.equals(body)).toBe(true);
    } finally {
      await e.close();
    }
  });

  it('writes every score exactly as JSON.stringify would (digits written directly past the first ranks)', () => {
    const files = readdirSync(cacheDir).filter((f) => f.endsWith('.idx')).sort();
    const fp = files[0]!.split('-')[0]!;
    const idx = new SearchIndex(files.filter((f) => f.startsWith(fp)).map((f) => segmentFromFile(openSegmentFile(join(cacheDir, f)))));
    const terms = queryTerms('widget');
    const r = idx.rank(terms);
    const sets = idx.matchSets(terms);
    const odd = [1, 0, 0.5, 0.000001, 0.000012, 0.1234, 0.999999, 0.1 + 0.2, 1e-7, 0.25];
    const n = Math.min(odd.length, r.docs.length);
    expect(n).toBe(odd.length);
    const scores = Float64Array.from(odd.slice(0, n));
    const docs = r.docs.slice(0, n);
    const tm = r.titleMatch.slice(0, n);
    const got = JSON.parse(idx.resultsJson(docs, scores, tm, FULL_EXCERPT_RANKS, sets)) as { score: number }[];
    expect(got.map((h) => h.score)).toEqual(odd.slice(0, n));
    const text = idx.resultsJson(docs, scores, tm, FULL_EXCERPT_RANKS, sets);
    for (const v of odd.slice(0, n)) expect(text).toContain(`"score":${JSON.stringify(v)}}`);
  });

  it(`beyond the first ${FULL_EXCERPT_RANKS} ranks: same section, static excerpt (plain text, non-empty, start of the section)`, async () => {
    const files = readdirSync(cacheDir).filter((f) => f.endsWith('.idx')).sort();
    const fp = files[0]!.split('-')[0]!;
    const idx = new SearchIndex(files.filter((f) => f.startsWith(fp)).map((f) => segmentFromFile(openSegmentFile(join(cacheDir, f)))));
    const terms = queryTerms('widget');
    const r = idx.rank(terms);
    expect(r.docs.length).toBeGreaterThan(3);
    const sets = idx.matchSets(terms);
    const tail = JSON.parse(idx.resultsJson(r.docs, r.scores, r.titleMatch, FULL_EXCERPT_RANKS, sets)) as { url: string; type: string; content: string }[];
    const head = JSON.parse(idx.resultsJson(r.docs, r.scores, r.titleMatch, 0, sets)) as { url: string; type: string; content: string }[];
    expect(tail.map((h) => [h.url, h.type])).toEqual(head.map((h) => [h.url, h.type]));
    // the memoized static hits are the hits search() materializes beyond those ranks
    const objs = Array.from(r.docs, (d, k) => idx.hit(d, r.scores[k]!, r.titleMatch[k] === 1, sets, false));
    expect(JSON.stringify(tail)).toBe(asApi(objs));
    expect(idx.resultsJson(r.docs, r.scores, r.titleMatch, FULL_EXCERPT_RANKS, sets)).toBe(asApi(objs)); // again
    // precomputed static hits + section postings = the hit() path, for several queries and both match modes; an
    // index with another excerpt length falls back to rendering them (per-worker memo)
    const segs = files.filter((f) => f.startsWith(fp)).map((f) => segmentFromFile(openSegmentFile(join(cacheDir, f))));
    for (const [i2, words] of [[idx, 'widget'], [idx, 'configuration widget'], [idx, 'the'], [idx, 'install guide'], [new SearchIndex(segs, { excerptWords: 12 }), 'widget']] as const) {
      for (const match of ['all', 'any'] as const) {
        const t2 = queryTerms(words);
        const r2 = i2.rank(t2, undefined, match);
        const s2 = i2.matchSets(t2);
        const want = Array.from(r2.docs, (d, k) => i2.hit(d, r2.scores[k]!, r2.titleMatch[k] === 1, s2, false));
        expect(i2.resultsJson(r2.docs, r2.scores, r2.titleMatch, FULL_EXCERPT_RANKS, s2)).toBe(asApi(want));
        const bytes = i2.resultsBytes(r2.docs, r2.scores, r2.titleMatch, FULL_EXCERPT_RANKS, s2);
        expect(Buffer.from(bytes).toString('utf8')).toBe(asApi(want));
      }
    }
    for (const h of tail) {
      expect(h.content.length).toBeGreaterThan(0);
      expect(h.content).not.toMatch(/<|>|&[a-z]+;/);
      expect(h.content.startsWith('… ')).toBe(false);
    }
  });

  it('a loaded index reads page texts and section postings from its file: the same answers as in memory', () => {
    const files = readdirSync(cacheDir).filter((f) => f.endsWith('.idx')).sort();
    const fp = files[0]!.split('-')[0]!;
    const opened = files.filter((f) => f.startsWith(fp)).map((f) => openSegmentFile(join(cacheDir, f)));
    try {
      const onDisk = opened.map(segmentFromFile);
      for (const s of onDisk) expect([s.texts.memory, s.sectionPostingSections.memory, s.sectionPostingCounts.memory]).toEqual([undefined, undefined, undefined]);
      // the hot part is what is read into memory: well under the file (texts and section postings are half of it)
      for (const f of opened) expect(f.buffer.byteLength).toBeLessThan(f.size);
      const all = <T extends Uint8Array | Uint16Array | Int32Array>(a: ColdArray<T>, make: (n: number) => T) => {
        const out = make(a.length);
        a.read(0, a.length, out, 0);
        return inMemory(out);
      };
      const inRam = onDisk.map((s) => ({
        ...s,
        texts: all(s.texts, (n) => new Uint8Array(n)),
        sectionPostingSections: all(s.sectionPostingSections, (n) => new Int32Array(n)),
        sectionPostingCounts: all(s.sectionPostingCounts, (n) => new Uint16Array(n)),
      }));
      const a = new SearchIndex(onDisk);
      const b = new SearchIndex(inRam);
      for (const words of ['widget', 'configuration widget', 'the', 'install guide', 'how do I configure the widget cli', 'inst']) {
        for (const match of ['all', 'any'] as const) {
          const t = queryTerms(words);
          const ra = a.rank(t, undefined, match);
          const sa = a.matchSets(t);
          const bodyA = Buffer.from(a.resultsBytes(ra.docs, ra.scores, ra.titleMatch, 0, sa)).toString('utf8');
          const hitsA = Array.from(ra.docs, (d, k) => a.hit(d, ra.scores[k]!, ra.titleMatch[k] === 1, sa, true));
          const rb = b.rank(t, undefined, match);
          const sb = b.matchSets(t);
          expect(Buffer.from(b.resultsBytes(rb.docs, rb.scores, rb.titleMatch, 0, sb)).toString('utf8')).toBe(bodyA);
          expect(Array.from(rb.docs, (d, k) => b.hit(d, rb.scores[k]!, rb.titleMatch[k] === 1, sb, true))).toEqual(hitsA);
        }
      }
    } finally {
      opened.forEach(closeSegmentFile);
    }
  });

  it('loads a prebuilt (published, world-readable) index read-only; a stale one is ignored and left alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-prebuilt-'));
    try {
      const pub = join(dir, 'search-index', 'site');
      const r = await prepareSearchIndex({ siteDir, indexCacheDir: pub, publish: true });
      expect(r.built).toBeGreaterThan(0);
      const names = readdirSync(pub);
      for (const f of names) expect(statSync(join(pub, f)).mode & 0o777).toBe(0o644);
      const e = await createSearchEngine({ siteDir, workers: 1, indexCacheDir: false, prebuiltIndexDir: pub });
      expect(e.stats().segmentsBuilt).toBe(0);
      await e.close();
      // another build's index: rebuilt elsewhere, the prebuilt directory is not touched
      const e2 = await createSearchEngine({ siteDir: site2Dir, workers: 1, indexCacheDir: false, prebuiltIndexDir: pub });
      expect(e2.stats().segmentsBuilt).toBeGreaterThan(0);
      expect((await e2.search('upgrade')).total).toBeGreaterThan(0);
      await e2.close();
      expect(readdirSync(pub)).toEqual(names);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("top-k prefix rankings (match 'any')", () => {
  // the cache holds the indexes of both fixture builds: the one of siteDir (the engine's page count)
  const index = (): SearchIndex => {
    const files = readdirSync(cacheDir).filter((f) => f.endsWith('.idx')).sort();
    for (const fp of new Set(files.map((f) => f.split('-')[0]!))) {
      const idx = new SearchIndex(files.filter((f) => f.startsWith(fp)).map((f) => segmentFromFile(openSegmentFile(join(cacheDir, f)))));
      if (idx.nDocs === engine.pageCount) return idx;
    }
    throw new Error('no index of siteDir in the cache');
  };

  it('rank(topK) is the full ranking prefix (same docs, order, scores, title matches) with the exact total', () => {
    const idx = index();
    let some = false;
    for (const words of ['widget', 'configuration widget', 'the', 'install guide', 'how do I configure the widget cli', 'nothingmatcheshere']) {
      for (const match of ['all', 'any'] as const) {
        const terms = queryTerms(words);
        const full = idx.rank(terms, undefined, match);
        expect(full.total).toBe(full.docs.length);
        if (full.total > 3) some = true;
        for (const k of [0, 1, 2, 3, 5, 10, full.total - 1, full.total, full.total + 3].filter((x) => x >= 0)) {
          const r = idx.rank(terms, undefined, match, k);
          const n = Math.min(k, full.total);
          expect(r.total).toBe(full.total);
          expect(Array.from(r.docs)).toEqual(Array.from(full.docs.subarray(0, n)));
          expect(Array.from(r.scores)).toEqual(Array.from(full.scores.subarray(0, n)));
          expect(Array.from(r.titleMatch)).toEqual(Array.from(full.titleMatch.subarray(0, n)));
        }
      }
    }
    expect(some).toBe(true);
  });

  it('matchSets: reused buffers give each call the sets of its own terms', () => {
    const idx = index();
    const terms = queryTerms('configuration widget');
    const r = idx.rank(terms, undefined, 'any');
    const hits = (sets: Uint8Array[]) => Array.from(r.docs, (d, k) => idx.hit(d, r.scores[k]!, r.titleMatch[k] === 1, sets, true));
    const want = hits(idx.matchSets(terms));
    idx.matchSets(queryTerms('install guide the'));
    expect(hits(idx.matchSets(terms))).toEqual(want);
  });

  it('a hit chooses the same section by its page words as by the section postings (same hits and bytes)', () => {
    const files = readdirSync(cacheDir).filter((f) => f.endsWith('.idx')).sort();
    const fp = files[0]!.split('-')[0]!;
    const open = (wordsOverPostings: number) => new SearchIndex(files.filter((f) => f.startsWith(fp)).map((f) => segmentFromFile(openSegmentFile(join(cacheDir, f)))), { wordsOverPostings });
    const byWords = open(0);
    const byPostings = open(Number.POSITIVE_INFINITY);
    let nonTitle = 0;
    for (const words of ['widget', 'configuration widget', 'the', 'install guide', 'how do I configure the widget cli', 'inst', 'deploy token']) {
      for (const match of ['all', 'any'] as const) {
        const t = queryTerms(words);
        const r = byWords.rank(t, undefined, match);
        nonTitle += r.titleMatch.filter((x) => x === 0).length;
        const render = (idx: SearchIndex) => {
          const sets = idx.matchSets(t);
          const body = Buffer.from(idx.resultsBytes(r.docs, r.scores, r.titleMatch, 0, sets)).toString('utf8');
          return { body, hits: Array.from(r.docs, (d, k) => idx.hit(d, r.scores[k]!, r.titleMatch[k] === 1, sets, true)) };
        };
        expect(render(byWords)).toEqual(render(byPostings));
      }
    }
    expect(nonTitle).toBeGreaterThan(10);
  });

  it("a request beyond a cached prefix ranks in full: same hits and total as a fresh full ranking", async () => {
    const idx = index();
    const q = 'how do I configure the widget cli';
    const full = idx.rank(queryTerms(q), undefined, 'any');
    expect(full.total).toBeGreaterThan(3);
    const e = await createSearchEngine({ siteDir, workers: 1, indexCacheDir: cacheDir });
    try {
      const first = await e.search(q, { match: 'any', limit: 2 });
      expect(first.total).toBe(full.total);
      expect(first.hits.map((h) => h.path)).toEqual(Array.from(full.docs.subarray(0, 2), (d) => idx.page(d).url));
      const later = await e.search(q, { match: 'any', offset: 1, limit: 50 });
      expect(later.total).toBe(full.total);
      expect(later.hits.map((h) => h.path)).toEqual(Array.from(full.docs.subarray(1, 51), (d) => idx.page(d).url));
      expect(later.hits.map((h) => h.score)).toEqual(Array.from(full.scores.subarray(1, 51)));
      const body = await e.searchBody(q, { match: 'any', offset: 2 });
      expect(body.count).toBe(full.total - 2);
      expect(JSON.parse(body.body.toString('utf8')).map((h: { score: number }) => h.score)).toEqual(Array.from(full.scores.subarray(2)));
    } finally {
      await e.close();
    }
  });
});
