// 405 with Allow for a method the route does not take.
import type { H3Event } from 'h3';
import { ProblemError } from './problem.ts';
import { allowHeader } from './request-state.ts';

export function requireMethod(event: H3Event, methods: readonly string[]): void {
  const method = event.req.method;
  if (methods.includes(method) || (method === 'HEAD' && methods.includes('GET'))) return;
  const allow = allowHeader(methods);
  throw new ProblemError('method-not-allowed', `${method} is not allowed on ${event.url.pathname}; allowed: ${allow}.`, { headers: { allow } });
}
