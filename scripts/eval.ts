// `npm run eval`: relevance of search and answers on a real documentation corpus (the Vitest docs), measured
// against the judged set in bench/relevance/. Builds the corpus as its authors wrote it, with CONTENT_DIR pointing at
// it as a docs team would (skipped when the corpus and the build code are unchanged), starts the gateway, and compares /api/search, /ask
// (list mode), Pagefind alone and MiniSearch on the same pages and queries; then scores /ask?mode=generate.
// Prints the tables and writes bench/results/relevance.{json,md}. Not part of `npm test`: it reports, never asserts.
//
//   npm run eval [-- --corpus <dir>] [--set <judged.json>] [--rebuild]
//   npm run eval -- --set bench/relevance/vite-docs.json   (the Vite spot check: results in relevance-vite-docs.*)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot, runAstroBuild } from './lib/astro-build.ts';
import { SET_NAMES, builtPages, loadEvalSets, loadOffTopic, type EvalQuery, type EvalSets } from './lib/eval/judged-set.ts';
import { answerCheck, citedPath, mean, recall, reciprocalRank } from './lib/eval/metrics.ts';
import { apiSearchRanker, askRanker, generateAnswer, minisearchRanker, pagefindRanker, type Ranker } from './lib/eval/rankers.ts';
import { sectionLanding } from './lib/eval/section-landing.ts';
import { SYSTEMS, markdownReport, type AnswerScores, type EvalReport, type RankingScores, type SystemName } from './lib/eval/report.ts';
import { startGateway } from './lib/gateway-process.ts';

const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string' },
    set: { type: 'string', default: join(repoRoot, 'bench/relevance/vitest-docs.json') },
    rebuild: { type: 'boolean', default: false },
  },
});

/** The corpus the judged set is for (its `corpus` field): names the default corpus folder, the build and the results. */
const corpusName = ((): string => {
  const name = (JSON.parse(readFileSync(resolve(args.set), 'utf8')) as { corpus?: unknown }).corpus;
  if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`eval: ${args.set} names no corpus (a lower-case folder name)`);
  return name;
})();

/** The corpus: --corpus, else `shared/corpora/<corpus>` beside the repository or one of its parents. */
function corpusDir(): string {
  if (args.corpus) return resolve(args.corpus);
  for (let dir = resolve(repoRoot, '..'); ; dir = resolve(dir, '..')) {
    const candidate = join(dir, 'shared/corpora', corpusName);
    if (existsSync(candidate)) return candidate;
    if (dir === resolve(dir, '..')) throw new Error(`eval: no shared/corpora/${corpusName} beside the repository; pass --corpus <dir>`);
  }
}

const SITE_URL = 'https://docs.eval.test';
const work = join(repoRoot, 'bench/corpus/eval', corpusName);
const distDir = join(work, 'dist');
const siteDir = join(distDir, 'site');

function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) hashTree(hash, full);
    else hash.update(name).update(readFileSync(full));
  }
}

/**
 * Builds the corpus unless a build of the same content by the same build code exists. The gateway's engine
 * is not part of the stamp: a prebuilt search index made by other engine code is detected by its fingerprint and
 * rebuilt by the gateway at start (seconds for this corpus), so ranking changes are measured without a site build.
 */
