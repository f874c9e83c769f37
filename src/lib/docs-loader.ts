// The loader of the docs collection. A `.md` page is read, its body converted
// (src/lib/source-markdown.ts, html mode: links to the new URLs, callouts, code groups,
// includes, tool-only blocks dropped) and rendered by the project's Markdown processor.
// `.mdx` pages are this site's own format: Astro's glob loader and the MDX integration
// keep them, unless they import what this site cannot resolve (another tool's
// components, src/lib/foreign-mdx.ts): those are read as Markdown too. The conversion
// depends on the whole tree (links resolve against the set of
// pages, includes read other files), so an entry's digest is its text plus the tree's
// key (treeKey): editing a page re-renders that page and the pages that include it
// (their stored stamp of it, includesUnchanged), adding a page or changing a snippet re-renders all.
import { join, posix, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseFrontmatter } from '@astrojs/markdown-remark';
import { glob } from 'astro/loaders';
import type { Loader, LoaderContext } from 'astro/loaders';
import { contentFiles, fileStamp, forgetLinkTable, globLiteral, isPartial, linkTable, readContentFile, resolveLink, treeKey, unwalkedLinkedFolders } from './content-links.ts';
import { componentLinesAsMdx, isForeignMdx } from './foreign-mdx.ts';
import { SourceConverter, takeLeadingHeading, type SourceContext } from './source-markdown.ts';
import { lineSyntax } from './markdown-lines.ts';
import { withHome } from './home-frontmatter.ts';
import { prunePacks, renderedHtmlDir, writePack, type StoredRendering } from './rendered-html.ts';

type DataEntry = NonNullable<ReturnType<LoaderContext['store']['get']>>;

/** Entry ids are the file path without extension, so the URL rule (src/lib/routes.ts) sees the folders. */
export const idFromPath = ({ entry }: { entry: string }) => entry.replace(/\.(md|mdx)$/, '');

/** The pages read as Markdown: `.md`, and `.mdx` pages of another tool (src/lib/foreign-mdx.ts). */
function markdownPages(contentDir: string, files = contentFiles(contentDir)): string[] {
  return files.filter((f) => f.endsWith('.md') || (f.endsWith('.mdx') && isForeignMdx(join(contentDir, f))));
}

/** `target` with some of its members replaced; the others read from it, its methods bound to it. */
function withMembers<T extends object>(target: T, members: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(members, property)) return members[property as keyof T];
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

export function docsLoader(base: string): Loader {
  return {
    name: 'agent-docs-content',
    async load(context: LoaderContext) {
      const contentDir = resolve(base);
      const files = contentFiles(contentDir);
      const pages = markdownPages(contentDir, files);
      // retainBody: false keeps raw bodies out of the data store Astro inlines into the
      // prerender bundle (−9 s and −0.5 GB at 10,000 pages); the twin reads the file instead.
      // the glob sees the files the tree walk sees (content-links.ts walkTree): file names taken literally, and linked
      // folders the walk does not enter (inside the tree, or met before) left out
      const foreign = pages.filter((f) => f.endsWith('.mdx')).map((f) => `!${globLiteral(f)}`);
      const unwalked = unwalkedLinkedFolders(contentDir).map((f) => `!${globLiteral(f)}/**`);
      const mdx = glob({ pattern: ['**/*.mdx', '!portfolio/**', '!public/**', '!**/_*/**', '!**/_*.mdx', ...foreign, ...unwalked], base, generateId: idFromPath, retainBody: false });
      const markdownIds = new Set(pages.map((f) => idFromPath({ entry: f })));
      // The glob loader deletes the entries it did not load: it sees only the others.
      const store = withMembers(context.store, { keys: () => context.store.keys().filter((k) => !markdownIds.has(k)) });
      // the tree walk decides which MDX pages there are: the glob follows symbolic links by rules of its own
      const walked = new Set(files.filter((f) => f.endsWith('.mdx')).map((f) => idFromPath({ entry: f })).filter((id) => !markdownIds.has(id)));
      // a tree without MDX pages of this site's own (most brought trees) is no reason for the glob's "No files found" warning
      const logger = walked.size ? context.logger : withMembers(context.logger, { warn: (message: string) => void (message.startsWith('No files found matching') || context.logger.warn(message)) });
      await mdx.load({ ...context, store, logger });
      for (const id of store.keys()) if (!walked.has(id)) context.store.delete(id);
      const missing = [...walked].filter((id) => !context.store.has(id));
      if (missing.length) context.logger.warn(`MDX pages the glob loader did not read (behind symbolic links it does not follow), not built: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`);
      await loadMarkdown(context, contentDir, pages);
      // `astro dev`: a change in the tree syncs the Markdown pages again (unchanged ones are skipped by digest).
      context.watcher?.on('all', (_event, path) => {
        if (relative(contentDir, path).startsWith('..')) return;
        forgetLinkTable(contentDir);
        const now = markdownPages(contentDir);
        const nowIds = new Set(now.map((f) => idFromPath({ entry: f })));
        for (const id of markdownIds) if (!nowIds.has(id)) context.store.delete(id);
        loadMarkdown(context, contentDir, now).catch((err: Error) => context.logger.error(err.message));
      });
    },
  };
}

