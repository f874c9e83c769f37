/**
 * Answers grounded in sources: from the model backend when one is given, else (or when it fails and the caller
 * allows it) from a deterministic extractive answerer.
 *
 * Modes:
 *   summarize  a summary of the top sources (one line per source)
 *   generate   an answer to the query grounded in the sources, with [n] markers
 *   chat       multi-turn (history) answer for the assistant
 * Text goes to `onText` as it is produced. For summarize/generate a "Sources:" list (`[n] Title — url`, the cited
 * sources) ends the text unless `appendSources` is false; `citations` are the urls of the sources used, in source
 * order (all sources when a model answer cites none).
 */
import type { ChatMessage, LlmClient } from './llm.ts';
import { LlmUnavailableError } from './llm.ts';
import { STOPWORDS, splitSentences, textTerms, toPlainText } from './text.ts';

export type { LlmClient } from './llm.ts';
export { LlmUnavailableError } from './llm.ts';

export interface AnswerSource { url: string; title: string; content: string }
export interface AnswerChunk { text: string }
export interface AnswerOutcome { backend: 'model' | 'extractive'; fallbackReason?: string; citations: string[] }
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
}

const DEFAULT_SOURCE_CHARS = 3000;
const MAX_PROMPT_SOURCE_CHARS = 16000;

const INSTRUCTIONS: Record<AnswerMode, string> = {
  generate: [
    'You answer questions about a documentation site using ONLY the numbered sources below.',
    'Do not use outside knowledge and do not invent facts, options, commands or URLs. If the sources do not contain the answer, say so briefly and name the most relevant source.',
    'Be concise and precise; plain text.',
  ].join('\n'),
  summarize: [
    'You summarize the numbered sources below for the user\'s query, using ONLY what the sources say.',
    'Give a short summary (a few sentences or a short list) of what the sources say about the query; do not add outside knowledge.',
    'Plain text.',
  ].join('\n'),
  chat: [
    'You are a helpful assistant for a website. Answer using ONLY the numbered sources below; do not use outside knowledge or invent facts.',
    'If the sources do not contain the answer, say that the site does not say.',
    'Keep answers short, plain text.',
  ].join('\n'),
};

const CITATION_RULE = 'Cite the sources you use with their numbers in square brackets, e.g. [1] or [2][3], and name the pages used.';

function userPrompt(mode: AnswerMode, query: string): string {
  if (mode === 'summarize') return `Summarize what the sources say about: ${query}`;
  return query;
}

