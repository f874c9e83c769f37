// Per-request facts the middleware collect and the pipeline turns into headers,
// kept off event.res so they survive thrown errors. The pipeline also runs the
// request inside an async context holding them, for work that has no event at hand
// (the /ask model budget, reached from the route and from MCP tools alike).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { H3Event } from 'h3';
import type { LimitResult } from '../limits/store.ts';
import type { Deprecation } from '../contract/deprecations.ts';

export interface RouteMeta {
  /** `api`: an endpoint of the contract; `api-unknown`: any other /api path; `static`: the build tree. */
  kind: 'api' | 'api-unknown' | 'static';
  /** Rate-limit budget (the /api/v1 alias shares its endpoint's id). */
  endpoint?: string;
  /** OpenAPI-style route path, e.g. /api/v1/jobs/{jobId}. */
  routePath?: string;
  /** Methods the route accepts (HEAD is implied by GET). */
  methods?: readonly string[];
}

export interface RequestState {
  meta: RouteMeta;
  ip: string;
  limit?: LimitResult;
  /** For RateLimit-Policy. */
  windowSeconds: number;
  deprecation?: Deprecation;
  idempotencyKey?: string;
}

const states = new WeakMap<H3Event, RequestState>();
const scope = new AsyncLocalStorage<RequestState>();

/** Runs `work` (the rest of the request) with `state` as the current request's state. */
export const withRequestState = <T>(state: RequestState, work: () => T): T => scope.run(state, work);

/** The state of the request whose work is running, if any. */
export const currentRequestState = (): RequestState | undefined => scope.getStore();

export function setState(event: H3Event, state: RequestState): void {
  states.set(event, state);
}

export function state(event: H3Event): RequestState {
  const s = states.get(event);
  if (!s) throw new Error('request state missing: the pipeline middleware must run first');
  return s;
}

export function routeMeta(event: H3Event): RouteMeta {
  const meta = event.context.matchedRoute?.meta as RouteMeta | undefined;
  return meta?.kind ? meta : { kind: 'static' };
}

/** `GET` routes also answer HEAD; OPTIONS is always answered (CORS). */
export function allowHeader(methods: readonly string[]): string {
  const list = [...methods];
  if (list.includes('GET')) list.splice(list.indexOf('GET') + 1, 0, 'HEAD');
  return [...list, 'OPTIONS'].join(', ');
}
