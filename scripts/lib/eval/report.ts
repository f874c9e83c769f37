/**
 * The evaluation's results: one JSON document (bench/results/relevance.json) and the Markdown tables the docs page
 * on search quality shows (bench/results/relevance.md).
 */
import type { SectionLanding } from './section-landing.ts';
import type { SetName } from './judged-set.ts';

export const SYSTEMS = ['api-search', 'ask', 'pagefind', 'minisearch'] as const;
export type SystemName = (typeof SYSTEMS)[number];

export interface RankingScores { mrr10: number; recall5: number; queries: number }

export interface AnswerScores {
  /** Answerable questions with a judged page among the five pages the answerer is given (its upper bound). */
  judgedInSources: number;
  /** Answerable questions whose first `/ask` result is a judged page: the answer leads with it when it covers the question. */
  judgedFirstSource: number;
  answerable: number;
  citesJudged: number;
  firstCitedJudged: number;
  notCoveredOnAnswerable: number;
  unanswerable: number;
  notCoveredOnUnanswerable: number;
  /** The off-topic questions every corpus is asked (bench/relevance/off-topic.json), and how many got "not covered". */
  offTopic: number;
  notCoveredOnOffTopic: number;
  brokenFences: number;
  /** Answers quoting a paragraph or code block twice, and answers ending on a lead-in with nothing after it (metrics.ts answerShape). */
  repeatedPassages: number;
  danglingLeadIns: number;
  answers: number;
  /** The typo set asked in generate mode: answered (not "not covered"), citing a judged page, first citation judged. */
  typos: number;
  typosAnswered: number;
  typosCiteJudged: number;
  typosFirstCitedJudged: number;
}

export interface EvalReport {
  corpus: string;
  date: string;
  pages: number;
  ranking: Record<Exclude<SetName, 'unanswerable'>, Record<SystemName, RankingScores>>;
  answers: AnswerScores;
  /** Headings searched as typed: whether the result for the heading's page opens that section (section-landing.ts). */
  sections: SectionLanding;
  /** Per query and system: the rank of the first judged page (0 = not in the top 10), for digging into misses. */
  misses: Record<string, { query: string; system: SystemName; top: string[] }[]>;
  /**
   * Answerable questions whose generated answer does not lead with a judged page: the five pages /ask gave the
   * answerer (judged ones marked `*`), what the answer cited, and whether it said "not covered".
   */
  answerMisses: { query: string; sources: string[]; cited: string[]; notCovered: boolean }[];
  /** Off-topic questions answered instead of "not covered", with the pages the answer cited. */
  offTopicAnswered: { query: string; cited: string[] }[];
}

const SET_TITLES: Record<Exclude<SetName, 'unanswerable'>, string> = {
  questions: 'Natural-language questions',
  typos: 'Queries with one or two typos',
  knownItems: 'Known items (page titles)',
  sectionItems: 'Section known items (API and option headings)',
};

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)} %` : '–');

export function markdownReport(r: EvalReport): string {
  const lines: string[] = [];
  lines.push(`Corpus: ${r.corpus} (${r.pages} pages), measured ${r.date} by \`npm run eval\`.`, '');
  lines.push('| Set | Queries | /api/search MRR@10 | /api/search R@5 | /ask MRR@10 | /ask R@5 | Pagefind MRR@10 | Pagefind R@5 | MiniSearch MRR@10 | MiniSearch R@5 |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const set of Object.keys(SET_TITLES) as (keyof typeof SET_TITLES)[]) {
    const row = r.ranking[set];
    const cells = SYSTEMS.flatMap((s) => [row[s].mrr10.toFixed(3), row[s].recall5.toFixed(3)]);
    lines.push(`| ${SET_TITLES[set]} | ${row.ask.queries} | ${cells.join(' | ')} |`);
  }
  const a = r.answers;
  lines.push('', '| `/ask?mode=generate` (no model) | Value |', '|---|---:|');
  lines.push(`| Answerable questions citing a judged page | ${pct(a.citesJudged, a.answerable)} (${a.citesJudged}/${a.answerable}) |`);
  lines.push(`| First citation is a judged page | ${pct(a.firstCitedJudged, a.answerable)} (${a.firstCitedJudged}/${a.answerable}) |`);
  lines.push(`| (bound: a judged page is among the 5 pages given to the answerer) | ${pct(a.judgedInSources, a.answerable)} (${a.judgedInSources}/${a.answerable}) |`);
  lines.push(`| (\`/ask\`'s first result is a judged page) | ${pct(a.judgedFirstSource, a.answerable)} (${a.judgedFirstSource}/${a.answerable}) |`);
  lines.push(`| Answers with broken code fences | ${a.brokenFences} of ${a.answers} |`);
  lines.push(`| Answers quoting a paragraph or code block twice / ending on a lead-in with nothing after it | ${a.repeatedPassages} / ${a.danglingLeadIns} of ${a.answers} |`);
  lines.push(`| Unanswerable questions answered "not covered" | ${pct(a.notCoveredOnUnanswerable, a.unanswerable)} (${a.notCoveredOnUnanswerable}/${a.unanswerable}) |`);
  lines.push(`| Off-topic questions, the same for every corpus, answered "not covered" | ${pct(a.notCoveredOnOffTopic, a.offTopic)} (${a.notCoveredOnOffTopic}/${a.offTopic}) |`);
  lines.push(`| Answerable questions answered "not covered" | ${pct(a.notCoveredOnAnswerable, a.answerable)} (${a.notCoveredOnAnswerable}/${a.answerable}) |`);
  lines.push(`| Queries with typos answered (not "not covered") | ${pct(a.typosAnswered, a.typos)} (${a.typosAnswered}/${a.typos}) |`);
  lines.push(`| Queries with typos citing a judged page / first citation judged | ${pct(a.typosCiteJudged, a.typos)} / ${pct(a.typosFirstCitedJudged, a.typos)} |`);
  const landing = (label: string, counts: SectionLanding[keyof SectionLanding]) =>
    `| ${label} | ${counts.headings} | ${pct(counts.pageFound, counts.headings)} | ${pct(counts.pageFirst, counts.headings)} | ${pct(counts.onSection, counts.pageFound)} (${counts.onSection}/${counts.pageFound}) |`;
  lines.push('', '| h2–h3 headings no other heading repeats, searched on `/api/search` | Headings | Page in the top 10 | Page first | Its result opens that section |', '|---|---:|---:|---:|---:|');
  lines.push(landing('Plain headings of 2–4 words, as written (`Glob Import`)', r.sections.plain));
  lines.push(landing('API and option headings, as written (`vi.spyOn`)', r.sections.api));
  lines.push(landing('The same, as words (`vi spyOn`)', r.sections.apiAsWords));
  return `${lines.join('\n')}\n`;
}
