// The Pagefind UI's result hook (src/components/scripts/search-enhance.ts) on its own: a typo's one-letter matches
// lose their highlight, real matches keep it, in the excerpt and in every sub-result.
import { describe, expect, it } from 'vitest';
import { processResult } from '../../src/components/scripts/search-enhance.ts';

describe('processResult', () => {
  it('unmarks matches of one letter or digit and keeps the others', () => {
    const result = processResult({
      excerpt: 'Run <mark>-D</mark> then <mark>deploy</mark> with <mark>d</mark> and <mark>7</mark>.',
      sub_results: [{ excerpt: 'npm i <mark>-d</mark> <mark>Deploying</mark>' }, {}],
    });
    expect(result.excerpt).toBe('Run -D then <mark>deploy</mark> with d and 7.');
    expect(result.sub_results?.[0]?.excerpt).toBe('npm i -d <mark>Deploying</mark>');
  });
});
