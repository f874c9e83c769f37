// 503 while the build output the API needs could not be loaded.
import type { Manifest } from '../engine/manifest.ts';
import type { SearchEngine } from '../engine/search.ts';
import { ProblemError } from './problem.ts';
import type { DocsRuntime } from './runtime.ts';

export function requireManifest(rt: DocsRuntime): Manifest {
  if (!rt.manifest) throw new ProblemError('service-unavailable', 'The build manifest is unreadable; the docs cannot be served right now.');
  return rt.manifest;
}

export function requireEngine(rt: DocsRuntime): SearchEngine {
  if (!rt.engine) throw new ProblemError('service-unavailable', 'The search index is unreadable; search is not available right now.');
  return rt.engine;
}
