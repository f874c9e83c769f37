/**
 * The judged set of the relevance evaluation, resolved against one build: queries whose judged pages are named by
 * their source path in the corpus (`guide/mocking/classes.md`), turned into the built site's page paths.
 *
 * Sources are mapped through the build manifest when its pages record their source file (`source`), else through
 * the conversion's own map (convert-corpus.ts), so the set outlives any change of the address rule. Known-item
 * queries (every page title) are generated here from the corpus: all pages sharing a title are judged for it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ConvertedPage } from './convert-corpus.ts';

const Judged = z.object({ query: z.string().min(1), relevant: z.record(z.string(), z.number().int().min(1).max(2)) });
const JudgedFile = z.object({
  corpus: z.string(),
  about: z.string().optional(),
  questions: z.array(Judged),
  typos: z.array(Judged),
  unanswerable: z.array(z.object({ query: z.string().min(1) })),
});

/** One query with its judged page paths (grade 2: answers it; 1: also acceptable). Empty for unanswerable ones. */
export interface EvalQuery {
  query: string;
  relevant: Map<string, number>;
}

export interface EvalSets {
  questions: EvalQuery[];
  typos: EvalQuery[];
  knownItems: EvalQuery[];
  unanswerable: EvalQuery[];
}

export type SetName = keyof EvalSets;
export const SET_NAMES: readonly SetName[] = ['questions', 'typos', 'knownItems', 'unanswerable'];

/** Source path → page path: from the manifest's `source` fields when it has them, else from the conversion. */
export function sourceResolver(manifestFile: string, converted: readonly ConvertedPage[]): (source: string) => string {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { pages: { path: string; source?: string }[] };
  const bySource = new Map<string, string>();
  for (const p of manifest.pages) if (p.source) bySource.set(p.source.replace(/^\.?\//, ''), p.path);
  if (bySource.size === 0) for (const p of converted) bySource.set(p.source, p.path);
  const known = new Set(manifest.pages.map((p) => p.path));
  return (source) => {
    const path = bySource.get(source);
    if (!path || !known.has(path)) throw new Error(`judged page ${source} is not a page of the build`);
    return path;
  };
}

/** A title worth a known-item query: a real title, not the file name of an include fragment. */
function titled(p: ConvertedPage): boolean {
  return p.title !== p.source.replace(/\.md$/, '').split('/').pop();
}

export function loadEvalSets(file: string, converted: readonly ConvertedPage[], resolve: (source: string) => string): EvalSets {
  const data = JudgedFile.parse(JSON.parse(readFileSync(file, 'utf8')));
  const judged = (items: z.infer<typeof Judged>[]): EvalQuery[] =>
    items.map((q) => ({ query: q.query, relevant: new Map(Object.entries(q.relevant).map(([source, grade]) => [resolve(source), grade])) }));
  const byTitle = new Map<string, Set<string>>();
  for (const p of converted.filter(titled)) {
    const key = p.title.toLowerCase();
    if (!byTitle.has(key)) byTitle.set(key, new Set());
    byTitle.get(key)!.add(resolve(p.source));
  }
  const seen = new Set<string>();
  const knownItems: EvalQuery[] = [];
  for (const p of converted.filter(titled)) {
    const key = p.title.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    knownItems.push({ query: p.title, relevant: new Map([...byTitle.get(key)!].map((path) => [path, 2])) });
  }
  return {
    questions: judged(data.questions),
    typos: judged(data.typos),
    knownItems,
    unanswerable: data.unanswerable.map((q) => ({ query: q.query, relevant: new Map() })),
  };
}
