// Assistant-only settings that gateway/config.ts does not carry: the content policy.
//   ASSISTANT_CONTENT_POLICY    `default` (built-in prompt-injection and abuse patterns) or `off`
//   ASSISTANT_BLOCKED_PATTERNS  JSON array of extra regular expressions in RE2 syntax (linear time:
//                               no lookaround or backreferences; case-insensitive, matched against
//                               lower-cased, NFKC-normalized text), e.g. ["\\bcasino\\b"]
// Everything else (port, origin, allowed origins, rate limit, LLM backend, Redis, trust proxy)
// comes from the shared GatewayConfig.
import { z } from 'zod';
import type { RE2JS } from 're2js';
import { ConfigError } from '../config.ts';
import { compileBlockedPattern } from './policy.ts';

export interface AssistantPolicyConfig {
  builtIn: boolean;
  patterns: RE2JS[];
}

const schema = z.object({
  ASSISTANT_CONTENT_POLICY: z.enum(['default', 'off'], { message: 'must be "default" or "off"' }).default('default'),
  ASSISTANT_BLOCKED_PATTERNS: z.string().optional(),
});

export function loadAssistantPolicyConfig(env: Record<string, string | undefined> = process.env): AssistantPolicyConfig {
  const clean = Object.fromEntries(Object.entries(env).filter(([k, v]) => k.startsWith('ASSISTANT_') && v !== undefined && v !== ''));
  const parsed = schema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  - ${lines.join('\n  - ')}`);
  }
  const patterns: RE2JS[] = [];
  const raw = parsed.data.ASSISTANT_BLOCKED_PATTERNS;
  if (raw) {
    let list: unknown;
    try {
      list = JSON.parse(raw);
    } catch {
      throw new ConfigError('Invalid configuration:\n  - ASSISTANT_BLOCKED_PATTERNS: must be a JSON array of regular expressions, e.g. ["\\\\bcasino\\\\b"]');
    }
    if (!Array.isArray(list) || !list.every((p) => typeof p === 'string' && p.length > 0)) {
      throw new ConfigError('Invalid configuration:\n  - ASSISTANT_BLOCKED_PATTERNS: must be a JSON array of non-empty strings');
    }
    for (const source of list as string[]) {
      try {
        patterns.push(compileBlockedPattern(source));
      } catch (err) {
        throw new ConfigError(`Invalid configuration:\n  - ASSISTANT_BLOCKED_PATTERNS: ${JSON.stringify(source)} is not a valid RE2 regular expression (lookaround and backreferences are not supported: ${(err as Error).message})`);
      }
    }
  }
  return { builtIn: parsed.data.ASSISTANT_CONTENT_POLICY === 'default', patterns };
}
