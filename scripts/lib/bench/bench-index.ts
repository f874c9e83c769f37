// The search index of a bench build and the bench's query set, loaded in this thread for the in-process cost
// measurements (top-k-cost.ts, stage-cost.ts): what one query worker holds, without the gateway around it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSegmentFile, segmentFromFile } from '../../../gateway/engine/search/index-file.ts';
import { SearchIndex } from '../../../gateway/engine/search/search-index.ts';
import type { QuerySet } from '../../gen-corpus.ts';

/** `<script> <distDir> <corpusContentDir> [extra]`: the index of distDir and the query set of the corpus content. */
export function benchIndex(script: string): { index: SearchIndex; querySet: QuerySet; extra: string | undefined } {
  const [distDir, contentDir, extra] = process.argv.slice(2);
  if (!distDir || !contentDir) throw new Error(`usage: ${script} <distDir> <corpusContentDir>`);
  const dir = join(distDir, 'search-index', 'site');
  const index = new SearchIndex(readdirSync(dir).filter((f) => f.endsWith('.idx')).sort().map((f) => segmentFromFile(openSegmentFile(join(dir, f)))));
  const querySet = JSON.parse(readFileSync(join(contentDir, 'queries.json'), 'utf8')) as QuerySet;
  return { index, querySet, extra };
}

/** The p-quantile (0..1, nearest rank) of per-query costs in ms, two decimals. */
export const percentile = (xs: number[], p: number): string => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!.toFixed(2);

/** The mean of per-query costs in ms, two decimals. */
export const mean = (xs: number[]): string => (xs.reduce((s, x) => s + x, 0) / xs.length).toFixed(2);
