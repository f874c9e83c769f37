/**
 * The judged set of the relevance evaluation, resolved against one build: queries whose judged pages are named by
 * their source path in the corpus (`guide/mocking/classes.md`), turned into the built site's page paths through the
 * build manifest, whose pages record the file they were built from (`source`): the set outlives any change of the
 * address rule. Known-item queries (every page title) are generated here from the build: all pages sharing a title
 * are judged for it; so are section known items (every heading that names an API or option, as `vi.spyOn`).
 * The off-topic questions (bench/relevance/off-topic.json) are one list asked of every corpus.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** A page of the build as the manifest lists it. */
export interface BuiltPage {
  path: string;
  title: string;
  /** The source file relative to the content folder, `/`-separated. */
  source: string;
  /** Its section headings. */
  headings: readonly { depth: number; text: string }[];
}

/** The manifest's pages; a build without `source` fields predates the evaluation's needs. */
export function builtPages(pages: readonly { path: string; title: string; source?: string; headings?: readonly { depth: number; text: string }[] }[], manifestFile: string): BuiltPage[] {
  return pages.map((p) => {
    if (!p.source) throw new Error(`${manifestFile}: page ${p.path} names no source file; rebuild with --rebuild`);
    return { path: p.path, title: p.title, source: p.source, headings: p.headings ?? [] };
  });
}

/** A heading's text as searched: a badge's `(4.1)` after it dropped. */
export const headingName = (text: string) => text.replace(/\s*\([^)]*\)\s*$/, '').trim();

/** An API or option name as a section heading writes it: `server.proxy`, `vi.spyOn`, `expect.any` (its headingName). */
export const IDENTIFIER_HEADING = /^[\w$]+(?:\.[\w$\[\]-]+)+$/;

/**
 * Section known items: every h2/h3 heading that names an API or option (`vi.spyOn`) and no other heading of the site
 * does, asked as typed; its page is judged. What an agent sends the search tool for a reference section.
 */
function sectionItems(pages: readonly BuiltPage[]): EvalQuery[] {
  const byName = new Map<string, Set<string>>();
  for (const p of pages) {
    for (const h of p.headings) {
      const name = headingName(h.text);
      if (h.depth < 2 || h.depth > 3 || !IDENTIFIER_HEADING.test(name)) continue;
      if (!byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), new Set());
      byName.get(name.toLowerCase())!.add(`${name}\n${p.path}`);
    }
  }
  return [...byName.values()]
    .filter((found) => found.size === 1)
    .map((found) => [...found][0]!.split('\n'))
    .map(([name, path]) => ({ query: name!, relevant: new Map([[path!, 2]]) }));
}

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
  sectionItems: EvalQuery[];
  unanswerable: EvalQuery[];
}

export type SetName = keyof EvalSets;
export const SET_NAMES: readonly SetName[] = ['questions', 'typos', 'knownItems', 'sectionItems', 'unanswerable'];

/** Source path → page path, through the manifest. */
function sourceResolver(pages: readonly BuiltPage[]): (source: string) => string {
  const bySource = new Map(pages.map((p) => [p.source, p.path]));
  return (source) => {
    const path = bySource.get(source);
    if (!path) throw new Error(`judged page ${source} is not a page of the build`);
    return path;
  };
}

/** A title worth a known-item query: a real title, not a file name standing in for a missing one. */
function titled(p: BuiltPage): boolean {
  return p.title !== p.source.replace(/\.mdx?$/, '').split('/').pop();
}

export function loadEvalSets(file: string, pages: readonly BuiltPage[]): EvalSets {
  const resolve = sourceResolver(pages);
  const data = JudgedFile.parse(JSON.parse(readFileSync(file, 'utf8')));
  const judged = (items: z.infer<typeof Judged>[]): EvalQuery[] =>
    items.map((q) => ({ query: q.query, relevant: new Map(Object.entries(q.relevant).map(([source, grade]) => [resolve(source), grade])) }));
  const byTitle = new Map<string, Set<string>>();
  for (const p of pages.filter(titled)) {
    const key = p.title.toLowerCase();
    if (!byTitle.has(key)) byTitle.set(key, new Set());
    byTitle.get(key)!.add(p.path);
  }
  const seen = new Set<string>();
  const knownItems: EvalQuery[] = [];
  for (const p of pages.filter(titled)) {
    const key = p.title.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    knownItems.push({ query: p.title, relevant: new Map([...byTitle.get(key)!].map((path) => [path, 2])) });
  }
  return {
    questions: judged(data.questions),
    typos: judged(data.typos),
    knownItems,
    sectionItems: sectionItems(pages),
    unanswerable: data.unanswerable.map((q) => ({ query: q.query, relevant: new Map() })),
  };
}

const OffTopicFile = z.object({ about: z.string().optional(), questions: z.array(z.object({ query: z.string().min(1) })).min(1) });

/** The questions no documentation answers, shared by every corpus (bench/relevance/off-topic.json). */
export function loadOffTopic(file: string): EvalQuery[] {
  return OffTopicFile.parse(JSON.parse(readFileSync(file, 'utf8'))).questions.map((q) => ({ query: q.query, relevant: new Map() }));
}
