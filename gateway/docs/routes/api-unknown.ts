// Any /api path that is not an endpoint of the contract.
import type { H3Event } from 'h3';
import { ProblemError } from '../problem.ts';

export function apiUnknownRoute() {
  return (event: H3Event): Response => {
    throw new ProblemError('api-endpoint-not-found', `${event.url.pathname} is not an endpoint of this API; see /openapi.json for the ones that exist.`);
  };
}
