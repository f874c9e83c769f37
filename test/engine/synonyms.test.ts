// Related words (synonyms.ts): a query term also matches the words docs use for the same
// thing, as expansions weighted below the term itself, both ways for `=` entries and one
// way for `>` entries.
import { describe, expect, it } from 'vitest';
import { relatedTerms } from '../../gateway/engine/synonyms.ts';
import { queryTerms } from '../../gateway/engine/text.ts';
import { fragment, miniIndex } from '../helpers/mini-index.ts';

describe('related words', () => {
  it('are stemmed like index terms, never the term itself, and directed for ">" entries', () => {
    expect(relatedTerms('graphical')).toContain('ui');
    expect(relatedTerms('ui')).toContain('graphical');
    expect(relatedTerms('limit')).toEqual(expect.arrayContaining(['max', 'maximum']));
    expect(relatedTerms('max')).not.toContain('limit');
    expect(relatedTerms(queryTerms('silence')[0]!)).toContain('silent');
    expect(relatedTerms('retry')).not.toContain('retry');
    expect(relatedTerms(queryTerms('freeze')[0]!)).toEqual(expect.arrayContaining(['fake', 'mock']));
    expect(relatedTerms('vitest')).toEqual([]);
  });

  describe('in a ranking', () => {
    const pages = [
      fragment('/docs/ui', 'The UI', 'Open the UI to watch your tests run in a browser tab.'),
      fragment('/docs/graphical', 'Graphical reports', 'A graphical report of the run, drawn as a chart.'),
      fragment('/docs/workers', 'maxWorkers', 'The maximum number of workers that run tests.'),
      fragment('/docs/limits', 'Limits', 'A limit on the memory of each test.'),
      ...Array.from({ length: 8 }, (_, i) => fragment(`/docs/other-${i}`, `Other ${i}`, `Nothing about it here, page ${i}.`)),
    ];
    const { ranked: rankedPages } = miniIndex(pages);
    const ranked = (query: string) => rankedPages(query).urls;

    it('find the page that uses the other word, below the page that uses the reader\'s', () => {
      expect(ranked('graphical')).toEqual(['/docs/graphical', '/docs/ui']);
      expect(ranked('limit')).toEqual(['/docs/limits', '/docs/workers']);
      // one way only: "maximum" does not look for "limit"
      expect(ranked('maximum')).toEqual(['/docs/workers']);
    });
  });
});
