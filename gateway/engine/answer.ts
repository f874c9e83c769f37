/**
 * Answers grounded in sources: from the model backend when one is given, else (or when it fails and the caller
 * allows it) from a deterministic extractive answerer.
 *
 * Modes:
 *   summarize  what the best-matching section of each top page says (Markdown), with [n] citations
 *   generate   an answer to the query (Markdown), with [n] citations
 *   chat       multi-turn (history) plain-text answer for the assistant
 * summarize and generate work on sections (passages.ts): the extractive answerer quotes whole blocks of the best
 * sections (code fences with their language, lists as lists), the model gets those sections as Markdown with their
 * URLs and numbers, and a model's citation of a number it was not given is dropped (citations.ts). When the best
 * section covers too little of the question (COVERED_THRESHOLD), neither guesses: the answer says the documentation
 * does not cover it and lists the closest pages (status `not_covered`, no model call).
 * Text goes to `onText` as it is produced. A "Sources:" list (`- [n] [Page › Heading](url#anchor)`, the cited
 * sections, plus `[n]: url` reference definitions so each marker links to its section) ends summarize/generate
 * answers unless `appendSources` is false; `citations` are the page urls the answer cites, in order of first citation
 * (every source given when a model answer cites none).
 */
import type { ChatMessage, LlmClient } from './llm.ts';
import { LlmUnavailableError } from './llm.ts';
import { citationFilter } from './citations.ts';
import { announcesNext, atxHeading, isFieldList, isLabel, isLeadIn, type Block } from './markdown-sections.ts';
import { COVERED_THRESHOLD, PASSAGE_THRESHOLD, cutLabel, fitBlockToQuestion, linkLabel, passageCoverage, rankSections, sectionPassage, withAnnouncedSubsections, type RankedSection } from './passages.ts';
import { hasKeyTerms, questionTerms } from './question-words.ts';
import type { Corrections, TermPages } from './search.ts';
import { splitSentences, textTerms, toPlainText } from './text.ts';

export type { LlmClient } from './llm.ts';
export { LlmUnavailableError } from './llm.ts';

export interface AnswerSource { url: string; title: string; content: string }
export interface AnswerChunk { text: string }
export interface AnswerOutcome {
  backend: 'model' | 'extractive';
  fallbackReason?: string;
  citations: string[];
  /** summarize/generate: whether the sources answer the question at all. */
  status?: 'answered' | 'not_covered';
}
export type AnswerMode = 'summarize' | 'generate' | 'chat';

export interface AnswerOptions {
  query: string;
  mode: AnswerMode;
  sources: AnswerSource[];
  history?: { role: 'user' | 'assistant'; content: string }[];
  llm?: LlmClient;
  /** docs API falls back ('extractive'); the assistant rethrows LlmUnavailableError ('throw') → 503. */
  onModelFailure: 'extractive' | 'throw';
  signal?: AbortSignal;
  onText: (text: string) => void;
  /** Replaces the built-in instructions of the system prompt (the numbered sources are always appended). */
  system?: string;
  /** Append the "Sources:" list to the text (default: true for summarize/generate, false for chat). */
  appendSources?: boolean;
  /** Characters of each source given to the model (default 3000). */
  maxSourceChars?: number;
  /** What the question's misspelt words stand for, from the search that chose the sources (passages.ts). */
  corrections?: Corrections;
  /** How many of the site's pages hold each query term (the search's count): the answerer's word weights, passages.ts. */
  termPages?: TermPages;
  /**
   * The question as the search ran it, when the search left words out (the assistant's /ask leaves out the owner's
   * name, which every page of a portfolio holds, the Contact page's handles too): the sections, passages and sentences
   * are ranked by it, and "not covered" decided on it, when it has a word that carries meaning ("What does Robin
   * use?" keeps the name); the model still reads the question as asked.
   */
  focus?: string;
  /** Who a "not covered" answer says does not cover the question (default "The documentation"; the assistant's "This site"). */
  coverageSubject?: string;
}

/** The words sections and passages are chosen by: the question as searched, when that still says something. */
function matchQuery(opts: AnswerOptions): string {
  return opts.focus !== undefined && hasKeyTerms(opts.focus) ? opts.focus : opts.query;
}

