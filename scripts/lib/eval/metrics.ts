/**
 * Relevance measures of the evaluation, over ranked page paths (one entry per page, best first).
 *
 *   MRR@10    mean over queries of 1 / rank of the first judged page (grade 1 or 2) in the top 10, 0 when none is;
 *   Recall@5  mean over queries of the share of its best pages (grade 2) found in the top 5.
 * Answer measures (mode=generate) are counted per answer; see answerChecks.
 */
import { fenceTracker } from '../../../gateway/engine/markdown-sections.ts';
import type { EvalQuery } from './judged-set.ts';

export function reciprocalRank(ranked: readonly string[], q: EvalQuery, depth = 10): number {
  const i = ranked.slice(0, depth).findIndex((p) => q.relevant.has(p));
  return i < 0 ? 0 : 1 / (i + 1);
}

export function recall(ranked: readonly string[], q: EvalQuery, depth = 5): number {
  const best = [...q.relevant].filter(([, g]) => g === 2).map(([p]) => p);
  if (best.length === 0) return 0;
  const top = new Set(ranked.slice(0, depth));
  return best.filter((p) => top.has(p)).length / best.length;
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

/**
 * Lines that open or close a code fence, and whether every fence is closed and none was flattened into a line. A
 * callout keeps its code as a fence inside a blockquote (`> ```ts`): the quote markers are read past, so such a fence
 * counts as one.
 */
export function fencesIntact(markdown: string): boolean {
  let open: string | null = null;
  for (const quoted of markdown.split('\n')) {
    const line = quoted.replace(/^(?:\s{0,3}>\s?)+/, '');
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (open === null) open = m[1]!;
      else if (m[1]!.startsWith(open) && line.trim() === m[1]) open = null;
      continue;
    }
    // a fence marker in the middle of a line: a code block glued into prose
    if (open === null && /\S.*```|```.*\S.*```/.test(line)) return false;
  }
  return open === null;
}

/**
 * Faults of an answer's text no citation count shows: the same paragraph or code block quoted twice (`repeated`;
 * paragraphs of 40 characters or more, markers `[n]` aside), and a last block that is a lead-in ending in `:` with
 * nothing after it (`dangling`). Reads the text before its "Sources:" list; blocks split at blank lines outside fences.
 */
export function answerShape(markdown: string): { repeated: boolean; dangling: boolean } {
  const body = markdown.split('\n\nSources:')[0]!;
  const blocks: { text: string; code: boolean }[] = [];
  let current: string[] = [];
  const flush = (code = false) => {
    if (current.length) blocks.push({ text: current.join('\n').replace(/(?: \[\d+\])+\s*$/, '').trim(), code });
    current = [];
  };
  // a fence's body only: the same code under another title or fence is the same code
  const fence = fenceTracker();
  for (const line of body.split('\n')) {
    const inside = fence.open();
    fence.read(line);
    if (!inside && fence.open()) flush();
    else if (inside && !fence.open()) flush(true);
    else if (inside || line.trim() !== '') current.push(line);
    else flush();
  }
  flush(fence.open());
  const long = blocks.filter((b) => b.text.length >= 40).map((b) => b.text);
  const last = blocks.at(-1);
  return { repeated: new Set(long).size < long.length, dangling: last !== undefined && !last.code && last.text.endsWith(':') };
}

/** Page path of a citation URL (absolute or root-relative, anchors dropped). */
export function citedPath(url: string): string {
  return new URL(url, 'http://x').pathname.replace(/\/+$/, '') || '/';
}

export interface AnswerCheck {
  citesJudged: boolean;
  firstCitedJudged: boolean;
  fencesIntact: boolean;
  notCovered: boolean;
  /** answerShape's faults. */
  repeated: boolean;
  dangling: boolean;
}

export function answerCheck(q: EvalQuery, answer: { text: string; citations: string[]; notCovered: boolean }): AnswerCheck {
  const cited = answer.citations.map(citedPath);
  return {
    citesJudged: cited.some((p) => q.relevant.has(p)),
    firstCitedJudged: cited.length > 0 && q.relevant.has(cited[0]!),
    fencesIntact: fencesIntact(answer.text),
    notCovered: answer.notCovered,
    ...answerShape(answer.text),
  };
}
