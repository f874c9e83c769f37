// Per-request facts the middleware collect and the pipeline turns into headers,
// kept off event.res so they survive thrown errors, and the build the request is
// pinned to (runtime.ts). The pipeline runs the request inside one async scope holding
// them, for work that has no event at hand (the runtime's build fields, the /ask model
// budget reached from the route and from MCP tools alike): one scope per request, as
// each scope entered costs every request.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { H3Event } from 'h3';
import type { LimitResult } from '../limits/store.ts';
import type { Deprecation } from '../contract/deprecations.ts';
import type { LoadedBuild } from './loaded-build.ts';

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
  /** The build current when the request arrived: it reads this one to its end, streams included. */
  build: LoadedBuild;
  limit?: LimitResult;
  /** For RateLimit-Policy. */
  windowSeconds: number;
  deprecation?: Deprecation;
  idempotencyKey?: string;
}

// On the event's own context (a plain object per request), not in a WeakMap keyed by the event: a property
// write, where a WeakMap entry is a hash insert the collector has to trace as an ephemeron.
const STATE = Symbol('docs request state');
type WithState = { [STATE]?: RequestState };

const scope = new AsyncLocalStorage<RequestState>();

/** Runs `work` (the rest of the request) with `state` as the current request's state. */
export const withRequestState = <T>(state: RequestState, work: () => T): T => scope.run(state, work);

/** The state of the request whose work is running, if any. */
export const currentRequestState = (): RequestState | undefined => scope.getStore();

export function setState(event: H3Event, state: RequestState): void {
  (event.context as WithState)[STATE] = state;
}

export function state(event: H3Event): RequestState {
  const s = (event.context as WithState)[STATE];
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