/** Who an answer says does not cover a question or has no page for it. */
function coverageSubject(opts: AnswerOptions): string {
  return opts.coverageSubject ?? 'The documentation';
}

const DEFAULT_SOURCE_CHARS = 3000;
const MAX_PROMPT_SOURCE_CHARS = 16000;

const INSTRUCTIONS: Record<AnswerMode, string> = {
  generate: [
    'You answer questions about a documentation site using ONLY the numbered sources below: sections of its pages, in Markdown, each with its URL.',
    'Do not use outside knowledge and do not invent facts, options, commands or URLs. If the sources do not contain the answer, say that the documentation does not cover it and name the closest source.',
    'Answer in Markdown, concise and precise. Copy code exactly, as fenced code blocks with their language; keep lists as lists.',
  ].join('\n'),
  summarize: [
    'You summarize the numbered sources below (sections of a documentation site, in Markdown) for the user\'s query, using ONLY what the sources say.',
    'Give a short summary (a few sentences or a short list) of what the sources say about the query; do not add outside knowledge.',
    'Answer in Markdown. Copy code exactly, as fenced code blocks with their language.',
  ].join('\n'),
  chat: [
    'You are a helpful assistant for a website. Answer using ONLY the numbered sources below; do not use outside knowledge or invent facts.',
    'If the sources do not contain the answer, say that the site does not say.',
    'Keep answers short, plain text.',
  ].join('\n'),
};

const CITATION_RULE = 'Cite the sources you use with their numbers in square brackets, e.g. [1] or [2][3], and name the pages used.';
const SECTION_CITATION_RULE = 'Cite the sources you use with their numbers in square brackets, e.g. [1] or [2][3], right after the statement they support. Cite only the numbers listed below.';

function userPrompt(mode: AnswerMode, query: string): string {
  if (mode === 'summarize') return `Summarize what the sources say about: ${query}`;
  return query;
}

/** A table's rule line (`|---|:--:|`, `--- | ---`): only `|`, `:`, `-` and spaces, with a `|` and a `---`. */
function isTableRule(line: string): boolean {
  return line.includes('|') && line.includes('---') && /^[ \t|:-]+$/.test(line);
}

/** A heading line as a sentence of its own; any other line as it is. */
function headingAsSentence(line: string): string {
  const heading = atxHeading(line);
  return heading ? `\n${heading.text}.\n` : line;
}

