// Query-string parameters: each at most once, validated with clear details.
import type { H3Event } from 'h3';
import { ProblemError } from './problem.ts';

export function param(event: H3Event, name: string): string | undefined {
  const all = event.url.searchParams.getAll(name);
  if (all.length > 1) throw new ProblemError('invalid-parameter', `\`${name}\` must be given at most once.`);
  return all[0];
}

/** `true`/`1` → true, `false`/`0` → false, absent → undefined; anything else is a 400. */
export function booleanParam(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ProblemError('invalid-parameter', `\`${name}\` must be true or false (got ${JSON.stringify(value)}).`);
}

export function enumParam<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ProblemError('invalid-parameter', `\`${name}\` must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`);
}
