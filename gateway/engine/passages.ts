/**
 * The sections of an answer's sources that best match a question, and the passage of each worth quoting.
 *
 * Both answerers start here: the extractive one quotes the passages, the model gets the sections. A section is
 * scored by the question's key terms it contains, each weighted by its rarity in the whole site (idf over the pages
 * the search counted for it, TermPages; over the sources' sections where it did not) and by where it occurs (section
 * heading 2, page title 1, body by BM25: a saturating count normalized by the section's length), times the square
 * of the share of the question it covers and a bonus for the share its heading or page title names; the search
 * ranking of its page adds a small prior. A term's related words (synonyms.ts) count for it (an occurrence in the
 * body as RELATED_WEIGHT of one), and a page title's camelCase words count as words (`maxWorkers` names "workers"),
 * as in the search index. A misspelt term is looked for as the word the search matched for it (its corrections,
 * term-dictionary.ts) when the misspelling looks like a slip of the fingers (typing-slips.ts): "mock the file sytem"
 * is answered from the page about the file system, while "how to bake bread" is not read as "make bread".
 * `coverage` (the idf-weighted share of key terms the section and its page title contain; a term the site never uses
 * weighs as the rarest) is how sure the answer can be: below COVERED_THRESHOLD the docs are said not to cover the
 * question. Rarity in the site, not in the sources: among the pages found for a question its subject is common and
 * a phrasing word one of them uses is rare. How a question's words are read and found (its key terms, related words,
 * the corrections of slips) is question-words.ts.
 *
 * A passage is a run of whole blocks (markdown-sections.ts): the best-matching paragraph or list of the section (its
 * first when the section's heading names the question), the paragraph that leads into it when it is a list or code,
 * and the code blocks and lists that follow it, within PASSAGE_CHARS (a list or table a lead-in announces, up to
 * CODE_CHARS); after an option's fields (a `**Type:**`, `**Default:**` list) the paragraphs that describe it too.
 * Code blocks are never cut: one too long for the budget is left out whole. A prose block longer than the budget is
 * cut to its part that matches (fitBlock), so no single block makes an answer long. A passage is quoted only when it
 * holds PASSAGE_THRESHOLD of the question itself (passageCoverage): a section can cover the question in blocks its
 * passage leaves out.
 */
import { Lru } from './lru.ts';
import type { Corrections, TermPages } from './search.ts';
import { announcesNext, fenceTracker, isFieldList, isLabel, isLeadIn, markdownSections, type Block, type Section } from './markdown-sections.ts';
import { INLINE_LINK } from './inline-markdown.ts';
import { NO_CORRECTIONS, alternativesOf, occurrences, namesTerm, questionTerms, readText, termCounts, type Alternative } from './question-words.ts';

export interface PassageSource { url: string; title: string; content: string }

export interface RankedSection {
  source: number;
  section: Section;
  /** The page URL with the section's anchor. */
  url: string;
  /** "Page title › Heading" (the page title alone for its intro). */
  label: string;
  score: number;
  coverage: number;
  /** The question as the ranking weighed it (one object for every section of the ranking): passageCoverage reads it. */
  question: QuestionWeights;
}

/** A question's key terms, the words that stand for each, and each term's idf (their sum: totalIdf). */
interface QuestionWeights { terms: readonly string[]; alternatives: readonly Alternative[][]; idf: ReadonlyMap<string, number>; totalIdf: number }

/**
 * Below this share of the question's (idf-weighted) key terms in the best section, the answer says the docs do not
 * cover the question. Chosen on the Vitest judged set (content/docs/api/search-quality.md): every unanswerable
 * question there scores below 0.5, nearly every answerable one above it.
 */
export const COVERED_THRESHOLD = 0.5;

/**
 * A passage is quoted only when it holds at least this share of the question (passageCoverage): a section can cover
 * the question in blocks its passage leaves out (the words in a workflow's code, the best paragraph naming one word),
 * and such a passage answers nothing. Chosen on the four judged sets (content/docs/api/search-quality.md).
 */
export const PASSAGE_THRESHOLD = 0.2;

/** Characters of prose a passage may take (code blocks up to CODE_CHARS come on top). */
const PASSAGE_CHARS = 900;
const CODE_CHARS = 1600;

