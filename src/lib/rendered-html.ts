// The rendered HTML of the docs collection's Markdown pages lives in one file of its own
// (a pack under <cacheDir>/docs-html/), not in Astro's content data store. Astro inlines
// the whole data store into the prerender bundle as one JSON string and keeps it parsed
// through the render phase: HTML kept there passes through the bundler and sits in memory
// several times over (module source, parsed JSON, entry objects), so the build's peak
// memory and bundle time would grow with the site (numbers on the performance docs page).
// The store keeps each entry's metadata (headings) and where its HTML is in the pack; the
// page reads its slice when it renders. One pack rather than a file per page: creating a
// file cost 0.2–1.3 ms of system CPU on the VM measured, reading a slice of an open file
// microseconds. Each load writes one pack of the pages it rendered (a cold build: all of
// them); cached entries keep pointing at older packs, and a pack no entry pointed at when
// the load began is deleted (one load late: a running dev server may still read it).
// A page whose images Astro processes (imagePaths) keeps its HTML in the store: Astro's
// render() rewrites their references.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MarkdownHeading } from 'astro';

/** Where an entry's HTML is: a byte range of a pack file. */
export interface HtmlSlice {
  pack: string;
  offset: number;
  length: number;
}

/** Metadata the loader stores in `rendered.metadata` beside Astro's own (headings, image paths). */
export type StoredRendering = {
  headings?: MarkdownHeading[];
  html?: HtmlSlice;
  /** Pages the page includes (`<!--@include: -->`), with their stamps from when it read them (docs-loader.ts includesUnchanged). */
  includes?: { files: string[]; stamp: string };
};

/** The folder of the packs under a content-layer cache directory. */
export function renderedHtmlDir(cacheDir: URL): string {
  return join(fileURLToPath(cacheDir), 'docs-html');
}

const descriptors = new Map<string, number>();

/** The text of a slice; the pack stays open for the next page (one descriptor per pack and process). */
function readSlice(slice: HtmlSlice): string {
  let fd = descriptors.get(slice.pack);
  if (fd === undefined) {
    fd = openSync(slice.pack, 'r');
    descriptors.set(slice.pack, fd);
  }
  const bytes = Buffer.allocUnsafe(slice.length);
  let read = 0;
  while (read < slice.length) {
    const n = readSync(fd, bytes, read, slice.length - read, slice.offset + read);
    if (n === 0) throw new Error(`${slice.pack}: ends before byte ${slice.offset + slice.length}`);
    read += n;
  }
  return bytes.toString('utf8');
}

function forget(pack: string): void {
  const fd = descriptors.get(pack);
  if (fd !== undefined) closeSync(fd);
  descriptors.delete(pack);
}

/**
 * Deletes the packs of `dir` that none of `slices` points at; returns the packs kept, the ones a stored entry may
 * still read (a cleared cache folder keeps none, and its pages render again).
 */
export function prunePacks(dir: string, slices: Iterable<HtmlSlice | undefined>): Set<string> {
  const kept = new Set<string>();
  if (!existsSync(dir)) return kept;
  const used = new Set<string>();
  for (const slice of slices) if (slice) used.add(slice.pack);
  for (const file of readdirSync(dir)) {
    const path = join(dir, file);
    if (used.has(path)) {
      kept.add(path);
      continue;
    }
    forget(path);
    rmSync(path, { force: true });
  }
  return kept;
}

/** Writes the pages' HTML, in the order given, as one pack named `name` in `dir`; returns each page's slice. */
export function writePack(dir: string, name: string, pages: readonly string[]): HtmlSlice[] {
  mkdirSync(dir, { recursive: true });
  const pack = join(dir, `${name}.pack`);
  forget(pack);
  // page by page into the file: no copy of the whole site's HTML in memory beside the pages' strings
  const fd = openSync(pack, 'w');
  const slices: HtmlSlice[] = [];
  let offset = 0;
  try {
    for (const html of pages) {
      const bytes = Buffer.from(html, 'utf8');
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written, offset + written);
      slices.push({ pack, offset, length: bytes.length });
      offset += bytes.length;
    }
  } finally {
    closeSync(fd);
  }
  return slices;
}

/**
 * The HTML and headings of an entry the docs loader rendered, read from its pack;
 * undefined for an entry Astro renders itself (MDX: `render(entry)`).
 */
export function storedRendering(entry: { rendered?: { metadata?: Record<string, unknown> } }): { html: string; headings: MarkdownHeading[] } | undefined {
  const metadata = entry.rendered?.metadata as StoredRendering | undefined;
  if (!metadata?.html) return undefined;
  return { html: readSlice(metadata.html), headings: metadata.headings ?? [] };
}
