// Doc pages by path: validation of requested paths, and their Markdown twins
// (read through the site files, so never from outside the build tree).
import { docPathPattern, type BatchMarkdownEntryT } from '../contract/docs-api.ts';
import { Lru } from '../engine/lru.ts';
import type { ManifestPage } from '../engine/manifest.ts';
import type { DocsRuntime } from './runtime.ts';

export type PathCheck = { ok: true; pagePath: string } | { ok: false; status: 400; detail: string };

const FORM = 'expected a doc path of the form /docs/<section>/<page> (lower-case letters, digits and hyphens)';

/** Validates a requested doc path; an optional `.md` suffix is accepted. */
export function checkDocPath(raw: string): PathCheck {
  const bad = (detail: string): PathCheck => ({ ok: false, status: 400, detail });
  if (raw.includes('\u0000')) return bad('the path contains a NUL byte');
  if (raw.includes('\\')) return bad(`backslashes are not allowed; ${FORM}`);
  if (raw.includes('?') || raw.includes('#')) return bad(`query strings and fragments are not allowed; ${FORM}`);
  if (raw.includes('%')) return bad(`percent-encoded characters are not allowed; ${FORM}`);
  if (raw.split('/').some((s) => s === '.' || s === '..')) return bad(`"." and ".." segments are not allowed; ${FORM}`);
  if (!raw.startsWith('/')) return bad(`the path must start with /docs/; ${FORM}`);
  const pagePath = raw.endsWith('.md') ? raw.slice(0, -3) : raw;
  if (!docPathPattern.test(pagePath)) return bad(FORM);
  return { ok: true, pagePath };
}

/**
 * A page path from what an agent may hold: a path, a .md path, an absolute URL of
 * this site, or a search hit id/url with an #anchor. Null when it is none of these.
 */
export function pagePathFromReference(ref: string, siteUrl: string): string | null {
  let path = ref.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      const url = new URL(path);
      if (url.origin !== new URL(siteUrl).origin) return null;
      path = url.pathname;
    } catch {
      return null;
    }
  }
  path = path.replace(/#.*$/, '');
  const check = checkDocPath(path);
  return check.ok ? check.pagePath : null;
}

export async function pageMarkdown(rt: DocsRuntime, page: ManifestPage, opts?: { cache?: boolean }): Promise<string> {
  const file = await rt.files.exact(page.md);
  if (!file) throw new Error(`Markdown twin ${page.md} of ${page.path} is missing from the build`);
  return (await rt.files.read(file, opts)).toString('utf8');
}

type PageLookup = { ok: true; page: ManifestPage } | { ok: false; entry: BatchMarkdownEntryT };

/** The manifest page a batch path names, or its error entry. */
function lookupBatchPath(rt: DocsRuntime, raw: string): PageLookup {
  const check = checkDocPath(raw);
  if (!check.ok) return { ok: false, entry: { path: raw, ok: false, status: check.status, detail: `Malformed path: ${check.detail}.` } };
  const page = rt.pages.get(check.pagePath);
  if (!page) {
    return { ok: false, entry: { path: raw, ok: false, status: 404, detail: `No doc page at ${check.pagePath}. Search with /api/search?query=… or see /llms.txt for every page.` } };
  }
  return { ok: true, page };
}

function unreadableEntry(raw: string, err: unknown): BatchMarkdownEntryT {
  console.error(`[docs] ${(err as Error).message}`);
  return { path: raw, ok: false, status: 500, detail: 'The Markdown of this page could not be read; retry later.' };
}

export async function batchEntry(rt: DocsRuntime, raw: string): Promise<BatchMarkdownEntryT> {
  const found = lookupBatchPath(rt, raw);
  if (!found.ok) return found.entry;
  try {
    return { path: raw, ok: true, title: found.page.title, markdown: await pageMarkdown(rt, found.page) };
  } catch (err) {
    return unreadableEntry(raw, err);
  }
}

export async function runBatch(rt: DocsRuntime, paths: string[]): Promise<{ results: BatchMarkdownEntryT[] }> {
  return { results: await Promise.all(paths.map((p) => batchEntry(rt, p))) };
}

/**
 * Bytes of JSON-encoded twins (`JSON.stringify(markdown)` as UTF-8) by twin file. A batch response is ≈120 KB of
 * escape-heavy JSON: encoding it per request was the main-thread cost of POST /api/md/batch. Bounded by bytes (Buffers
 * live outside the V8 heap, so the cache does not slow the GC); twins are read past the site file cache, so a twin is
 * not held twice. 32 MiB: ≈5,000 twins at ≈6 KB (an LRU a little smaller than a cyclic working set misses every time).
 */
const MARKDOWN_JSON_CACHE_BYTES = 32 * 1024 * 1024;
interface MarkdownJsonCache {
  done: Lru<Buffer>;
  /** Reads under way: concurrent requests for the same page share one. */
  reading: Map<string, Promise<Buffer>>;
}
const markdownJsonCaches = new WeakMap<DocsRuntime, MarkdownJsonCache>();

function markdownJson(rt: DocsRuntime, page: ManifestPage): Promise<Buffer> {
  let c = markdownJsonCaches.get(rt);
  if (!c) markdownJsonCaches.set(rt, (c = { done: new Lru<Buffer>(Number.MAX_SAFE_INTEGER, MARKDOWN_JSON_CACHE_BYTES), reading: new Map() }));
  const hit = c.done.get(page.md);
  if (hit) return Promise.resolve(hit);
  let p = c.reading.get(page.md);
  if (!p) {
    const cache = c;
    p = (async () => {
      const bytes = Buffer.from(JSON.stringify(await pageMarkdown(rt, page, { cache: false })), 'utf8');
      cache.done.set(page.md, bytes, bytes.length + 64);
      return bytes;
    })().finally(() => cache.reading.delete(page.md));
    c.reading.set(page.md, p);
  }
  return p;
}

const RESULTS_OPEN = Buffer.from('{"results":[');
const RESULTS_CLOSE = Buffer.from(']}');
const COMMA = Buffer.from(',');
const ENTRY_CLOSE = Buffer.from('}');

/**
 * The body of a batch response, byte for byte `JSON.stringify(await runBatch(rt, paths))`, assembled from the cached
 * encoded twins: a JSON string nested in an object is encoded exactly as on its own, and key order is the entries'.
 */
export async function batchBody(rt: DocsRuntime, paths: string[]): Promise<Buffer> {
  const parts = await Promise.all(
    paths.map(async (raw): Promise<Buffer[]> => {
      const found = lookupBatchPath(rt, raw);
      if (!found.ok) return [Buffer.from(JSON.stringify(found.entry))];
      let md: Buffer;
      try {
        md = await markdownJson(rt, found.page);
      } catch (err) {
        return [Buffer.from(JSON.stringify(unreadableEntry(raw, err)))];
      }
      return [Buffer.from(`{"path":${JSON.stringify(raw)},"ok":true,"title":${JSON.stringify(found.page.title)},"markdown":`), md, ENTRY_CLOSE];
    }),
  );
  const pieces: Buffer[] = [RESULTS_OPEN];
  parts.forEach((p, k) => {
    if (k > 0) pieces.push(COMMA);
    pieces.push(...p);
  });
  pieces.push(RESULTS_CLOSE);
  return Buffer.concat(pieces);
}
