/**
 * Words of software documentation that name the same thing differently: a reader asks for a "graphical interface",
 * the page says "UI"; "limit the number of workers", the option is `maxWorkers`; "silence the output", the option is
 * `silent`; and what visitors ask the companion assistant's portfolio in words a person's pages rarely use ("hire",
 * "consulting", "spoken", "tech"), each a word docs queries rarely hold. A query term also matches its related terms
 * (term-dictionary.ts: as expansions weighted below the term itself, their prefixes included), so the page that uses
 * the other word is found without outranking one that uses the reader's.
 *
 * Why a small hand-written table of general vocabulary and not a thesaurus or embeddings: the words of one product
 * (its option names) must not be in it — the search is measured on another corpus too — and a broad thesaurus turns
 * common words into noise ("run" ~ "execute" ~ "start" ~ "launch" match every page). Measured on the judged set
 * (content/docs/api/search-quality-history.md): no entry made a known-item or typo query worse.
 *
 * Entries: `a = b = c` makes every word match the others; `a > b, c` makes a reader's `a` also look for `b` and `c`
 * (not the other way: a page's `bail` is not what every "stop" means). Words are stemmed like index terms.
 */
import { primaryTerm } from './text.ts';

const ENTRIES = [
  'ui = gui = graphical',
  'max = maximum',
  'min = minimum',
  'limit > max, maximum',
  'rerun = retry',
  'silent = silence = quiet = mute',
  'faster > performance, speed',
  'speed > performance',
  'concurrent = concurrently = parallel',
  'simultaneously > concurrent, parallel',
  'folder = directory = dir',
  'argument = arg = parameter = param',
  'deeply > deep',
  'delete = remove',
  'monorepo > workspace',
  'exception > throw, error',
  'stop > bail, abort',
  'abort = bail',
  'fake = mock = stub',
  'freeze > fake, mock',
  'repo > monorepo, workspace',
  'longest > slow',
  'print > log, console',
  'upgrade > migration, migrate',
  'fully > full',
  // what visitors ask a person's site (the assistant's portfolio), in words docs rarely use: hiring, talks, skills
  'hire > enquiry, engagement',
  'enquiry = inquiry',
  'consult > engagement, independent',
  'consultant > engagement, independent',
  'freelance > independent, engagement',
  'available > engagement',
  'availability > engagement',
  'technology > skill, language',
  'tech > skill, language',
  'speak > talk',
  'spoken > talk',
  'speaker > talk',
];

/** Query term → the terms it also matches (stemmed), built once from ENTRIES. */
const RELATED: ReadonlyMap<string, readonly string[]> = (() => {
  const related = new Map<string, Set<string>>();
  const add = (from: string, to: string) => {
    if (from === to) return;
    let set = related.get(from);
    if (!set) related.set(from, (set = new Set()));
    set.add(to);
  };
  for (const entry of ENTRIES) {
    if (entry.includes('>')) {
      const [from, to] = entry.split('>');
      const source = primaryTerm(from!.trim());
      for (const word of to!.split(',')) add(source, primaryTerm(word.trim()));
    } else {
      const words = entry.split('=').map((w) => primaryTerm(w.trim()));
      for (const a of words) for (const b of words) add(a, b);
    }
  }
  return new Map([...related].map(([term, set]) => [term, [...set]]));
})();

/**
 * How much a related word weighs against the reader's own word: in the ranking (term-dictionary.ts, an expansion's
 * similarity) and in the answerer's section counts (passages.ts).
 */
export const RELATED_WEIGHT = 0.6;

const NONE: readonly string[] = [];

/** The terms a query term also matches (stemmed, never the term itself); empty for most terms. */
export function relatedTerms(term: string): readonly string[] {
  return RELATED.get(term) ?? NONE;
}