interface IndexedSection { section: Section; heading: Map<string, number>; length: number }
interface Indexed extends IndexedSection { source: number; title: Map<string, number>; /** occurrences of each query term in the body */ body: number[] }

/** A page's sections and the body terms of all of them, sorted, with their count per section (prefix lookups). */
interface IndexedPage {
  content: string;
  sections: IndexedSection[];
  terms: string[];
  postings: Map<string, [section: number, count: number][]>;
}

/**
 * A page's sections with their term counts, kept per page: a twin is the same for the whole life of a build, and
 * cutting and counting five reference pages costs ~100 ms of main-thread time, the ranking itself a few ms. Bounded
 * by pages and by Markdown bytes; an entry is used only for the very same Markdown.
 */
const pageIndex = new Lru<IndexedPage>(256, 32 * 1024 * 1024);

function indexedPage(s: PassageSource): IndexedPage {
  const cached = pageIndex.get(s.url);
  if (cached && cached.content === s.content) return cached;
  const postings = new Map<string, [number, number][]>();
  const sections = markdownSections(s.content).map((section, i): IndexedSection => {
    const body = blockTermCounts(section.blocks);
    let length = 0;
    for (const [t, c] of body) {
      length += c;
      let list = postings.get(t);
      if (!list) postings.set(t, (list = []));
      list.push([i, c]);
    }
    // the page's description, in its intro, is matched but not counted in the intro's length: it sums up the whole
    // page, as the title does, and should not make the page's opening weigh less than a short section below
    const described = section.blocks.filter((b) => b.description);
    if (described.length > 0 && described.length < section.blocks.length) {
      for (const c of blockTermCounts(described).values()) length -= c;
    }
    return { section, heading: termCounts(section.heading), length };
  });
  const page = { content: s.content, sections, terms: [...postings.keys()].sort(), postings };
  pageIndex.set(s.url, page, s.content.length * 4);
  return page;
}

/** Occurrences of `term` in each section's body: exact, or as the prefix of longer terms (as `occurrences`). */
function bodyCounts(page: IndexedPage, term: string): Float64Array {
  const counts = new Float64Array(page.sections.length);
  const add = (t: string) => {
    for (const [i, c] of page.postings.get(t)!) counts[i]! += c;
  };
  if (page.postings.has(term)) add(term);
  if (term.length >= 4) {
    let lo = 0;
    let hi = page.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (page.terms[mid]! <= term) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < page.terms.length && page.terms[k]!.startsWith(term); k++) add(page.terms[k]!);
  }
  return counts;
}

/** BM25's term-frequency saturation and length normalization for section bodies. */
const K1 = 1.2;
/** Extra weight for the share of the question a section names in its heading or page title. */
const HEADING_BONUS = 1;
/** Prior of the search ranking: the first page's sections ×1.3, the fifth's ×1.06. */
const RANK_PRIOR = 0.3;
const B = 0.75;

