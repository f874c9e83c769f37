// The typo index: distance limits by term length, transpositions as one edit, no
// matches for short terms, nearest first, and agreement with a brute-force scan; the
// segment's own index (built with it: words on two pages, or in a title or heading), the rare-term-with-a-common-neighbour case, and
// 4-character terms, which get neighbours only when the index does not hold them.
import { describe, expect, it } from 'vitest';
import { buildTypoIndex, deletions, editDistance, inflectionSlips, maxTypoDistance, typoMatches } from '../../gateway/engine/search/typo-index.ts';
import { fragment, miniIndex } from '../helpers/mini-index.ts';
import { queryTerms, stem } from '../../gateway/engine/text.ts';

const vocabulary = ['middleware', 'content', 'collections', 'configuration', 'config', 'environment', 'variables', 'deploy', 'deployment', 'test', 'text', 'rest', 'search', 'searching', 'snapshot', 'snapshots', 'mocking', 'coverage', 'typescript', 'benchmark'];
const index = buildTypoIndex(vocabulary);
const termAt = (id: number) => vocabulary[id]!;
const matches = (query: string) => typoMatches(index, query, termAt).map((m) => `${vocabulary[m.termId]}:${m.distance}`);

describe('edit distance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps as one edit each', () => {
    expect(editDistance('middlware', 'middleware', 2)).toBe(1);
    expect(editDistance('contnet', 'content', 2)).toBe(1); // a swap
    expect(editDistance('deplyo', 'deploy', 2)).toBe(1);
    expect(editDistance('serch', 'search', 2)).toBe(1);
    expect(editDistance('confgiuration', 'configuration', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
  });
  it('stops past the bound', () => {
    expect(editDistance('abcdefgh', 'zyxwvuts', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});

describe('typo index', () => {
  it('allows no typo below 4 characters, one up to 8, two from 9', () => {
    expect([3, 4, 5, 8, 9, 12].map(maxTypoDistance)).toEqual([0, 1, 1, 1, 2, 2]);
    expect(matches('tst')).toEqual([]); // "test" is one insertion away, but 3 characters are too few
    expect(matches('tset')).toEqual(['test:1']); // a swap; "text" and "rest" are two edits away
    expect(matches('serch')).toEqual(['search:1']);
    expect(matches('sarch')).toEqual(['search:1']);
    expect(matches('seerch')).toEqual(['search:1']);
    expect(matches('snapshto')).toEqual(['snapshot:1']); // 8 characters: "snapshots" is two edits away
  });

  it('finds terms two edits away for long query terms, nearest first', () => {
    expect(matches('middlwar')).toEqual([]); // 8 characters: one edit only, and "middleware" is two away
    expect(matches('middlewre')).toEqual(['middleware:1']);
    expect(matches('enviornmnet')).toEqual(['environment:2']);
    expect(matches('configuraton')).toEqual(['configuration:1']);
    expect(matches('deploymnt')).toEqual(['deployment:1']);
  });

  it('never returns the query term itself', () => {
    expect(matches('search')).toEqual([]);
    expect(matches('searching')).toEqual([]);
  });

  it('agrees with a brute-force scan of the vocabulary', () => {
    const queries = ['middlware', 'contnet', 'colections', 'covrage', 'typscript', 'benchmrak', 'snapshts', 'mockign', 'varaibles', 'searchign', 'deplyoment', 'xyzzyx'];
    for (const query of queries) {
      const max = maxTypoDistance(query.length);
      const expected = vocabulary
        .map((term, termId) => ({ termId, distance: editDistance(query, term, max) }))
        .filter((m) => m.distance <= max && vocabulary[m.termId] !== query)
        .sort((x, y) => x.distance - y.distance || x.termId - y.termId);
      expect(typoMatches(index, query, termAt), query).toEqual(expected);
    }
  });

  it('deletes up to the depth asked, without repeats', () => {
    expect([...deletions('abc', 1)].sort()).toEqual(['ab', 'abc', 'ac', 'bc']);
    expect(deletions('aab', 1).size).toBe(3); // aab, ab, aa
  });
});

describe('slips in an ending the stemmer takes off', () => {
  it('stems the one-edit variants of a term: a slip in "-ing" finds the stem its word is indexed under', () => {
    expect(inflectionSlips('tesitng', stem)).toContain('test'); // testing
    expect(inflectionSlips('runnign', stem)).toContain('run'); // running
    expect(inflectionSlips('tracng', stem)).toContain('trac'); // tracing
    expect(inflectionSlips('tst', stem)).toEqual([]); // too short for a typo
    expect(inflectionSlips('config_valu', stem)).toEqual([]); // not a word
  });
});

describe('typo index of a segment (built with the segment)', () => {
  // "environment" on 24 pages; the docs' own misspelling "enviroment" on one; "kubernetes" and "sage" on one page only
  const pages = [
    ...Array.from({ length: 24 }, (_, i) => fragment(`/docs/env/p-${String(i).padStart(2, '0')}`, `Page ${i}`, `Set the environment variable number ${i} before the run.`)),
    fragment('/docs/env/typo', 'Old notes', 'The enviroment of the runner, and kubernetes v2 config_value. A sage remark.'),
  ];
  const { segment, index, ranked: rankedPages } = miniIndex(pages);
  const terms = Array.from({ length: segment.terms.length }, (_, id) => segment.terms.at(id)!);
  const ranked = (query: string) => {
    const { total, urls } = rankedPages(query);
    return { total, first: urls[0] };
  };

  it('holds only words on two or more pages (no identifiers, numbers or one-page words)', () => {
    const targets = new Set(Array.from(segment.typoTermIds, (id) => terms[id]!));
    expect(targets.has('environment')).toBe(true);
    for (const absent of ['enviroment', 'kubernet', 'config_valu', 'v2']) expect(targets.has(absent)).toBe(false);
    expect(segment.typoHashes.length).toBe(segment.typoTermIds.length);
    expect(Array.from(segment.typoHashes).every((h, i, a) => i === 0 || a[i - 1]! <= h)).toBe(true);
  });

  it('also holds the words of titles and section headings, on however few pages', () => {
    const deploy = {
      ...fragment('/docs/deploy', 'Deploying', 'Pick a host. Netlify builds on every push. Surge is another host. Caching keeps builds fast.'),
      anchors: [
        { element: 'h2', id: 'netlify', text: 'Netlify', location: 3 },
        { element: 'h2', id: 'caching', text: 'Caching', location: 13 },
      ],
    };
    const other = fragment('/docs/other', 'Other page', 'Nothing about hosts.');
    const small = miniIndex([deploy, other]);
    const words = new Set(Array.from(small.segment.typoTermIds, (id) => small.segment.terms.at(id)!));
    expect(words.has('netlifi') || words.has('netlify')).toBe(true); // in a heading of one page
    expect(words.has('deploi') || words.has('deploy')).toBe(true); // in a title of one page
    expect(words.has('surg') || words.has('surge')).toBe(false); // in one page's text only
    expect(small.ranked('netlfy').urls).toEqual(['/docs/deploy']);
    expect(small.ranked('cachnig').urls).toEqual(['/docs/deploy']); // a slip in the ending the stemmer takes off
  });

  it('a rare term whose near neighbour is common also matches the common one, below its own page', () => {
    const rare = ranked('enviroment');
    expect(rare.total).toBe(25); // its own page and the 24 pages of "environment"
    expect(rare.first).toBe('/docs/env/typo');
    // an unknown misspelling finds the common word's pages; a rare word without a common neighbour stays alone
    expect(ranked('envronment').total).toBe(24);
    expect(ranked('kubernetes').total).toBe(1);
  });

  it('a short term gets neighbours only when the index does not hold it', () => {
    // a mistyped plural stems below 5 characters ("numbrs" → "numbr"): still one edit from "number"
    expect(ranked('numbrs').total).toBe(24);
    // a slip in an ending: "runnign" is four edits from "run", which "running" is indexed under
    expect(ranked('runnign').total).toBe(24);
    // "page" is on 24 titles: the unknown 4-letter "pags" finds them; "sage", on one page, is a real word and keeps to itself
    expect(ranked('pags').total).toBe(24);
    expect(ranked('sage').total).toBe(1);
  });

  it('hands on what a misspelt term stands for (corrections), and nothing for a word the index holds', () => {
    expect(index.corrections(queryTerms('the envronment numbrs'))).toEqual([
      ['envronment', [{ term: 'environment', similarity: 0.5 }]],
      ['numbr', [{ term: 'number', similarity: 0.5 }]],
    ]);
    // the docs' own rare misspelling stands for the common word too; a rare word without a common neighbour does not
    expect(index.corrections(['enviroment']).map(([t, c]) => [t, c.map((x) => x.term)])).toEqual([['enviroment', ['environment']]]);
    expect(index.corrections(['kubernet', 'environment', 'sage'])).toEqual([]);
  });
});
