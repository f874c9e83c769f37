// A site indexed in parts (SEARCH_INDEX_PART_PAGES, src/integration/search-index.ts): the fixture build's search
// step run again on a copy of it with parts of a few pages, then the gateway on each build asked the same things —
// the answers must be the same bytes — and the Pagefind bundle, parts merged as the search box merges them, must find
// a page of the last part.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partRanges } from '../../src/integration/search-index.ts';
import { bundlePageCount } from '../../gateway/engine/pagefind-bundle.ts';
import { descendants } from '../../src/lib/process-tree.ts';
import { loadSiteConfig } from '../../src/lib/site-config.ts';
import { pagefindRanker } from '../../scripts/lib/eval/rankers.ts';
import { startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { fixtureBuild } from '../helpers/manifest.ts';
import { indexedInParts } from '../helpers/search-parts.ts';

const { distDir, manifest } = fixtureBuild();
const PART_PAGES = 12;

describe('partRanges', () => {
  it('keeps a site of up to SEARCH_INDEX_PART_PAGES pages in one bundle and cuts a larger one into equal parts', () => {
    expect(partRanges(0, 5000)).toEqual([[0, 0]]);
    expect(partRanges(5000, 5000)).toEqual([[0, 5000]]);
    expect(partRanges(10_001, 5000)).toEqual([[0, 3334], [3334, 6668], [6668, 10_001]]);
    expect(partRanges(20_000, 5000).map(([from, to]) => to - from)).toEqual([5000, 5000, 5000, 5000]);
  });

  it('refuses a part size that is not a whole number of pages, naming the variable', () => {
    expect(() => loadSiteConfig({ SEARCH_INDEX_PART_PAGES: 'many' })).toThrow(/SEARCH_INDEX_PART_PAGES: .*whole number/);
    expect(() => loadSiteConfig({ SEARCH_INDEX_PART_PAGES: '0' })).toThrow(/SEARCH_INDEX_PART_PAGES: .*at least 1/);
    expect(loadSiteConfig({}).searchIndexPartPages).toBe(5000);
  });
});

describe('a part that cannot be indexed', () => {
  it('fails the step with the page named, and leaves no Pagefind process running', async () => {
    const lastPage = manifest.pages.at(-1)!.path; // in the last part, indexed while the part before writes its bundle
    const failed = await indexedInParts(distDir, PART_PAGES, (copy) => rmSync(join(copy, 'site', `${lastPage.slice(1)}.html`))).then(
      () => undefined,
      (err: Error & { copy?: string }) => err,
    );
    if (failed?.copy) rmSync(failed.copy, { recursive: true, force: true });
    expect(failed?.message).toMatch(/search step exited 1/);
    expect(failed?.message).toContain(`${lastPage.slice(1)}.html`);
    expect(failed?.message).toMatch(/docs part \d+\/\d+: the Pagefind step failed \(exit code 1\)/);
    const pagefind = descendants(process.pid).filter((p) => p.comm.startsWith('pagefind'));
    expect(pagefind).toEqual([]);
  }, 120_000);
});

describe('a site indexed in parts', () => {
  let copy: string;
  let whole: RunningGateway;
  let parted: RunningGateway;

  beforeAll(async () => {
    let output: string;
    ({ distDir: copy, output } = await indexedInParts(distDir, PART_PAGES));
    expect(output).toMatch(/docs part 2\//);
    [whole, parted] = await Promise.all([startGateway(distDir), startGateway(copy)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([whole?.stop(), parted?.stop()]);
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('writes the parts parts.json names, every page in exactly one of them', () => {
    const bundle = join(copy, 'site/pagefind');
    const { parts } = JSON.parse(readFileSync(join(bundle, 'parts.json'), 'utf8')) as { parts: string[] };
    const ranges = partRanges(manifest.pages.length, PART_PAGES);
    expect(parts).toEqual(ranges.slice(1).map((_, k) => `part-${k + 2}`));
    const counts = [bundle, ...parts.map((p) => join(bundle, p))].map((dir) => bundlePageCount([{ dir, entry: JSON.parse(readFileSync(join(dir, 'pagefind-entry.json'), 'utf8')) }]));
    expect(counts).toEqual(ranges.map(([from, to]) => to - from));
    // the unparted build says so too
    expect(JSON.parse(readFileSync(join(distDir, 'site/pagefind/parts.json'), 'utf8'))).toEqual({ parts: [] });
  });

  it('answers search (every mode, a tag, a cursor page) and ask with the same bytes as the build in one bundle', async () => {
    const titles = manifest.pages.filter((_, i) => i % 5 === 0).map((p) => p.title);
    const queries = [...titles, 'deploy', 'rate limit', 'gateway configuration', 'depoly', 'how do I search the docs'];
    const paths = (q: string) => [
      `/api/search?query=${encodeURIComponent(q)}`,
      `/api/search?limit=3&query=${encodeURIComponent(q)}`,
      `/api/search?limit=5&tag=docs&query=${encodeURIComponent(q)}`,
      `/ask?query=${encodeURIComponent(q)}`,
    ];
    const body = async (gw: RunningGateway, path: string) => (await (await fetch(gw.url + path)).text()).replace(/"query_id":"[^"]*"/, '');
    let compared = 0;
    for (const q of queries) {
      for (const path of paths(q)) {
        const [a, b] = await Promise.all([body(whole, path), body(parted, path)]);
        expect(b, path).toBe(a);
        compared++;
      }
    }
    // a cursor page: the second page of a broad search
    const first = await fetch(`${whole.url}/api/search?limit=2&query=gateway`);
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeTruthy();
    const nextPath = new URL(next!, whole.url).pathname + new URL(next!, whole.url).search;
    expect(await body(parted, nextPath)).toBe(await body(whole, nextPath));
    expect(compared).toBeGreaterThan(20);
  });

  it('merges the parts in the Pagefind bundle as the search box does: a page of the last part is found', async () => {
    const last = manifest.pages[manifest.pages.length - 1]!;
    const pagefind = await pagefindRanker(join(copy, 'site'));
    try {
      expect(await pagefind.rank(last.title)).toContain(last.path);
    } finally {
      pagefind.close();
    }
  });
});
