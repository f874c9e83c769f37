/**
 * How the answerer reads a question's words and looks for them in Markdown: the question's key terms, the words that
 * stand for each (related words, the correction of a slip of the fingers), and whether a heading, title or block
 * holds them. Shared by the ranking of sections and the choice and checking of passages (passages.ts), so that a
 * passage is judged by the same reading of the question as the section it comes from, and by the chat answer's
 * choice of sentences (answer.ts).
 */
import { INLINE_LINK } from './inline-markdown.ts';
import type { Corrections } from './search.ts';
import { RELATED_WEIGHT, relatedTerms } from './synonyms.ts';
import { QUESTION_FILLER, STOPWORDS, primaryTerm, textTerms } from './text.ts';
import { isTypingSlip } from './typing-slips.ts';

/**
 * Query terms that carry meaning: stopwords, question filler and single letters (`x` and `y` of `toBe(y)`) removed,
 * unless nothing else is left.
 */
export function questionTerms(query: string, filler: ReadonlySet<string> = QUESTION_FILLER): string[] {
  const all = [...new Set(answerTerms(query))];
  const key = keyTerms(all, filler);
  return key.length ? key : all;
}

/** Whether a question has a term that carries meaning (questionTerms would not fall back to all of its words). */
export function hasKeyTerms(query: string): boolean {
  return keyTerms(answerTerms(query), QUESTION_FILLER).length > 0;
}

function keyTerms(terms: readonly string[], filler: ReadonlySet<string>): string[] {
  return terms.filter((t) => t.length > 1 && !STOPWORDS.has(t) && !filler.has(t));
}

/**
 * The terms of a question or a section as the answerer compares them: Markdown's and code's punctuation (backticks,
 * brackets, `=`) split words, so `--reporter=json` is the words `reporter` and `json` on both sides.
 */
export function answerTerms(text: string, splitCase = false): string[] {
  return textTerms(text.replace(/[^\p{L}\p{N}_.\s-]+/gu, ' '), splitCase);
}

/**
 * Markdown as the reader reads it: a link's destination is not prose (every link to `https://…` would otherwise make
 * its section hold `http`, `github`, `com`), so inline links and images keep their text, autolinks and reference
 * definitions go, and so does a URL written out in prose or code (`'https://github.com/org/repo/pull/7953'` is no
 * section about pull requests).
 */
export function readText(markdown: string): string {
  return markdown
    .replace(/^[ \t]{0,3}\[[^\]\n]+\]:[ \t]+\S+.*$/gm, ' ')
    .replace(INLINE_LINK, '[$1]')
    .replace(/<(?:https?|mailto):[^>\s]*>/g, ' ')
    .replace(/\bhttps?:\/\/[^\s<>()[\]'"`]+/g, ' ');
}

export function termCounts(text: string, splitCase = false): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of answerTerms(text, splitCase)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** How often a term occurs: exactly, or as the prefix of a longer term (`mock` finds `mocking`'s stem `mock`, `config` finds `configuration`). */
export function occurrences(counts: Map<string, number>, term: string): number {
  const exact = counts.get(term);
  if (exact) return exact;
  if (term.length < 4) return 0;
  let n = 0;
  for (const [t, c] of counts) if (t.length > term.length && t.startsWith(term)) n += c;
  return n;
}

/**
 * A word that stands for a question term besides the term itself, and what its occurrence in a body weighs: a related
 * word (synonyms.ts) RELATED_WEIGHT, the correction of a slip 1 (the word the reader meant). Either names the term.
 */
export interface Alternative { term: string; body: number }

export const NO_CORRECTIONS: Corrections = new Map();

/**
 * What stands for each question term besides itself: its related words, and for a word the index does not hold its
 * corrections that look like a slip of the fingers for it (typing-slips.ts).
 */
export function alternativesOf(query: string, terms: readonly string[], corrections: Corrections): Alternative[][] {
  const typed = new Map<string, string>();
  if (corrections.size) for (const word of query.split(/\s+/)) if (word) typed.set(primaryTerm(word), word);
  return terms.map((term) => {
    const out: Alternative[] = relatedTerms(term).map((r) => ({ term: r, body: RELATED_WEIGHT }));
    for (const c of corrections.get(term) ?? []) if (isTypingSlip(typed.get(term) ?? term, c.term)) out.push({ term: c.term, body: 1 });
    return out;
  });
}

/** Whether a heading, title or block holds the term or a word that stands for it. */
export function namesTerm(counts: Map<string, number>, term: string, alternatives: readonly Alternative[]): boolean {
  return occurrences(counts, term) > 0 || alternatives.some((a) => occurrences(counts, a.term) > 0);
}