/** Markdown / HTML → plain text good enough for prompts and sentence extraction. */
export function sourceText(content: string): string {
  let s = content.replace(/\r\n?/g, '\n');
  s = s.replace(/^---\n[\s\S]*?\n---\n/, ''); // frontmatter
  s = s.replace(/^(```|~~~)[^\n]*\n[\s\S]*?\n\1[^\n]*$/gm, '\n'); // fenced code blocks
  s = s.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1'); // images
  s = s.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1'); // links
  s = s.replace(/`([^`]+)`/g, '$1');
  s = s.replace(/^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/gm, '\n$1.\n'); // headings become their own sentence
  s = s.replace(/^\s{0,3}>\s?/gm, '');
  s = s.replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '\n');
  s = s.replace(/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, ''); // table rules
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
  const { signal } = opts;
  signal?.throwIfAborted();
  const append = opts.appendSources ?? opts.mode !== 'chat';
  if (!opts.llm) return extractiveAnswer(opts, append);

  const sources = opts.sources;
  const system = `${opts.system ?? INSTRUCTIONS[opts.mode]}\n${CITATION_RULE}\n\nSources:\n${sources.length ? formatSources(sources, opts.maxSourceChars ?? DEFAULT_SOURCE_CHARS) : '(none)'}`;
  const messages: ChatMessage[] = [{ role: 'system', content: system }];
  for (const m of opts.history ?? []) messages.push({ role: m.role, content: m.content });
  messages.push({ role: 'user', content: userPrompt(opts.mode, opts.query) });

  let text = '';
  try {
    for await (const piece of opts.llm.streamChat(messages, { signal })) {
      text += piece;
      opts.onText(piece);
    }
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const unavailable = err instanceof LlmUnavailableError ? err : new LlmUnavailableError(`model backend failed: ${(err as Error)?.message ?? String(err)}`, { kind: 'protocol', partial: text.length > 0, cause: err });
    if (opts.onModelFailure === 'throw') throw unavailable;
    const started = text.length > 0;
    if (started) opts.onText('\n\n[The model stopped responding; an extractive answer from the sources follows.]\n\n');
    const out = await extractiveAnswer(opts, append);
    return { ...out, fallbackReason: `${started ? 'model stream interrupted' : 'model unavailable'}: ${unavailable.message}` };
  }
  let idx = citedSources(text, sources);
  if (idx.length === 0) idx = sources.map((_, i) => i);
  if (append && idx.length) opts.onText(sourcesList(sources, idx));
  return { backend: 'model', citations: idx.map((i) => sources[i]!.url) };
}

// ---------------------------------------------------------------------------------------------------------------
// Extractive answerer
// ---------------------------------------------------------------------------------------------------------------

const EXTRA_STOPWORDS = new Set(['use', 'using', 'want', 'way', 'get'].map((w) => textTerms(w)[0]!));

interface Candidate { source: number; pos: number; text: string; terms: Set<string>; score: number }

/** Query terms that carry meaning (stopwords removed unless nothing else is left). */
export function keyTerms(query: string): string[] {
  const all = [...new Set(textTerms(query))];
  const key = all.filter((t) => !STOPWORDS.has(t) && !EXTRA_STOPWORDS.has(t));
  return key.length ? key : all;
}

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
  const q = keyTerms(query);
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
    emit('The documentation has no pages matching this question.');
    return { backend: 'extractive', citations: [] };
  }
  const cands = rankSentences(opts.query, sources);
  const used = new Set<number>();
  const pieces: string[] = [];

  if (opts.mode === 'summarize') {
    // one line per top source: its best-matching sentence (or its first sentence)
    for (let si = 0; si < Math.min(sources.length, 3); si++) {
      const mine = cands.filter((c) => c.source === si);
      if (mine.length === 0) continue;
      const best = [...mine].sort(byScore)[0]!;
      const pick = best.score > 0 ? best : mine[0]!;
      used.add(si);
      pieces.push(`${pieces.length ? '\n' : ''}${sources[si]!.title}: ${pick.text} [${si + 1}]`);
    }
  } else {
    const limit = opts.mode === 'chat' ? 3 : 4;
    const best = cands.reduce((m, c) => Math.max(m, c.score), 0);
    // keep the strongest sentences only: weak partial matches would dilute the answer
    const chosen = cands.filter((c) => c.score > 0 && c.score >= 0.5 * best).sort(byScore).slice(0, limit);
    // read in document order: by source, then position
    chosen.sort((a, b) => a.source - b.source || a.pos - b.pos);
    if (chosen.length === 0) {
      const first = cands.find((c) => c.source === 0);
      pieces.push(`The sources do not answer this directly. The closest page is "${sources[0]!.title}"${first ? `: ${first.text}` : '.'} [1]`);
      used.add(0);
    } else if (opts.mode === 'chat') {
      let current = -1;
      for (const c of chosen) {
        used.add(c.source);
        if (c.source !== current) {
          pieces.push(`${current < 0 ? '' : '\n'}According to the "${sources[c.source]!.title}" page: ${c.text}`);
          current = c.source;
        } else pieces.push(` ${c.text}`);
      }
    } else {
      for (const c of chosen) {
        used.add(c.source);
        pieces.push(`${pieces.length ? ' ' : ''}${c.text} [${c.source + 1}]`);
      }
    }
  }
  if (pieces.length === 0) {
    pieces.push(`See "${sources[0]!.title}" [1].`);
    used.add(0);
  }
  for (const p of pieces) emit(p);
  const idx = [...used].sort((a, b) => a - b);
  if (append) emit(sourcesList(sources, idx));
  return { backend: 'extractive', citations: idx.map((i) => sources[i]!.url) };
}