/** Markdown / HTML → plain text good enough for prompts and sentence extraction. */
export function sourceText(content: string): string {
  let s = content.replace(/\r\n?/g, '\n');
  s = s.replace(/^---\n[\s\S]*?\n---\n/, ''); // frontmatter
  s = s.replace(/^(```|~~~)[^\n]*\n[\s\S]*?\n\1[^\n]*$/gm, '\n'); // fenced code blocks
  // images and links; no pattern here reads past the next `[`, `(` or line, so the time follows the text's length
  s = s.replace(/!\[([^[\]]*)\]\([^()[]*\)/g, '$1');
  s = s.replace(/\[([^[\]]+)\]\([^()[]*\)/g, '$1');
  s = s.replace(/`([^`]+)`/g, '$1');
  s = s.split('\n').map(headingAsSentence).join('\n');
  s = s.replace(/^[ \t]{0,3}>[ \t]?/gm, '');
  s = s.replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '\n');
  s = s.split('\n').map((line) => (isTableRule(line) ? '' : line)).join('\n');
  s = s.replace(/\|/g, ' ');
  s = s.replace(/(\*\*|__)(.*?)\1/g, '$2').replace(/(^|\W)[*_]([^*_\n]+)[*_](?=\W|$)/g, '$1$2');
  return s
    .split(/\n{2,}/)
    .map((p) => toPlainText(p))
    .filter(Boolean)
    .join('\n\n');
}

function formatSources(sources: AnswerSource[], maxChars: number): string {
  const per = Math.max(200, Math.min(maxChars, Math.floor(MAX_PROMPT_SOURCE_CHARS / Math.max(1, sources.length))));
  return sources
    .map((s, i) => {
      let text = sourceText(s.content);
      if (text.length > per) text = `${text.slice(0, per).replace(/\s+\S*$/, '')} …`;
      return `[${i + 1}] ${s.title} (${s.url})\n${text}`;
    })
    .join('\n\n');
}

/** Sources referred to by an answer: [n] markers, urls, or (when none) page titles mentioned. Source order. */
export function citedSources(text: string, sources: AnswerSource[]): number[] {
  const cited = new Set<number>();
  for (const m of text.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(m[1]);
    if (n >= 1 && n <= sources.length) cited.add(n - 1);
  }
  const lower = text.toLowerCase();
  sources.forEach((s, i) => {
    if (s.url && text.includes(s.url)) cited.add(i);
    const t = s.title.trim().toLowerCase();
    if (t.length >= 4 && lower.includes(t)) cited.add(i);
  });
  return [...cited].sort((a, b) => a - b);
}

function sourcesList(sources: AnswerSource[], idx: number[]): string {
  return `\n\nSources:\n${idx.map((i) => `[${i + 1}] ${sources[i]!.title} — ${sources[i]!.url}`).join('\n')}`;
}

export async function answer(opts: AnswerOptions): Promise<AnswerOutcome> {
  opts.signal?.throwIfAborted();
  if (opts.mode === 'chat') return chatAnswer(opts);
  return sectionAnswer(opts);
}

/** Streams the model's answer to onText; on failure falls back (docs) or throws (assistant). Null when it failed over. */
async function streamModel(opts: AnswerOptions, messages: ChatMessage[], onPiece: (piece: string) => void): Promise<{ fallback: AnswerOutcome } | null> {
  const { signal } = opts;
  let started = false;
  try {
    for await (const piece of opts.llm!.streamChat(messages, { signal })) {
      started ||= piece.length > 0;
      onPiece(piece);
    }
    return null;
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const unavailable = err instanceof LlmUnavailableError ? err : new LlmUnavailableError(`model backend failed: ${(err as Error)?.message ?? String(err)}`, { kind: 'protocol', partial: started, cause: err });
    if (opts.onModelFailure === 'throw') throw unavailable;
    if (started) opts.onText('\n\n[The model stopped responding; an extractive answer from the sources follows.]\n\n');
    const reason = `${started ? 'model stream interrupted' : 'model unavailable'}: ${unavailable.message}`;
    const out = opts.mode === 'chat' ? await extractiveAnswer(opts, opts.appendSources ?? false) : await extractiveSections(opts, rankSections(matchQuery(opts), opts.sources, opts.corrections, opts.termPages));
    return { fallback: { ...out, fallbackReason: reason } };
  }
}

async function chatAnswer(opts: AnswerOptions): Promise<AnswerOutcome> {
  const append = opts.appendSources ?? false;
  if (!opts.llm) return extractiveAnswer(opts, append);
  const sources = opts.sources;
  const system = `${opts.system ?? INSTRUCTIONS.chat}\n${CITATION_RULE}\n\nSources:\n${sources.length ? formatSources(sources, opts.maxSourceChars ?? DEFAULT_SOURCE_CHARS) : '(none)'}`;
  const messages: ChatMessage[] = [{ role: 'system', content: system }];
  for (const m of opts.history ?? []) messages.push({ role: m.role, content: m.content });
  messages.push({ role: 'user', content: opts.query });
  let text = '';
  const failed = await streamModel(opts, messages, (piece) => {
    text += piece;
    opts.onText(piece);
  });
  if (failed) return failed.fallback;
  let idx = citedSources(text, sources);
  if (idx.length === 0) idx = sources.map((_, i) => i);
  if (append && idx.length) opts.onText(sourcesList(sources, idx));
  return { backend: 'model', citations: idx.map((i) => sources[i]!.url) };
}

// ---------------------------------------------------------------------------------------------------------------
// summarize / generate: sections, Markdown, citations by number
// ---------------------------------------------------------------------------------------------------------------

/** Sections given to the model (their Markdown shares MAX_PROMPT_SOURCE_CHARS). */
const PROMPT_SECTIONS = 6;

/**
 * Section Markdown cut at a block boundary to `max` characters (a code block that does not fit is left out whole; a
 * first block longer than `max`, its part that matches the question).
 */
function sectionMarkdown(section: RankedSection, max: number, opts: AnswerOptions): string {
  const out: string[] = [];
  let used = 0;
  for (const b of section.section.blocks) {
    if (used + b.markdown.length > max) {
      if (b.kind === 'code') continue;
      // a first block longer than the whole share: its part that matches the question, rather than nothing
      const fitted = out.length === 0 ? fitBlockToQuestion(b, max, matchQuery(opts), opts.corrections) : undefined;
      if (fitted && fitted.markdown.length <= max) out.push(fitted.markdown);
      break;
    }
    out.push(b.markdown);
    used += b.markdown.length + 2;
  }
  return out.join('\n\n');
}

/** `[n]` list and reference definitions of the cited sections (n as numbered in the answer). */
function sectionSources(cited: readonly { n: number; section: RankedSection }[]): string {
  if (cited.length === 0) return '';
  const list = cited.map(({ n, section }) => `- [${n}] [${linkLabel(section.label)}](${section.url})`);
  const refs = cited.map(({ n, section }) => `[${n}]: ${section.url}`);
  return `\n\nSources:\n\n${list.join('\n')}\n\n${refs.join('\n')}`;
}

/** Page urls of cited sections, in order of first citation, each once. */
function citedPages(opts: AnswerOptions, sections: readonly RankedSection[]): string[] {
  return [...new Set(sections.map((s) => opts.sources[s.source]!.url))];
}

function notCovered(opts: AnswerOptions): AnswerOutcome {
  const subject = coverageSubject(opts);
  const closest = opts.sources.slice(0, 3);
  const text = closest.length
    ? `${subject} does not cover this question. The closest pages are:\n\n${closest.map((s) => `- [${linkLabel(s.title)}](${s.url})`).join('\n')}`
    : `${subject} does not cover this question: no page matches it.`;
  opts.onText(text);
  return { backend: 'extractive', citations: [], status: 'not_covered' };
}

async function sectionAnswer(opts: AnswerOptions): Promise<AnswerOutcome> {
  const ranked = rankSections(matchQuery(opts), opts.sources, opts.corrections, opts.termPages);
  if (!ranked.length || ranked[0]!.coverage < COVERED_THRESHOLD) {
    await Promise.resolve();
    opts.signal?.throwIfAborted();
    return notCovered(opts);
  }
  if (!opts.llm) return extractiveSections(opts, ranked);

  const given = ranked.slice(0, PROMPT_SECTIONS);
  const per = Math.max(400, Math.floor(MAX_PROMPT_SOURCE_CHARS / given.length));
  const numbered = given.map((s, i) => `[${i + 1}] ${s.label} (${s.url})\n${sectionMarkdown(s, per, opts)}`).join('\n\n');
  const system = `${opts.system ?? INSTRUCTIONS[opts.mode]}\n${SECTION_CITATION_RULE}\n\nSources:\n${numbered}`;
  const messages: ChatMessage[] = [{ role: 'system', content: system }, { role: 'user', content: userPrompt(opts.mode, opts.query) }];
  const filter = citationFilter(given.length);
  const send = (text: string) => {
    if (text) opts.onText(text);
  };
  const failed = await streamModel(opts, messages, (piece) => send(filter.push(piece)));
  if (failed) return failed.fallback;
  send(filter.end());
  const cited = filter.cited.length ? filter.cited.map((n) => ({ n, section: given[n - 1]! })) : given.map((section, i) => ({ n: i + 1, section }));
  if (opts.appendSources ?? true) send(sectionSources(filter.cited.length ? cited : []));
  return { backend: 'model', citations: citedPages(opts, cited.map((c) => c.section)), status: 'answered' };
}

/** Passages an answer quotes, and how many of each: generate the best sections anywhere, summarize the best of each top page. */
const GENERATE_PASSAGES = 3;
const SUMMARIZE_PAGES = 3;
/**
 * A further passage must score at least this share of the best one: on the Vitest judged set a second or third
 * section this close is as often the one that answers (content/docs/api/search-quality.md).
 */
const FURTHER_PASSAGE_SHARE = 0.25;

/**
 * The passage as Markdown with ` [n]` after its last paragraph or list (never inside code, a quote, a table or on a
 * tab's label), under its label when it has one (summarize); a passage with no such block carries the marker on its
 * label, or after a "From [n]:" lead-in.
 */
function withMarker(blocks: readonly Block[], n: number, label = ''): string {
  // a block's trailing blank lines (a list whose last item ends in a fence) would open a gap of two empty lines
  const parts = blocks.map((b) => b.markdown.trimEnd());
  for (let i = blocks.length - 1; i >= 0; i--) {
    if (blocks[i]!.kind !== 'paragraph' && blocks[i]!.kind !== 'list') continue;
    if (isLabel(blocks[i]!)) continue; // a tab's or a callout's label names the block after it, it says nothing
    if (/(```|~~~)$/.test(parts[i]!)) continue; // a list item that ends in a fence
    parts[i] = `${parts[i]!} [${n}]`;
    return `${label ? `${label}\n\n` : ''}${parts.join('\n\n')}`;
  }
  return `${label ? `${label} [${n}]` : `From [${n}]:`}\n\n${parts.join('\n\n')}`;
}

/** Text set in Markdown as written: the characters that would start emphasis, code, a link or HTML escaped. */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, '\\$&');
}

/**
 * A passage that opens with an option's fields (`- **Type:** number`, `- **Default:** 5_000`) says which option only
 * in its source's heading: the option is named before them, as the page names it (`hookTimeout`:), so a reader of a
 * second such passage knows whose default it is.
 */
function withOptionName(passage: Block[], name: string): Block[] {
  if (!name || passage.length === 0 || !isFieldList(passage[0]!)) return passage;
  return [{ kind: 'paragraph', markdown: nameLead(name) }, ...passage];
}

/**
 * `name`: for an identifier (a dot, dash, underscore or inner capital: `server.port`, `npm-ls`, `testTimeout`; with a
 * version note after it, as a heading has it: `coverage.instrumenter` (4.1.5)), else **name**: (bold, so that a name
 * such as "1. Install" never starts a list).
 */
function nameLead(name: string): string {
  const short = cutLabel(name);
  const identifier = /^([^\s`]*(?:[._$-]|[a-z][A-Z])[^\s`]*)(\s+\([^()]*\))?$/.exec(short);
  return identifier ? `\`${identifier[1]}\`${escapeInline(identifier[2] ?? '')}:` : `**${escapeInline(short)}**:`;
}

/** A passage that is only the page's description (npm's "Remove a package") reads as what the page does: `npm-uninstall`: Remove a package. */
function describedPage(passage: Block[], title: string): Block[] {
  if (passage.length !== 1 || !passage[0]!.description || !title) return passage;
  return [{ kind: 'paragraph', markdown: `${nameLead(title)} ${passage[0]!.markdown.replace(/^>\s?/gm, '').trim()}` }];
}

/**
 * A block as quoted once: code by the lines between its fences (the same code under ``` and ~~~, or another title, is
 * the same code), a paragraph, list or table of some length by its text (two guides opening with the same sentence;
 * a tab's label and an option's Type and Default repeat by nature and have none).
 */
function quotedKey(b: Block): string | undefined {
  if (b.kind === 'code') return `code\n${b.markdown.split('\n').slice(1, -1).join('\n').trim()}`;
  return b.markdown.length >= REPEATED_TEXT_CHARS && !isFieldList(b) ? `text\n${b.markdown}` : undefined;
}

/**
 * The passage without the blocks an earlier passage quoted (quotedKey), the lead-ins announcing them, and then a
 * label or lead-in left last.
 */
function unquoted(passage: readonly Block[], quotedBlocks: ReadonlySet<string>): Block[] {
  const repeated = (b: Block | undefined) => b !== undefined && quotedBlocks.has(quotedKey(b) ?? '');
  // a lead-in goes with the block it announces
  const kept = passage.filter((b, i) => !repeated(b) && !(isLeadIn(b) && repeated(passage[i + 1])));
  if (kept.length < passage.length) while (kept.length > 0 && announcesNext(kept.at(-1)!)) kept.pop();
  return kept;
}

/** Characters from which a paragraph, list or table quoted twice is a repeat (a label or "Or:" is not). */
const REPEATED_TEXT_CHARS = 40;

async function extractiveSections(opts: AnswerOptions, ranked: readonly RankedSection[]): Promise<AnswerOutcome> {
  // the answer is computed synchronously; yield once so callers see the same async shape as the model path
  await Promise.resolve();
  opts.signal?.throwIfAborted();
  const emit = (text: string) => {
    opts.signal?.throwIfAborted();
    opts.onText(text);
  };
  const best = ranked[0];
  if (!best) return notCovered(opts);
  let picked: RankedSection[];
  if (opts.mode === 'summarize') {
    const seen = new Set<number>();
    // by score: a page whose passage is left out gives its place to the next (read in the search's order, below)
    picked = ranked.filter((r) => r.coverage >= COVERED_THRESHOLD / 2 && !seen.has(r.source) && seen.add(r.source));
  } else {
    // the search ranking's first page leads when one of its sections covers the question (its first result is more
    // often the page that answers than the best single section is); further passages from other pages first, in the
    // search's order for the same reason
    const lead = ranked.find((r) => r.source === 0 && r.coverage >= COVERED_THRESHOLD) ?? best;
    const further = ranked.filter((r) => r !== lead && r.score >= FURTHER_PASSAGE_SHARE * best.score && r.coverage >= COVERED_THRESHOLD);
    const seen = new Set<number>([lead.source]);
    const pageFirsts = further.filter((r) => !seen.has(r.source) && seen.add(r.source)).sort((a, b) => a.source - b.source);
    const rest = further.filter((r) => r.source !== lead.source && !pageFirsts.includes(r));
    picked = [lead, ...pageFirsts, ...rest, ...further.filter((r) => r.source === lead.source)];
  }
  const passageLimit = opts.mode === 'summarize' ? SUMMARIZE_PAGES : GENERATE_PASSAGES;
  const chosen: { section: RankedSection; passage: Block[] }[] = [];
  // two pages can hold the same text (a CLI reference generated from the options' docs, a guide repeating the
  // reference's example): a passage, and each block of some length, is quoted once
  const quoted = new Set<string>();
  const quotedBlocks = new Set<string>();
  const question = matchQuery(opts);
  for (const section of picked) {
    if (chosen.length === passageLimit) break;
    const source = opts.sources[section.source]!;
    let passage = withAnnouncedSubsections(sectionPassage(section.section, question, opts.corrections), source, section.section);
    // summarize leads each passage with its label already
    if (opts.mode !== 'summarize') passage = withOptionName(describedPage(passage, source.title), section.section.heading || source.title);
    const text = passage.map((b) => b.markdown).join('\n\n');
    if (quoted.has(text)) continue;
    passage = unquoted(passage, quotedBlocks);
    // a passage holding little of the question answers nothing, whatever its section holds elsewhere
    if (passage.length === 0 || passageCoverage(passage, section, source.title) < PASSAGE_THRESHOLD) continue;
    for (const b of passage) {
      const key = quotedKey(b);
      if (key !== undefined) quotedBlocks.add(key);
    }
    quoted.add(text);
    chosen.push({ section, passage });
  }
  if (opts.mode === 'summarize') chosen.sort((a, b) => a.section.source - b.section.source);
  const cited: { n: number; section: RankedSection }[] = [];
  for (const { section, passage } of chosen) {
    const n = cited.length + 1;
    cited.push({ n, section });
    const label = opts.mode === 'summarize' ? `**${escapeInline(section.label)}**` : '';
    emit(`${n > 1 ? '\n\n' : ''}${withMarker(passage, n, label)}`);
  }
  if (cited.length === 0) return notCovered(opts);
  if (opts.appendSources ?? true) emit(sectionSources(cited));
  return { backend: 'extractive', citations: citedPages(opts, cited.map((c) => c.section)), status: 'answered' };
}

// ---------------------------------------------------------------------------------------------------------------
// chat without a model (the assistant): the best sentences, plain text
// ---------------------------------------------------------------------------------------------------------------

interface Candidate { source: number; pos: number; text: string; terms: Set<string>; score: number }

/** Filler of a chat question: fewer words than an /ask question's, since a short follow-up ("what does it need?") is all meaning. */
const CHAT_FILLER = new Set(['use', 'using', 'want', 'way', 'get'].map((w) => textTerms(w)[0]!));

function matches(sentenceTerms: Set<string>, q: string): boolean {
  if (sentenceTerms.has(q)) return true;
  if (q.length < 3) return false;
  for (const t of sentenceTerms) if (t.length > q.length && t.startsWith(q)) return true;
  return false;
}

/**
 * Deterministic sentence selection: every sentence of every source is scored by the query terms it contains,
 * weighted by their rarity across all sentences (idf) and by the share of query terms covered, with a small bonus
 * for higher-ranked sources and earlier sentences and a continuation bonus after a strong sentence; ties break by
 * source order, then position. The answer keeps the best sentences scoring at least half of the best one.
 */
export function rankSentences(query: string, sources: AnswerSource[]): Candidate[] {
  const q = questionTerms(query, CHAT_FILLER);
  const cands: Candidate[] = [];
  sources.forEach((s, si) => {
    const sentences = splitSentences(sourceText(s.content));
    sentences.forEach((text, pos) => {
      const words = text.split(/\s+/).length;
      if (words < 4 || text.length > 600) return;
      cands.push({ source: si, pos, text, terms: new Set(textTerms(text)), score: 0 });
    });
  });
  const n = cands.length;
  const idf = new Map<string, number>();
  for (const t of q) {
    let df = 0;
    for (const c of cands) if (matches(c.terms, t)) df++;
    idf.set(t, Math.log(1 + (n + 1) / (df + 0.5)));
  }
  for (const c of cands) {
    let s = 0;
    let hits = 0;
    for (const t of q) {
      if (matches(c.terms, t)) {
        s += idf.get(t)!;
        hits++;
      }
    }
    if (hits === 0) continue;
    const coverage = hits / q.length;
    c.score = s * (0.5 + coverage) + 0.3 / (c.source + 1) + 0.2 / (c.pos + 1);
  }
  // a matching sentence right after a strong one usually continues it ("It needs …"): it inherits half its score
  const base = cands.map((c) => c.score);
  for (let k = 1; k < cands.length; k++) {
    const c = cands[k]!;
    const prev = cands[k - 1]!;
    if (c.score > 0 && prev.source === c.source && prev.pos === c.pos - 1) c.score += 0.5 * base[k - 1]!;
  }
  return cands;
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || a.source - b.source || a.pos - b.pos;
}

async function extractiveAnswer(opts: AnswerOptions, append: boolean): Promise<AnswerOutcome> {
  const { sources, signal } = opts;
  const emit = (text: string) => {
    signal?.throwIfAborted();
    opts.onText(text);
  };
  // The answer is computed synchronously; yield once so callers see the same async shape as the model path.
  await Promise.resolve();
  signal?.throwIfAborted();
  if (sources.length === 0) {
    emit(`${coverageSubject(opts)} has no pages matching this question.`);
    return { backend: 'extractive', citations: [] };
  }
  const cands = rankSentences(matchQuery(opts), sources);
  const best = cands.reduce((m, c) => Math.max(m, c.score), 0);
  // keep the strongest sentences only, read in document order: weak partial matches would dilute the answer
  const chosen = cands.filter((c) => c.score > 0 && c.score >= 0.5 * best).sort(byScore).slice(0, 3);
  chosen.sort((a, b) => a.source - b.source || a.pos - b.pos);
  const used = new Set<number>();
  const pieces: string[] = [];
  if (chosen.length === 0) {
    const first = cands.find((c) => c.source === 0);
    pieces.push(`The sources do not answer this directly. The closest page is "${sources[0]!.title}"${first ? `: ${first.text}` : '.'} [1]`);
    used.add(0);
  }
  let current = -1;
  for (const c of chosen) {
    used.add(c.source);
    if (c.source !== current) {
      pieces.push(`${current < 0 ? '' : '\n'}According to the "${sources[c.source]!.title}" page: ${c.text}`);
      current = c.source;
    } else pieces.push(` ${c.text}`);
  }
  for (const p of pieces) emit(p);
  const idx = [...used].sort((a, b) => a - b);
  if (append) emit(sourcesList(sources, idx));
  return { backend: 'extractive', citations: idx.map((i) => sources[i]!.url) };
}