export function rankSections(query: string, sources: readonly PassageSource[], corrections: Corrections = NO_CORRECTIONS, termPages?: TermPages): RankedSection[] {
  const terms = questionTerms(query);
  const alternatives = alternativesOf(query, terms, corrections);
  const indexed: Indexed[] = [];
  sources.forEach((s, source) => {
    const title = termCounts(s.title, true);
    const page = indexedPage(s);
    const counts = terms.map((t, k) => {
      const c = bodyCounts(page, t);
      for (const a of alternatives[k]!) {
        const ac = bodyCounts(page, a.term);
        for (let i = 0; i < c.length; i++) c[i]! += a.body * ac[i]!;
      }
      return c;
    });
    page.sections.forEach((x, i) => indexed.push({ ...x, source, title, body: counts.map((c) => c[i]!) }));
  });
  const n = indexed.length;
  // the site's pages holding a term where the search counted them, else its share of the sources' sections in pages
  const units = termPages?.pageCount || n;
  const idf = new Map<string, number>();
  terms.forEach((t, k) => {
    const named = (x: Indexed) => namesTerm(x.heading, t, alternatives[k]!) || namesTerm(x.title, t, alternatives[k]!) || x.body[k]! > 0;
    const holding = (termPages?.pageCount ? termPages.byTerm.get(t) : undefined) ?? (indexed.filter(named).length / Math.max(1, n)) * units;
    idf.set(t, Math.log(1 + (units + 1) / (holding + 0.5)));
  });
  const totalIdf = terms.reduce((sum, t) => sum + idf.get(t)!, 0) || 1;
  const question: QuestionWeights = { terms, alternatives, idf, totalIdf };
  const avgLength = indexed.reduce((sum, x) => sum + x.length, 0) / Math.max(1, n) || 1;
  return indexed
    .map((x): RankedSection => {
      let score = 0;
      let covered = 0;
      let bodyOnly = 0;
      let inHeadings = 0;
      terms.forEach((t, k) => {
        const w = idf.get(t)!;
        const inHeading = namesTerm(x.heading, t, alternatives[k]!);
        const inTitle = namesTerm(x.title, t, alternatives[k]!);
        const inBody = x.body[k]!;
        if (inHeading || inTitle || inBody) covered += w;
        if (inBody && !inHeading && !inTitle) bodyOnly += w;
        if (inHeading || inTitle) inHeadings += w;
        const bodyWeight = inBody ? (inBody * (K1 + 1)) / (inBody + K1 * (1 - B + (B * x.length) / avgLength)) : 0;
        score += w * ((inHeading ? 2 : 0) + (inTitle ? 1 : 0) + bodyWeight);
      });
      const coverage = covered / totalIdf;
      // a section whose only match is a word somewhere in a long body is weak evidence
      const substance = x.section.blocks.some((b) => b.kind !== 'code') ? 1 : 0.6;
      const named = inHeadings / totalIdf;
      score = score * coverage * coverage * substance * (1 + HEADING_BONUS * named) * (1 + RANK_PRIOR / (x.source + 1));
      const s = sources[x.source]!;
      const url = x.section.anchor ? `${s.url}#${x.section.anchor}` : s.url;
      const label = x.section.heading ? `${s.title} › ${x.section.heading}` : s.title;
      return { source: x.source, section: x.section, url, label, score, coverage: bodyOnly === covered && covered > 0 ? coverage * 0.9 : coverage, question };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.source - b.source);
}

/**
 * The share of the question (idf-weighted, as a section's `coverage`) that a passage quoted from a ranked section
 * holds in its blocks, its section's heading or its page title.
 */
export function passageCoverage(passage: readonly Block[], ranked: RankedSection, title: string): number {
  const { terms, alternatives, idf, totalIdf } = ranked.question;
  const places = [termCounts(ranked.section.heading), termCounts(title, true), blockTermCounts(passage)];
  let covered = 0;
  terms.forEach((t, k) => {
    if (places.some((counts) => namesTerm(counts, t, alternatives[k]!))) covered += idf.get(t)!;
  });
  return covered / totalIdf;
}

/** The terms of blocks as the reader reads them (readText), counted. */
function blockTermCounts(blocks: readonly Block[]): Map<string, number> {
  return termCounts(readText(blocks.map((b) => b.markdown).join('\n')));
}

/** Subsections a lead-in can announce, listed at most, and the characters of a heading shown as a label. */
const ANNOUNCED_SUBSECTIONS = 12;
const LABEL_CHARS = 120;

/**
 * A passage that ends on a lead-in (`there are several strategies:`) whose section ends there, because what it
 * announces are the subsections below it: the passage with a list of links to those subsections (the next heading
 * level down), so the answer names what the page offers instead of stopping at a colon. Else the passage itself.
 */
export function withAnnouncedSubsections(passage: Block[], source: PassageSource, section: Section): Block[] {
  const last = passage.at(-1);
  if (!last || !isLeadIn(last) || section.blocks.at(-1)?.markdown !== last.markdown) return passage;
  const sections = indexedPage(source).sections.map((x) => x.section);
  // by anchor, which is the page's own for each heading: the page may have been cut into sections again since
  const at = section.anchor ? sections.findIndex((x) => x.anchor === section.anchor) : 0;
  if (at < 0) return passage;
  let end = at + 1;
  let childDepth = 7;
  for (; end < sections.length && sections[end]!.depth > section.depth; end++) childDepth = Math.min(childDepth, sections[end]!.depth);
  const items = sections
    .slice(at + 1, end)
    .filter((child) => child.depth === childDepth && child.anchor)
    .slice(0, ANNOUNCED_SUBSECTIONS)
    .map((child) => `- [${linkLabel(cutLabel(child.heading))}](${source.url}#${child.anchor})`);
  return items.length ? [...passage, { kind: 'list', markdown: items.join('\n') }] : passage;
}

/** A heading as an answer's label shows it: at most LABEL_CHARS characters (a heading can be a paragraph long). */
export function cutLabel(text: string): string {
  return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS)}…` : text;
}

/** Text for a Markdown link's label: no brackets, and no backslash at its end to escape the closing one. */
export function linkLabel(text: string): string {
  const label = text.replace(/[[\]]/g, '');
  let end = label.length;
  while (end > 0 && (label[end - 1] === '\\' || /\s/.test(label[end - 1]!))) end--;
  return label.slice(0, end);
}

function blockScore(block: Block, terms: readonly string[], alternatives: readonly Alternative[][]): number {
  const counts = termCounts(readText(block.markdown));
  let hits = 0;
  terms.forEach((t, k) => {
    if (namesTerm(counts, t, alternatives[k]!)) hits++;
  });
  return block.kind === 'code' ? hits * 0.5 : hits;
}

/** Where a paragraph's sentences end: . ! ? before a space and an upper-case letter, digit, quote, bracket or mark-up. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'“(\[`*_])/u;
const ELLIPSIS = '…';
/** What `… ` or ` …` adds to a cut text. */
const ELLIPSIS_CHARS = 2;
/** The least a cut keeps, whatever the budget left by a marker or a quote's prefix. */
const MIN_CUT = 40;

