// Content policy: questions that try to override the assistant's instructions or
// that carry abuse are refused (400 invalid_request) before retrieval or any model
// call. Built-in patterns plus ASSISTANT_BLOCKED_PATTERNS; ASSISTANT_CONTENT_POLICY=off
// drops the built-ins (custom patterns still apply).

export interface ContentPolicy {
  /** The reason the text is blocked, or null when it may pass. */
  check(text: string): string | null;
  readonly patternCount: number;
}

interface Rule {
  pattern: RegExp;
  reason: string;
}

const injection = 'the message tries to change the assistant\'s instructions';
const abuse = 'the message contains abusive content';

/** Matched against normalized text: NFKC, lower case, zero-width characters removed, whitespace collapsed. */
export const builtInRules: readonly Rule[] = [
  { pattern: /\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|preceding|all|any|your|system|initial|original)\b.{0,30}\b(instructions?|prompts?|rules|directions|guidelines)\b/s, reason: injection },
  { pattern: /\b(reveal|show|print|repeat|output|display|leak|tell me|what (is|are))\b.{0,30}\b(your|the)\b.{0,20}\b(system|initial|hidden|original|secret)\s+(prompt|instructions?|message|rules)\b/, reason: injection },
  { pattern: /\byou are (now|no longer)\b.{0,40}\b(dan|jailbroken|unrestricted|unfiltered|developer mode|an? (ai|assistant|model) (without|with no) (rules|restrictions|limits))\b/, reason: injection },
  { pattern: /\b(jailbreak|jailbroken|dan mode|developer mode enabled|do anything now)\b/, reason: injection },
  { pattern: /\b(new|updated|real|actual) (system )?instructions\s*:/, reason: injection },
  { pattern: /(<\|im_start\|>|<\|im_end\|>|<\|system\|>|<\|endoftext\|>|\[\/?inst\]|<<\/?sys>>|^\s*#{0,3}\s*system\s*:)/m, reason: injection },
  { pattern: /\bpretend (that )?(you have|there are) no (rules|restrictions|instructions)\b/, reason: injection },
  { pattern: /\b(kill|hang|shoot) (yo)?urself\b|\bkys\b|\bi will (kill|hurt|find) you\b/, reason: abuse },
  { pattern: /(.)\1{199,}/s, reason: 'the message looks like flooding (one character repeated hundreds of times)' },
];

export function normalizeForPolicy(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u200b-\u200f\u2060-\u2064\ufeff\u00ad]/g, '')
    .toLowerCase()
    .replace(/[ \t\f\v\u00a0]+/g, ' ');
}

export function createContentPolicy(opts: { builtIn: boolean; patterns: RegExp[] }): ContentPolicy {
  const rules: Rule[] = [
    ...(opts.builtIn ? builtInRules : []),
    ...opts.patterns.map((pattern) => ({ pattern, reason: 'the message matches a blocked pattern of this site' })),
  ];
  return {
    patternCount: rules.length,
    check(text) {
      const normalized = normalizeForPolicy(text);
      for (const rule of rules) {
        rule.pattern.lastIndex = 0;
        if (rule.pattern.test(normalized)) return rule.reason;
      }
      return null;
    },
  };
}