/**
 * A page included by another (`<!--@include: ./part.md-->`): the tree's key names pages by their path only (each
 * page's own text is its digest's business), so the pages including one keep its size and time to see it change.
 */
const isIncludedPage = (file: string) => /\.mdx?$/.test(file) && !isPartial(file);

/** Whether the pages a stored render included are as they were when it read them (SourceConverter.read). */
function includesUnchanged(contentDir: string, stored: DataEntry): boolean {
  const includes = (stored.rendered?.metadata as StoredRendering | undefined)?.includes;
  return includes === undefined || includes.files.map((file) => fileStamp(contentDir, file)).join('\n') === includes.stamp;
}

async function loadMarkdown(context: LoaderContext, contentDir: string, pages: string[]): Promise<void> {
  const key = treeKey(contentDir);
  const table = linkTable(contentDir);
  const html: SourceContext = {
    mode: 'html',
    contentDir,
    link(target, from) {
      const r = resolveLink(table, from, target);
      return r.kind === 'page' || r.kind === 'asset' || r.kind === 'missing-asset' ? r.url : target;
    },
    note: () => {}, // counted once per build by the docs model (src/lib/source-pages.ts)
  };
  const root = fileURLToPath(context.config.root);
  // The rendered HTML goes to a pack file (src/lib/rendered-html.ts), not into the store.
  const htmlDir = renderedHtmlDir(context.config.cacheDir);
  const sliceOf = (entry: DataEntry | undefined) => (entry?.rendered?.metadata as StoredRendering | undefined)?.html;
  const packs = prunePacks(htmlDir, context.store.values().map(sliceOf));
  const rendered: DataEntry[] = [];
  const loadPage = async (file: string) => {
    const abs = join(contentDir, file);
    const id = idFromPath({ entry: file });
    const contents = readContentFile(abs);
    const digest = context.generateDigest(`${key}\n${contents}`);
    const stored = context.store.get(id);
    if (stored?.digest === digest && (stored.rendered?.html || packs.has(sliceOf(stored)?.pack ?? '')) && includesUnchanged(contentDir, stored)) return;
    const { frontmatter, content } = parseFrontmatter(contents, { frontmatter: 'remove' });
    const data = await context.parseData({ id, data: frontmatter, filePath: abs });
    // The leading "# Title" gives way to the layout's <h1> (it is the page title, src/lib/source-pages.ts).
    // a home page's hero and features (VitePress, Starlight) lead its body, as in its twin (src/lib/source-pages.ts)
    const converter = new SourceConverter(html);
    // an MDX page of another tool (src/lib/foreign-mdx.ts): its partials inlined, its components' content at the margin
    const source = file.endsWith('.mdx') ? componentLinesAsMdx(converter.withPartials(content, file)) : content;
    const body = converter.convert(withHome(frontmatter, takeLeadingHeading(lineSyntax(source)).rest), file);
    // A leading newline: a body that starts with a "---" rule is not frontmatter.
    const entry = { id, data, filePath: relative(root, abs).split('\\').join(posix.sep), digest, rendered: await context.renderMarkdown(`\n${body}`, { fileURL: pathToFileURL(abs) }) };
    const included = [...converter.read].filter(([file]) => isIncludedPage(file)).sort(([a], [b]) => (a < b ? -1 : 1));
    if (included.length > 0) entry.rendered.metadata = { ...entry.rendered.metadata, includes: { files: included.map(([file]) => file), stamp: included.map(([, stamp]) => stamp).join('\n') } satisfies StoredRendering['includes'] };
    // A page with images Astro processes keeps its HTML in the store: render() rewrites their references. The store
    // keeps an entry whose digest it already has (a page re-rendered for a changed include), so that one goes first.
    if (entry.rendered.metadata?.imagePaths?.length) {
      if (stored?.digest === digest) context.store.delete(id);
      context.store.set(entry);
    } else rendered.push(entry);
  };
  // Ten pages in flight, as Astro's glob loader keeps.
  let next = 0;
  const worker = async () => {
    while (next < pages.length) await loadPage(pages[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(10, pages.length) }, worker));
  if (rendered.length === 0) return;
  const pack = context.generateDigest(rendered.map((e) => `${e.id}\n${e.digest}`).join('\n'));
  const slices = writePack(htmlDir, pack, rendered.map((e) => e.rendered!.html));
  rendered.forEach((entry, i) => {
    const metadata: StoredRendering = { ...entry.rendered!.metadata, html: slices[i] };
    // An entry whose pack went missing has the same digest, and the store keeps an entry of an unchanged digest.
    if (context.store.get(entry.id)?.digest === entry.digest) context.store.delete(entry.id);
    context.store.set({ ...entry, rendered: { html: '', metadata } });
  });
}