/**
 * The run of consecutive units (sentences, items, rows) that holds the best-scoring one and as many of its neighbours
 * as fit `budget` characters, taken after it and before it in turn; `prefer: 'end'` starts from the last unit (a
 * lead-in's sentence that announces what follows). At least the starting unit, whatever its length.
 */
function unitWindow(units: readonly string[], budget: number, separator: number, termsOf: PartTerms, prefer: 'best' | 'end', matchingOnly = false): [from: number, to: number] {
  if (units.length === 0) return [0, 0];
  let start = units.length - 1;
  const scores = prefer === 'best' ? unitScores(units.map(termsOf), units.length) : [];
  if (prefer === 'best') {
    let bestScore = -1;
    scores.forEach((s, i) => {
      if (s > bestScore) [start, bestScore] = [i, s];
    });
  }
  // with matchingOnly, the window grows only over units that match the question about as well as the best one (half
  // its score or more: a word every unit holds makes no neighbour), when the best one matches at all
  const onlyMatching = matchingOnly && prefer === 'best' && scores[start]! > 0;
  const takes = (i: number) => !onlyMatching || scores[i]! >= scores[start]! / 2;
  let from = start;
  let to = start + 1;
  let size = units[start]!.length;
  for (let grown = true; grown; ) {
    grown = false;
    if (to < units.length && takes(to) && size + separator + units[to]!.length <= budget) {
      size += separator + units[to++]!.length;
      grown = true;
    }
    if (from > 0 && takes(from - 1) && size + separator + units[from - 1]!.length <= budget) {
      size += separator + units[--from]!.length;
      grown = true;
    }
  }
  return [from, to];
}

/**
 * Each unit's score: the weights of the question's terms it holds, a term weighing by how few units hold it
 * (log(1 + units / units holding it)). A word in most of them tells none apart: in a list of plugins each named
 * `fastify-…`, "does fastify support graphql" picks the item that says GraphQL, not the first that says Fastify.
 */
function unitScores(held: readonly number[], units: number): number[] {
  const weights: number[] = [];
  for (let k = 0; k < PART_TERMS_MAX; k++) {
    let holding = 0;
    for (const h of held) if (h & (1 << k)) holding++;
    weights.push(holding ? Math.log(1 + units / holding) : 0);
  }
  return held.map((h) => {
    let score = 0;
    for (let k = 0; h >> k; k++) if (h & (1 << k)) score += weights[k]!;
    return score;
  });
}

/**
 * Prose cut to `budget` characters, `…` included: whole sentences around the best one, or, when that sentence alone is
 * longer, the run of words that matches best (a word longer than the budget cut, never between the halves of a
 * character); `…` where text was left out. A cut never leaves a code span open, nor a link cut in two.
 */
