// Doc pages by path: validation of requested paths, and their Markdown twins
// (read through the site files, so never from outside the build tree).
import { docPathPattern, type BatchMarkdownEntryT } from '../contract/docs-api.ts';
import type { ManifestPage } from '../engine/manifest.ts';
import { BufferPieces } from '../http/buffer-pieces.ts';
import { limitConcurrency } from '../limits/concurrency.ts';
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
 * Encoded batch entries by page path: the bytes of `JSON.stringify({ path, ok: true, title, markdown })` for the page's
 * own path. A batch response is ≈120 KB of escape-heavy JSON: encoding it per request would be the main-thread cost of
 * POST /api/md/batch. Bounded by bytes (Buffers live outside the V8 heap, so the cache does not slow the GC); twins are
 * read past the site file cache, so a twin is not held twice. 32 MiB: ≈5,000 entries at ≈6 KB. Eviction is
 * second-chance (a hit only sets a flag; no map reordering on the hot path).
 */
const ENTRY_CACHE_BYTES = 32 * 1024 * 1024;

interface EncodedEntry {
  bytes: Buffer;
  /** Length of the `{"path":"<page path>"` head, replaced when the request named the page with `.md`. */
  headLen: number;
  hot: boolean;
}

class EntryCache {
  private readonly map = new Map<string, EncodedEntry>();
  private total = 0;
  /** Reads under way: concurrent requests for the same page share one. */
  readonly reading = new Map<string, Promise<EncodedEntry>>();

  get(key: string): EncodedEntry | undefined {
    const e = this.map.get(key);
    if (e) e.hot = true;
    return e;
  }

  set(key: string, e: EncodedEntry): void {
    if (e.bytes.length > ENTRY_CACHE_BYTES || this.map.has(key)) return;
    this.map.set(key, e);
    this.total += e.bytes.length;
    while (this.total > ENTRY_CACHE_BYTES) {
      const [k, old] = this.map.entries().next().value as [string, EncodedEntry];
      this.map.delete(k);
      if (old.hot) {
        old.hot = false;
        this.map.set(k, old);
      } else this.total -= old.bytes.length;
    }
  }
}

/** Per build: keyed by the build's site files (a reload brings new ones). */
const entryCaches = new WeakMap<DocsRuntime['files'], EntryCache>();
/** Twin reads under way at once (limits/concurrency.ts: a cold burst would otherwise stall the event loop). */
const twinReads = limitConcurrency(8);

function encodedEntry(rt: DocsRuntime, page: ManifestPage): EncodedEntry | Promise<EncodedEntry> {
  let cache = entryCaches.get(rt.files);
  if (!cache) entryCaches.set(rt.files, (cache = new EntryCache()));
  const hit = cache.get(page.path);
  if (hit) return hit;
  let p = cache.reading.get(page.path);
  if (!p) {
    const c = cache;
    p = (async () => {
      const markdown = await twinReads(() => pageMarkdown(rt, page, { cache: false }));
      const head = `{"path":${JSON.stringify(page.path)}`;
      const e: EncodedEntry = { bytes: Buffer.from(`${head},"ok":true,"title":${JSON.stringify(page.title)},"markdown":${JSON.stringify(markdown)}}`, 'utf8'), headLen: Buffer.byteLength(head), hot: false };
      c.set(page.path, e);
      return e;
    })().finally(() => c.reading.delete(page.path));
    cache.reading.set(page.path, p);
  }
  return p;
}

const RESULTS_OPEN = Buffer.from('{"results":[');
const RESULTS_CLOSE = Buffer.from(']}');
const COMMA = Buffer.from(',');

/** The cached entry for `raw` (its path as requested: with or without `.md`). */
function entryFor(raw: string, page: ManifestPage, e: EncodedEntry): Buffer[] {
  if (raw === page.path) return [e.bytes];
  return [Buffer.from(`{"path":${JSON.stringify(raw)}`), e.bytes.subarray(e.headLen)];
}

/** One path's part of a batch body: at once when its entry is cached (the common case), else once it is read. */
function batchPart(rt: DocsRuntime, raw: string): Buffer[] | Promise<Buffer[]> {
  // the common case, a page path as listed: nothing in it for checkDocPath to refuse
  const direct = docPathPattern.test(raw) ? rt.pages.get(raw) : undefined;
  const found: PageLookup = direct ? { ok: true, page: direct } : lookupBatchPath(rt, raw);
  if (!found.ok) return [Buffer.from(JSON.stringify(found.entry))];
  try {
    const e = encodedEntry(rt, found.page);
    return e instanceof Promise ? e.then((read) => entryFor(raw, found.page, read), (err: unknown) => unreadablePart(raw, err)) : entryFor(raw, found.page, e);
  } catch (err) {
    return unreadablePart(raw, err);
  }
}

function unreadablePart(raw: string, err: unknown): Buffer[] {
  return [Buffer.from(JSON.stringify(unreadableEntry(raw, err)))];
}

/**
 * The body of a batch response, byte for byte `JSON.stringify(await runBatch(rt, paths))`, assembled from cached
 * encoded entries: a JSON string nested in an object is encoded exactly as on its own, and key order is the entries'.
 * Entries in the cache are taken synchronously: a batch of cached pages costs no promise per path.
 */
export async function batchBody(rt: DocsRuntime, paths: string[]): Promise<BufferPieces> {
  let parts = paths.map((raw) => batchPart(rt, raw));
  if (parts.some((p) => p instanceof Promise)) parts = await Promise.all(parts);
  const pieces: Buffer[] = [RESULTS_OPEN];
  for (let k = 0; k < parts.length; k++) {
    if (k > 0) pieces.push(COMMA);
    for (const piece of parts[k] as Buffer[]) pieces.push(piece);
  }
  pieces.push(RESULTS_CLOSE);
  return new BufferPieces(pieces);
}
