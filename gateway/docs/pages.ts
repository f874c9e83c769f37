// Doc pages by path: validation of requested paths, and their Markdown twins
// (read through the site files, so never from outside the build tree).
import { docPathPattern, type BatchMarkdownEntryT } from '../contract/docs-api.ts';
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

export async function pageMarkdown(rt: DocsRuntime, page: ManifestPage): Promise<string> {
  const file = await rt.files.exact(page.md);
  if (!file) throw new Error(`Markdown twin ${page.md} of ${page.path} is missing from the build`);
  return (await rt.files.read(file)).toString('utf8');
}

export async function batchEntry(rt: DocsRuntime, raw: string): Promise<BatchMarkdownEntryT> {
  const check = checkDocPath(raw);
  if (!check.ok) return { path: raw, ok: false, status: check.status, detail: `Malformed path: ${check.detail}.` };
  const page = rt.pages.get(check.pagePath);
  if (!page) {
    return { path: raw, ok: false, status: 404, detail: `No doc page at ${check.pagePath}. Search with /api/search?query=… or see /llms.txt for every page.` };
  }
  try {
    return { path: raw, ok: true, title: page.title, markdown: await pageMarkdown(rt, page) };
  } catch (err) {
    console.error(`[docs] ${(err as Error).message}`);
    return { path: raw, ok: false, status: 500, detail: 'The Markdown of this page could not be read; retry later.' };
  }
}

export async function runBatch(rt: DocsRuntime, paths: string[]): Promise<{ results: BatchMarkdownEntryT[] }> {
  return { results: await Promise.all(paths.map((p) => batchEntry(rt, p))) };
}