function fitProse(text: string, budget: number, score: PartTerms, prefer: 'best' | 'end'): string {
  // every run of white space one space (a single space, by far the most common, is left as it is)
  const flat = text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
  if (flat.length <= budget) return flat;
  const room = Math.max(MIN_CUT, budget - 2 * ELLIPSIS_CHARS);
  const sentences = flat.split(SENTENCE_END);
  const [from, to] = unitWindow(sentences, room, 1, score, prefer);
  const window = sentences.slice(from, to).join(' ');
  let kept = window;
  if (kept.length > room) {
    // one sentence longer than the budget: runs of whole words, the best of them; each run's space is looked for
    // within the run only, so a text with no space is cut in one pass
    const runs: string[] = [];
    const links = linkSpans(window);
    for (let at = 0, link = 0; at < window.length; ) {
      let end = Math.min(window.length, at + room);
      if (end < window.length && window[end] !== ' ') {
        let space = end - 1;
        while (space > at && window[space] !== ' ') space--;
        if (space > at) end = space;
        else if (end - at > 1 && /[\uD800-\uDBFF]/.test(window[end - 1]!)) end--;
      }
      // a link is not cut in two: the run ends before it (unless it starts the run, a link longer than the budget)
      while (link < links.length && links[link]![1] <= end) link++;
      const [linkStart] = links[link] ?? [end];
      if (linkStart < end && linkStart > at) end = linkStart;
      runs.push(window.slice(at, end).trimEnd());
      at = window[end] === ' ' ? end + 1 : end;
    }
    kept = runs[unitWindow(runs, room, 1, score, prefer)[0]] ?? '';
  }
  if ((kept.match(/`/g)?.length ?? 0) % 2 === 1) kept = kept.slice(0, kept.lastIndexOf('`')).trimEnd();
  // kept is a part of the window: what is missing either side was cut
  const before = from > 0 || !window.startsWith(kept);
  const after = to < sentences.length || !window.endsWith(kept);
  return `${before ? `${ELLIPSIS} ` : ''}${kept}${after ? ` ${ELLIPSIS}` : ''}`;
}

/** Where a text's inline links start and end, in order: a cut between words keeps each whole, so it still links. */
function linkSpans(text: string): [start: number, end: number][] {
  return Array.from(text.matchAll(INLINE_LINK), (m) => [m.index, m.index + m[0].length] as [number, number]);
}

/** A line that opens or closes a code fence, quoted or not (each part of the pattern starts with its own character, so a long run of spaces is read once). */
const FENCE_LINE = /^[ \t]*(?:>[ \t]*)*(?:`{3,}|~{3,})/m;
const ITEM_MARKER = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/;

/**
 * One list item longer than the budget (a nested list of thousands of levels, an item of a page-long paragraph): its
 * lines around the best one, indented as little as the least indented of them (lines of a deep nested list, left
 * indented, would read as code), or that line's words when it alone is too long.
 */
function fitItem(item: string, budget: number, score: PartTerms, prefer: 'best' | 'end'): string {
  const lines = item.split('\n');
  const [from, to] = unitWindow(lines, budget, 1, score, prefer);
  if (to - from === 1 && lines[from]!.length > budget) {
    const line = lines[from]!.trimStart();
    const found = ITEM_MARKER.exec(line)?.[0] ?? '';
    const marker = found ? `${found.trimEnd()} ` : ''; // a marker's run of spaces is one space
    return `${marker}${fitProse(line.slice(found.length), budget - marker.length, score, prefer)}`;
  }
  const kept = lines.slice(from, to);
  const indent = Math.min(...kept.filter((line) => line.trim()).map((line) => /^[ \t]*/.exec(line)![0].length));
  return kept.map((line) => line.slice(Math.min(indent, /^[ \t]*/.exec(line)![0].length))).join('\n');
}

/**
 * Which part of an over-long block to keep: the question's terms (or words standing for them) it holds, as bits (term
 * k, bit k), looked for as text, not tokenized, so cutting a block of hundreds of kilobytes costs one scan of it.
 */
type PartTerms = (text: string) => number;
/** Terms a part is looked at for (bits of a 32-bit integer); a question rarely has half as many. */
const PART_TERMS_MAX = 30;
function partScorer(terms: readonly string[], alternatives: readonly Alternative[][]): PartTerms {
  const looked = terms.slice(0, PART_TERMS_MAX);
  return (text) => {
    const lower = text.toLowerCase();
    let held = 0;
    looked.forEach((t, k) => {
      if (lower.includes(t) || alternatives[k]!.some((a) => lower.includes(a.term))) held |= 1 << k;
    });
    return held;
  };
}

/** A block cut to `budget` characters around what matches the question (fitBlock): what a model is given of a long one. */
export function fitBlockToQuestion(block: Block, budget: number, query: string, corrections: Corrections = NO_CORRECTIONS): Block {
  const terms = questionTerms(query);
  return fitBlock(block, budget, partScorer(terms, alternativesOf(query, terms, corrections)), 'best');
}

/**
 * A prose block longer than `budget` cut to its part that best matches the question, so that one long block (a
 * paragraph written as a single line, a list of hundreds of options, a table of every flag) cannot make an answer of
 * megabytes: a paragraph to sentences (fitProse), a list to whole items and a table to its header and whole rows
 * around the best, a quote to whole paragraphs of it. A list item or a quote that holds a code fence is not cut inside.
 */
function fitBlock(block: Block, budget: number, score: PartTerms, prefer: 'best' | 'end'): Block {
  if (block.markdown.length <= budget || block.kind === 'code' || block.kind === 'html') return block;
  const lines = block.markdown.split('\n');
  if (block.kind === 'paragraph') return { kind: 'paragraph', markdown: fitProse(block.markdown, budget, score, prefer) };
  if (block.kind === 'list') {
    // top-level items, never starting one inside a code fence (a diff's `- old` line at the margin is code)
    const indent = /^\s*/.exec(lines[0]!)![0].length;
    const items: string[] = [];
    const fence = fenceTracker();
    for (const line of lines) {
      const top = !fence.open() && /^\s*/.exec(line)![0].length === indent && ITEM_MARKER.test(line);
      fence.read(line);
      if (top || items.length === 0) items.push(line);
      else items[items.length - 1] += `\n${line}`;
    }
    // a numbered list is steps, read in order; the items of any other list stand alone (a catalogue of plugins, of
    // options): its cut keeps the items around the best one that match the question too, not its neighbours
    const [from, to] = unitWindow(items, budget, 1, score, prefer, !/^\s*\d/.test(items[0]!));
    let kept = items.slice(from, to).join('\n');
    if (kept.length > budget && !FENCE_LINE.test(kept)) kept = fitItem(kept, budget, score, prefer);
    return { kind: 'list', markdown: kept };
  }
  if (block.kind === 'table') {
    const headerLines = lines.length > 1 && /^\s*(?:\|\s*)?:?-/.test(lines[1]!) ? 2 : 1;
    const header = lines.slice(0, headerLines).join('\n');
    const rows = lines.slice(headerLines);
    if (rows.length === 0) return { kind: 'paragraph', markdown: fitProse(header.replace(/\|/g, ' '), budget, score, prefer) };
    const [from, to] = unitWindow(rows, Math.max(0, budget - header.length - 1), 1, score, prefer);
    if (to - from === 1 && header.length + 1 + rows[from]!.length > budget) {
      // a single row longer than the budget: its text as prose, since a cut row is no table
      return { kind: 'paragraph', markdown: fitProse(rows[from]!.replace(/\|/g, ' '), budget, score, prefer) };
    }
    return { kind: 'table', markdown: [header, ...rows.slice(from, to)].join('\n') };
  }
  // a quote: its paragraphs, split at blank lines outside code fences, each line under the quote marker again
  const paragraphs: string[][] = [[]];
  const fence = fenceTracker();
  for (const quoted of lines) {
    const line = quoted.replace(/^\s{0,3}>\s?/, '');
    if (!fence.open() && line.trim() === '') {
      if (paragraphs.at(-1)!.length) paragraphs.push([]);
      continue;
    }
    fence.read(line);
    paragraphs.at(-1)!.push(line);
  }
  if (!paragraphs.at(-1)!.length) paragraphs.pop();
  const prefixed = paragraphs.map((p) => p.map((line) => (line ? `> ${line}` : '>')).join('\n'));
  const [from, to] = unitWindow(prefixed, budget, 3, score, prefer);
  if (to - from === 1 && prefixed[from]!.length > budget && !paragraphs[from]!.some((line) => FENCE_LINE.test(line))) {
    return { kind: 'quote', markdown: `> ${fitProse(paragraphs[from]!.join('\n'), budget - 2, score, prefer)}`, description: block.description };
  }
  return { kind: 'quote', markdown: prefixed.slice(from, to).join('\n>\n'), description: block.description };
}

/**
 * The passage of a section to quote: whole blocks, code and lists intact (join them with a blank line). Empty when
 * the section has nothing to quote but over-long code.
 */
export function sectionPassage(section: Section, query: string, corrections: Corrections = NO_CORRECTIONS): Block[] {
  const terms = questionTerms(query);
  const alternatives = alternativesOf(query, terms, corrections);
  // left out: HTML (a component the twin cannot show), over-long code, and a lead-in announcing either
  const shown = (b: Block) => b.kind !== 'html' && !(b.kind === 'code' && b.markdown.length > CODE_CHARS);
  const content = section.blocks.filter((b, i, all) => shown(b) && !(isLeadIn(b) && i + 1 < all.length && !shown(all[i + 1]!)));
  const blocks = content.some((b) => !b.description) ? content.filter((b) => !b.description) : content;
  if (blocks.length === 0) return [];
  let best = blocks.findIndex((b) => b.kind !== 'code');
  if (best < 0) best = 0;
  // a section whose heading names the question starts with its answer, unless it opens with a label (tabs, a list of
  // fields: the question picks one of them); otherwise the best-matching prose block
  const headingCounts = termCounts(section.heading);
  if (isLabel(blocks[best]!) || !terms.some((t, k) => namesTerm(headingCounts, t, alternatives[k]!))) {
    let bestScore = -1;
    blocks.forEach((b, i) => {
      const s = blockScore(b, terms, alternatives);
      if (s > bestScore && b.kind !== 'code') {
        best = i;
        bestScore = s;
      }
    });
  }
  // a label (a tab's `**npm**`, a callout's `**Note**`, a field's name and type) is not an answer: what it labels is
  if (isLabel(blocks[best]!) && best + 1 < blocks.length && !isLabel(blocks[best + 1]!)) best++;
  let start = best;
  // a list or a block that continues a sentence reads with the paragraph that leads into it, a block with its label
  if (start > 0 && blocks[start - 1]!.kind === 'paragraph' && (blocks[start]!.kind !== 'paragraph' || isLeadIn(blocks[start - 1]!) || isLabel(blocks[start - 1]!))) start--;
  // a section that opens with its code (a signature, the first of two ways: "Or `async/await`:") starts with it
  if (start === 1 && blocks[0]!.kind === 'code') start = 0;
  const chosen: Block[] = [];
  let prose = 0;
  // an option's fields (Type, Default) say little alone: the paragraphs after them say what it does
  const describing = isFieldList(blocks[best]!);
  const score = partScorer(terms, alternatives);
  for (let i = start; i < blocks.length && i <= best + 3; i++) {
    // the best block and its lead-in come whatever their length, cut to the passage's budget
    let b = i <= best ? fitBlock(blocks[i]!, PASSAGE_CHARS, score, i < best ? 'end' : 'best') : blocks[i]!;
    // a block that cannot be cut where it must (a quote or list item around a code fence) is left out, as long code is
    if (i <= best && b.kind !== 'code' && b.markdown.length > PASSAGE_CHARS + CODE_CHARS) continue;
    if (i > best) {
      if (chosen.length === 0) break; // nothing left to illustrate
      // after the best block: the code, lists and tables that illustrate it (a tab's label with its code: a code
      // group's first tab), and a paragraph only when announced
      const leadsIn = isLeadIn(chosen.at(-1)!);
      const description = describing && chosen.every((c) => c.kind === 'paragraph' || isFieldList(c));
      const tab = isLabel(b) && blocks[i + 1]?.kind === 'code';
      if (b.kind === 'paragraph' && !leadsIn && !description && !tab) break;
      // a list or table a lead-in announces may take what a code block may (cut to it when longer): it is what the
      // lead-in promised
      if (leadsIn && (b.kind === 'list' || b.kind === 'table')) b = fitBlock(b, CODE_CHARS, score, 'best');
      const announced = leadsIn && (b.kind === 'list' || b.kind === 'table') && b.markdown.length <= CODE_CHARS;
      if (b.kind !== 'code' && !announced && prose + b.markdown.length > PASSAGE_CHARS) break;
    }
    chosen.push(b);
    if (b.kind !== 'code') prose += b.markdown.length;
  }
  // never end on a lead-in or a label whose block is left out
  while (chosen.length > 1 && announcesNext(chosen.at(-1)!)) chosen.pop();
  return chosen;
}
