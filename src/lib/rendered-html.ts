// The rendered HTML of the docs collection's Markdown pages lives in files of its own
// (<cacheDir>/docs-html/), not in Astro's content data store. Astro inlines the whole
// data store into the prerender bundle as one JSON string and keeps it parsed through
// the render phase: HTML kept there passes through the bundler and sits in memory three
// times over (module source, parsed JSON, entry objects), so the build's peak memory and
// bundle time would grow with the site (numbers on the performance docs page). The store
// keeps each entry's metadata (headings) and the file's path; the page reads its HTML
// when it renders. The files are named by entry and digest, so they live as long as
// the content-layer cache that points at them, and the loader deletes the others. A page
// whose images Astro processes (imagePaths) keeps its HTML in the store: Astro's
// render() rewrites their references.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MarkdownHeading } from 'astro';

/** Metadata the loader stores in `rendered.metadata` beside Astro's own (headings, image paths). */
export interface StoredRendering {
  headings?: MarkdownHeading[];
  /** Absolute path of the file holding the entry's rendered HTML. */
  htmlFile?: string;
}

/** The folder of the HTML files under a content-layer cache directory. */
export function renderedHtmlDir(cacheDir: URL): string {
  return join(fileURLToPath(cacheDir), 'docs-html');
}

/** The file of one entry's HTML: `name` is unique per entry and content (a digest of both). */
export function renderedHtmlFile(dir: string, name: string): string {
  return join(dir, `${name}.html`);
}

export function writeRenderedHtml(file: string, html: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, html);
}

/** Whether a stored entry still points at its file (a cleared cache folder renders it again). */
export function hasRenderedHtml(metadata: StoredRendering | undefined, file: string): boolean {
  return metadata?.htmlFile === file && existsSync(file);
}

/** Deletes the files of the folder that no entry points at (pages edited or removed since). */
export function pruneRenderedHtml(dir: string, keep: ReadonlySet<string>): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (!keep.has(file)) rmSync(file, { force: true });
  }
}

/**
 * The HTML and headings of an entry the docs loader rendered, read from its file;
 * undefined for an entry Astro renders itself (MDX: `render(entry)`).
 */
export function storedRendering(entry: { rendered?: { metadata?: Record<string, unknown> } }): { html: string; headings: MarkdownHeading[] } | undefined {
  const metadata = entry.rendered?.metadata as StoredRendering | undefined;
  if (!metadata?.htmlFile) return undefined;
  return { html: readFileSync(metadata.htmlFile, 'utf8'), headings: metadata.headings ?? [] };
}
