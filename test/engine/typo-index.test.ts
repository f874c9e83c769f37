// The typo index: distance limits by term length, transpositions as one edit, no
// matches for short terms, nearest first, and agreement with a brute-force scan.
import { describe, expect, it } from 'vitest';
import { buildTypoIndex, deletions, editDistance, maxTypoDistance, typoMatches } from '../../gateway/engine/search/typo-index.ts';

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
  it('allows no typo below 5 characters, one up to 8, two from 9', () => {
    expect([4, 5, 8, 9, 12].map(maxTypoDistance)).toEqual([0, 1, 1, 2, 2]);
    expect(matches('tset')).toEqual([]); // "test" is one swap away, but 4 characters are too few
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
