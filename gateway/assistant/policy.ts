// Content policy: questions that try to override the assistant's instructions or
// that carry abuse are refused (400 invalid_request) before retrieval or any model
// call. Built-in patterns plus ASSISTANT_BLOCKED_PATTERNS (compiled by gateway/config.ts);
// ASSISTANT_CONTENT_POLICY=off drops the built-ins (custom patterns still apply).
//
// Every pattern, the built-ins and the operator's, runs on re2js, a linear-time
// engine (RE2's automata, no backtracking): the text is the client's, so a pattern
// that backtracks would let one request hold the event loop for seconds. RE2 has no
// backreferences, so the flood rule ("one character repeated hundreds of times") is a
// plain scan instead of a pattern.
import { RE2JS } from 're2js';

export interface ContentPolicy {
  /** The reason the text is blocked, or null when it may pass. */
  check(text: string): string | null;
  readonly patternCount: number;
}

interface Rule {
  pattern: RE2JS;
  reason: string;
}

const injection = 'the message tries to change the assistant\'s instructions';
const abuse = 'the message contains abusive content';
const flood = 'the message looks like flooding (one character repeated hundreds of times)';
/** A run of one character this long is flooding. */
export const floodRunLength = 200;

/** RE2 syntax, matched against normalized text: NFKC, lower case, zero-width characters removed, spaces collapsed. */
export const builtInRuleSources: readonly { source: string; flags?: number; reason: string }[] = [
  { source: String.raw`\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|preceding|all|any|your|system|initial|original)\b.{0,30}\b(instructions?|prompts?|rules|directions|guidelines)\b`, flags: RE2JS.DOTALL, reason: injection },
  { source: String.raw`\b(reveal|show|print|repeat|output|display|leak|tell me|what (is|are))\b.{0,30}\b(your|the)\b.{0,20}\b(system|initial|hidden|original|secret)\s+(prompt|instructions?|message|rules)\b`, reason: injection },
  { source: String.raw`\byou are (now|no longer)\b.{0,40}\b(dan|jailbroken|unrestricted|unfiltered|developer mode|an? (ai|assistant|model) (without|with no) (rules|restrictions|limits))\b`, reason: injection },
  { source: String.raw`\b(jailbreak|jailbroken|dan mode|developer mode enabled|do anything now)\b`, reason: injection },
  { source: String.raw`\b(new|updated|real|actual) (system )?instructions\s*:`, reason: injection },
  { source: String.raw`(<\|im_start\|>|<\|im_end\|>|<\|system\|>|<\|endoftext\|>|\[/?inst\]|<</?sys>>|^\s*#{0,3}\s*system\s*:)`, flags: RE2JS.MULTILINE, reason: injection },
  { source: String.raw`\bpretend (that )?(you have|there are) no (rules|restrictions|instructions)\b`, reason: injection },
  { source: String.raw`\b(kill|hang|shoot) (yo)?urself\b|\bkys\b|\bi will (kill|hurt|find) you\b`, reason: abuse },
];

export function normalizeForPolicy(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u200b-\u200f\u2060-\u2064\ufeff\u00ad]/g, '')
    .toLowerCase()
    .replace(/[ \t\f\v\u00a0]+/g, ' ');
}

/** True when one code unit repeats `floodRunLength` times in a row. */
export function isFlooding(text: string): boolean {
  let run = 1;
  for (let i = 1; i < text.length; i++) {
    run = text.charCodeAt(i) === text.charCodeAt(i - 1) ? run + 1 : 1;
    if (run >= floodRunLength) return true;
  }
  return false;
}

// Compiled on the first check, not at start-up: the eight built-ins take ≈30 ms of the main thread to compile.
let builtInRules: Rule[] | undefined;
const compiledBuiltIns = (): Rule[] => (builtInRules ??= builtInRuleSources.map(({ source, flags, reason }) => ({ pattern: RE2JS.compile(source, flags ?? 0), reason })));

export function createContentPolicy(opts: { builtIn: boolean; patterns: RE2JS[] }): ContentPolicy {
  const custom: Rule[] = opts.patterns.map((pattern) => ({ pattern, reason: 'the message matches a blocked pattern of this site' }));
  let rules: Rule[] | undefined;
  return {
    patternCount: (opts.builtIn ? builtInRuleSources.length + 1 : 0) + custom.length,
    check(text) {
      rules ??= [...(opts.builtIn ? compiledBuiltIns() : []), ...custom];
      const normalized = normalizeForPolicy(text);
      for (const rule of rules) if (rule.pattern.test(normalized)) return rule.reason;
      if (opts.builtIn && isFlooding(normalized)) return flood;
      return null;
    },
  };
}
