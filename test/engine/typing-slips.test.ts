// Which corrections the answerer reads as the reader's word (gateway/engine/typing-slips.ts): slips of the fingers
// (a dropped, doubled or swapped letter; a vowel for another in a long word) and not another real word one letter away.
import { describe, expect, it } from 'vitest';
import { isTypingSlip, slipDistance } from '../../gateway/engine/typing-slips.ts';

describe('typing slips', () => {
  it('counts dropped, doubled and swapped letters, and nothing else', () => {
    expect(slipDistance('sytem', 'system')).toBe(1); // dropped
    expect(slipDistance('commmon', 'common')).toBe(1); // doubled
    expect(slipDistance('teardwon', 'teardown')).toBe(1); // swapped
    expect(slipDistance('mdoe', 'mode')).toBe(1);
    expect(slipDistance('benchmrkng', 'benchmarking')).toBe(2);
    expect(slipDistance('bake', 'make')).toBe(Infinity); // changed
    expect(slipDistance('plant', 'plan')).toBe(Infinity); // an added letter that doubles nothing
    expect(slipDistance('mode', 'mode')).toBe(0);
  });

  it('takes a correction for a slip when the typed word is a slip for one of its whole words (stems lose endings)', () => {
    expect(isTypingSlip('sytem', 'system')).toBe(true);
    expect(isTypingSlip('timres', 'timer')).toBe(true); // timers, swapped
    expect(isTypingSlip('migraton', 'migr')).toBe(true); // migration (stem `migr`), a dropped letter
    expect(isTypingSlip('moduels', 'modul')).toBe(true); // modules, swapped
    expect(isTypingSlip('typse', 'type')).toBe(true); // types
    expect(isTypingSlip('benchmarkng', 'benchmark')).toBe(true); // benchmarking, dropped
    expect(isTypingSlip('Teardwon', 'teardown')).toBe(true); // as typed, in any case
    expect(isTypingSlip('runnign', 'run')).toBe(true); // running: the stemmer undoubles the n
    expect(isTypingSlip('tesitng', 'test')).toBe(true); // testing
  });

  it('takes a vowel written for another for a slip in a word of six letters or more', () => {
    expect(slipDistance('locaters', 'locators', true)).toBe(1);
    expect(isTypingSlip('locaters', 'locator')).toBe(true);
    expect(isTypingSlip('deploi', 'deploy')).toBe(true); // i for y
    expect(isTypingSlip('dependancies', 'dependency')).toBe(true);
    expect(isTypingSlip('later', 'liter')).toBe(false); // five letters: often another word
    expect(isTypingSlip('mocked', 'masked')).toBe(false); // a consonant changed too
  });

  it('does not take another real word one edit away for a slip', () => {
    for (const [typed, correction] of [['bake', 'make'], ['socks', 'mock'], ['paint', 'point'], ['plant', 'plan'], ['knit', 'unit'], ['diet', 'dist']]) {
      expect(isTypingSlip(typed!, correction!), `${typed} ~ ${correction}`).toBe(false);
    }
  });

  it('allows two slips only in a word of nine letters or more', () => {
    expect(isTypingSlip('benchmrkng', 'benchmark')).toBe(true);
    expect(isTypingSlip('sytm', 'system')).toBe(false);
  });
});