async function build(contentDir: string): Promise<void> {
  const hash = createHash('sha256');
  for (const dir of [contentDir, join(repoRoot, 'src')]) hashTree(hash, dir);
  hash.update(readFileSync(join(repoRoot, 'astro.config.mjs')));
  const stamp = hash.digest('hex');
  const stampFile = join(work, 'build-stamp');
  if (!args.rebuild && existsSync(join(siteDir, 'build-manifest.json')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    console.log('eval: build is current, not rebuilt (--rebuild forces it)');
    return;
  }
  const started = Date.now();
  let output = '';
  const code = await runAstroBuild({
    // a link the tree breaks (npm's docs link to a page their package does not ship) is not what is measured here
    env: { LINK_CHECK: process.env.LINK_CHECK ?? 'warn', CONTENT_DIR: contentDir, DIST_DIR: distDir, ASTRO_CACHE_DIR: join(work, '.astro-cache'), SITE_URL, SITE_NAME: corpusName === 'vitest-docs' ? 'Vitest (evaluation)' : `${corpusName} (evaluation)` },
    onOutput: (chunk) => (output += chunk),
  });
  if (code !== 0) throw new Error(`build of the evaluation corpus failed (exit ${code}):\n${output.slice(-4000)}`);
  writeFileSync(stampFile, stamp);
  console.log(`eval: corpus built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function rankAll(ranker: Ranker, queries: readonly EvalQuery[]): Promise<string[][]> {
  const out: string[][] = [];
  for (const q of queries) out.push(await ranker(q.query));
  return out;
}

async function main(): Promise<void> {
  mkdirSync(work, { recursive: true });
  await build(corpusDir());
  const manifestFile = join(siteDir, 'build-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { pages: { path: string; title: string; md: string; source?: string; headings?: { depth: number; slug?: string; text: string }[] }[] };
  const sets: EvalSets = loadEvalSets(resolve(args.set), builtPages(manifest.pages, manifestFile));
  const offTopic = loadOffTopic(join(repoRoot, 'bench/relevance/off-topic.json'));

  const gw = await startGateway(distDir, { RATE_LIMIT_MAX: '1000000', SITE_URL });
  const pagefind = await pagefindRanker(siteDir);
  try {
    const rankers: Record<SystemName, Ranker> = {
      'api-search': apiSearchRanker(gw.url),
      ask: askRanker(gw.url),
      pagefind: pagefind.rank,
      minisearch: minisearchRanker(siteDir, manifest.pages),
    };
    const ranking = {} as EvalReport['ranking'];
    let askQuestionRanks: string[][] = [];
    const misses: EvalReport['misses'] = {};
    for (const set of SET_NAMES) {
      if (set === 'unanswerable') continue;
      const queries = sets[set];
      const row = {} as Record<SystemName, RankingScores>;
      for (const system of SYSTEMS) {
        const started = Date.now();
        const ranked = await rankAll(rankers[system], queries);
        console.log(`eval: ${set} × ${system}: ${queries.length} queries in ${Date.now() - started} ms`);
        row[system] = {
          mrr10: mean(queries.map((q, i) => reciprocalRank(ranked[i]!, q))),
          recall5: mean(queries.map((q, i) => recall(ranked[i]!, q))),
          queries: queries.length,
        };
        const missed = queries.flatMap((q, i) => (reciprocalRank(ranked[i]!, q) === 0 ? [{ query: q.query, system, top: ranked[i]!.slice(0, 3) }] : []));
        (misses[set] ??= []).push(...missed);
        if (set === 'questions' && system === 'ask') askQuestionRanks = ranked;
      }
      ranking[set as keyof EvalReport['ranking']] = row;
    }

    // what the answerer can cite at best: it answers from the first five pages /ask ranks
    const judgedInSources = sets.questions.filter((q, i) => askQuestionRanks[i]!.slice(0, 5).some((p) => q.relevant.has(p))).length;
    const judgedFirstSource = sets.questions.filter((q, i) => q.relevant.has(askQuestionRanks[i]![0] ?? '')).length;
    const answers: AnswerScores = { judgedInSources, judgedFirstSource, answerable: 0, citesJudged: 0, firstCitedJudged: 0, notCoveredOnAnswerable: 0, unanswerable: 0, notCoveredOnUnanswerable: 0, offTopic: 0, notCoveredOnOffTopic: 0, brokenFences: 0, repeatedPassages: 0, danglingLeadIns: 0, answers: 0, typos: 0, typosAnswered: 0, typosCiteJudged: 0, typosFirstCitedJudged: 0 };
    const answerMisses: EvalReport['answerMisses'] = [];
    // what an answer's text shows whichever set it answers: fences, repeats, a lead-in announcing nothing
    const countText = (check: ReturnType<typeof answerCheck>) => {
      answers.answers++;
      if (!check.fencesIntact) answers.brokenFences++;
      if (check.repeated) answers.repeatedPassages++;
      if (check.dangling) answers.danglingLeadIns++;
    };
    for (const [i, q] of [...sets.questions, ...sets.unanswerable].entries()) {
      const answer = await generateAnswer(gw.url, q.query);
      const check = answerCheck(q, answer);
      const judged = (page: string): string => (q.relevant.has(page) ? `*${page}` : page);
      if (q.relevant.size > 0 && !check.firstCitedJudged) {
        answerMisses.push({ query: q.query, sources: askQuestionRanks[i]!.slice(0, 5).map(judged), cited: answer.citations.map((url) => judged(citedPath(url))), notCovered: check.notCovered });
      }
      countText(check);
      if (q.relevant.size === 0) {
        answers.unanswerable++;
        if (check.notCovered) answers.notCoveredOnUnanswerable++;
      } else {
        answers.answerable++;
        if (check.citesJudged) answers.citesJudged++;
        if (check.firstCitedJudged) answers.firstCitedJudged++;
        if (check.notCovered) answers.notCoveredOnAnswerable++;
      }
    }
    // questions nobody tuned the answerer on: the same off-topic list for every corpus
    const offTopicAnswered: EvalReport['offTopicAnswered'] = [];
    for (const q of offTopic) {
      const answer = await generateAnswer(gw.url, q.query);
      const check = answerCheck(q, answer);
      countText(check);
      answers.offTopic++;
      if (check.notCovered) answers.notCoveredOnOffTopic++;
      else offTopicAnswered.push({ query: q.query, cited: answer.citations.map(citedPath) });
    }
    // a reader's typo must not turn an answer into "not covered": the typo set, answered
    for (const q of sets.typos) {
      const check = answerCheck(q, await generateAnswer(gw.url, q.query));
      countText(check);
      answers.typos++;
      if (!check.notCovered) answers.typosAnswered++;
      if (check.citesJudged) answers.typosCiteJudged++;
      if (check.firstCitedJudged) answers.typosFirstCitedJudged++;
    }

    const sections = await sectionLanding(gw.url, manifest.pages);
    const report: EvalReport = { corpus: corpusName, date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', pages: manifest.pages.length, ranking, answers, sections, misses, answerMisses, offTopicAnswered };
    const md = markdownReport(report);
    console.log(`\n${md}`);
    const results = join(repoRoot, 'bench/results');
    mkdirSync(results, { recursive: true });
    // the Vitest set's results are the headline (relevance.*); another corpus's go beside them
    const base = corpusName === 'vitest-docs' ? 'relevance' : `relevance-${corpusName}`;
    writeFileSync(join(results, `${base}.json`), `${JSON.stringify(report, null, 1)}\n`);
    writeFileSync(join(results, `${base}.md`), md);
    console.log(`eval: wrote bench/results/${base}.json and ${base}.md`);
  } catch (err) {
    console.error(`eval: gateway output:\n${gw.output().slice(-3000)}`);
    throw err;
  } finally {
    pagefind.close();
    await gw.stop();
  }
}

await main();
