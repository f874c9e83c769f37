/**
 * The search engine's public face: what the rest of the gateway, the site build (src/integration) and the scripts
 * import. The engine itself lives in search/, one module per stage: text analysis (../text.ts), the term dictionary,
 * index building (in child processes), index files and the index cache, the query, top-k collection, hits and
 * result bytes, the worker pool and the engine API with its result cache. Importers depend on this file only, so
 * the stages can be rearranged without touching them.
 */
export { type Corrections, type CreateSearchEngineOptions, DEFAULT_CACHE_BYTES, IN_THREAD_MAX_PAGES, DEFAULT_CACHE_SIZE, type SearchEngine, type SearchOptions, type SearchStats, type TermPages, createSearchEngine } from './search/engine.ts';
export { defaultBuildParallelism, prepareSearchIndex } from './search/index-cache.ts';
export { CONTENT_TYPES, type ContentType, type SearchHit } from './search/segment.ts';
export { defaultWorkerCount } from './search/worker-pool.ts';
export type { Correction } from './search/term-dictionary.ts';
