/**
 * Whether a misspelt word looks like a slip of the fingers for the word the search corrected it to: a dropped letter
 * (`sytem`), a doubled one (`commmon`), two adjacent letters swapped (`teardwon`), in a word of 6 or more letters a
 * vowel written for another (`locaters`, `deploi`, `dependancy`: the vowels people spell by ear), or two such slips
 * in a word of 9 or more letters. The search matches every near word (term-dictionary.ts: one edit of any kind),
 * which serves ranking; the answerer reads a question's word as its correction only when it looks like a slip,
 * because a changed or an added letter more often spells another real word the docs do not use ("bake" ~ "make",
 * "socks" ~ "mocks", "plant" ~ "plan"), and reading it as that word would answer a question the docs do not cover. A
 * changed vowel in a short word is often another word too ("later" ~ "liter"); from six letters it rarely is.
 *
 * Index words are stems (text.ts stem): the typed word is compared with the correction plus each ending the stemmer
 * removes (`timres` is a slip for `timer` + `s`).
 */
import { stem } from './text.ts';

/** Endings text.ts stem() takes off a word (with the `e` it drops), so a correction is compared as a whole word. */
const ENDINGS = ['', 's', 'e', 'es', 'ed', 'ing', 'd', 'y', 'ies', 'ate', 'ates', 'ated', 'ating', 'ation', 'ations', 'ator', 'ators'];

/** A vowel written for another counts as a slip in words of this many letters (`locaters`, `deploi`, `dependancy`). */
const VOWEL_SLIP_LETTERS = 6;
const VOWEL = new Set(['a', 'e', 'i', 'o', 'u', 'y']);

/** The word's letters as the search reads them: lower case, no punctuation (`in-source` → `insource`). */
export function typedForm(word: string): string {
  return word.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}_]/gu, '');
}

/**
 * Slips from `typed` to `intended`: dropped letters, doubled letters and swaps cost one each, and with `vowels` a
 * vowel for another; any other edit is not a slip (Infinity). A small dynamic programme over both words (words are
 * short: at most 64 letters are compared).
 */
export function slipDistance(typed: string, intended: string, vowels = false): number {
  const a = typed.slice(0, 64);
  const b = intended.slice(0, 64);
  const cols = b.length + 1;
  const d = new Float64Array((a.length + 1) * cols).fill(Infinity);
  d[0] = 0;
  for (let j = 1; j <= b.length; j++) d[j] = j; // every letter of `intended` dropped
  for (let i = 1; i <= a.length; i++) {
    for (let j = 0; j <= b.length; j++) {
      let best = Infinity;
      if (j > 0 && a[i - 1] === b[j - 1]) best = d[(i - 1) * cols + j - 1]!;
      else if (vowels && j > 0 && VOWEL.has(a[i - 1]!) && VOWEL.has(b[j - 1]!)) best = d[(i - 1) * cols + j - 1]! + 1; // a vowel for another
      if (j > 0) best = Math.min(best, d[i * cols + j - 1]! + 1); // dropped b[j-1]
      if (i > 1 && a[i - 1] === a[i - 2]) best = Math.min(best, d[(i - 1) * cols + j]! + 1); // a doubled letter
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1); // a swap
      d[i * cols + j] = best;
    }
  }
  return d[a.length * cols + b.length]!;
}

/** Whether `typed` (a word as the reader wrote it) looks like a slip for the index word (stem) `correction`. */
export function isTypingSlip(typed: string, correction: string): boolean {
  const word = typedForm(typed);
  const most = word.length >= 9 ? 2 : 1;
  const wholeWords = ENDINGS.map((ending) => correction + ending);
  if (correction.endsWith('y')) wholeWords.push(...ENDINGS.map((ending) => correction.slice(0, -1) + ending));
  // the stemmer also undoubles a final consonant (`running` → `run`)
  wholeWords.push(`${correction}${correction.at(-1)}ing`, `${correction}${correction.at(-1)}ed`);
  for (const intended of wholeWords) {
    if (stem(intended) !== correction) continue;
    const distance = slipDistance(word, intended, word.length >= VOWEL_SLIP_LETTERS);
    if (distance >= 1 && distance <= most) return true;
  }
  return false;
}
