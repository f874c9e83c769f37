// Reading the pages of a docs tree for the docs model: each page's source converted
// for its Markdown twin (absolute links, callouts as block quotes), its title, and,
// once for the whole build, what the conversion found: broken links (the build fails
// naming file, line and target unless LINK_CHECK=warn; a link to a draft is broken too,
// as the draft is not built), assets to copy beside the pages, and one warning line per
// kind of converted tool syntax with its count. An MDX page is reduced to Markdown before
// its links are read, which moves its lines: a broken link's line is looked up in the
// file as written. A link to a section a page does not have (`#old-name`) still
// reaches the page: it is counted in one warning line, with the first few named.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseFrontmatter } from '@astrojs/markdown-remark';
import { linkTable, resolveLink, type LinkTable } from './content-links.ts';
import { customIds, isForeignMdx, withoutCustomIds } from './foreign-mdx.ts';
import { vitepressSlug } from '../markdown/heading-ids.ts';
import { atxHeading } from '../../gateway/engine/markdown-sections.ts';
import { inlineText, mdxToMarkdown } from './markdown-twin.ts';
import { SourceConverter, takeLeadingHeading, withoutBadges } from './source-markdown.ts';
import { lineSyntax } from './markdown-lines.ts';
import { rootSection, titleFromName } from './routes.ts';
import { titleAnchor } from './title-html.ts';
import { withHome } from './home-frontmatter.ts';

export interface SourcePage {
  /** The twin's body: converted, links absolute, the leading `# heading` taken out. */
  body: string;
  /** The frontmatter title (a VitePress "Page | Group" title keeps "Page"), else the first `# heading`. */
  title: string;
}

const brokenShown = 20;

export class SourcePages {
  readonly table: LinkTable;
  private readonly contentDir: string;
  private readonly siteUrl: string;
  private readonly notes = new Map<string, number>();
  private readonly broken: string[] = [];
  private readonly assets = new Set<string>();
  /** Links to a section of a page (`/docs/x#y`), where they were written; and the ids each page's author gave. */
  private readonly sectionLinks: { at: string; path: string; id: string }[] = [];
  private readonly authoredIds = new Map<string, string[]>();
  /** URL paths of the pages the build publishes (drafts left out). */
  private readonly published: ReadonlySet<string>;

  constructor(contentDir: string, siteUrl: string, published: ReadonlySet<string>) {
    this.contentDir = resolve(contentDir);
    this.siteUrl = siteUrl;
    this.table = linkTable(this.contentDir);
    this.published = published;
  }

  /** The content-relative path of an entry's file (filePath is relative to the build's working directory). */
  fileOf(filePath: string): string {
    return relative(this.contentDir, resolve(process.cwd(), filePath)).split('\\').join('/');
  }

  /** Converts one page: `raw` is the whole file, `pagePath` its URL path. */
  read(raw: string, file: string, pagePath: string, frontmatterTitle: string | undefined): SourcePage {
    // Frontmatter lines kept blank, so reported line numbers are the file's.
    const parsed = parseFrontmatter(raw, { frontmatter: 'empty-with-lines' });
    let text = parsed.content;
    const ids = customIds(text);
    if (ids.length) this.authoredIds.set(pagePath, ids);
    const written = file.endsWith('.mdx') ? new WrittenLines(text) : undefined;
    const foreign = written !== undefined && isForeignMdx(join(this.contentDir, file), raw);
    if (foreign) this.count('MDX pages using components this site does not have or writing ids {#id}, read as Markdown (components shown as their text)');
    const converter = new SourceConverter({
      mode: 'twin',
      contentDir: this.contentDir,
      note: (kind) => this.count(kind),
      link: (target, from, line) => this.twinLink(target, from, written && from === file ? written.lineOf(target, line) : line, pagePath),
    });
    // an MDX page's partials are in its HTML (compiled, or inlined by the docs loader): the twin inlines them too
    text = written ? mdxToMarkdown(converter.withPartials(foreign ? withoutCustomIds(text) : text, file)) : lineSyntax(text);
    const { heading: lead, rest: afterTitle } = takeLeadingHeading(text);
    // a home page's hero and features, in the frontmatter's blank lines, as the docs loader writes them for the HTML
    // (not for an MDX page Astro compiles itself)
    const rest = !written || foreign ? withHome(parsed.frontmatter, afterTitle, /^(?:[ \t]*\n)*/.exec(afterTitle)![0].split('\n').length - 1) : afterTitle;
    const body = converter.convert(rest, file);
    const lines = body.split('\n');
    const heading = lead ?? firstHeading(lines);
    let title = cleanTitle(frontmatterTitle) ?? (heading ? inlineText(withoutBadges(heading), true).replace(/\s+/g, ' ').trim() : undefined);
    if (!title) {
      this.count('pages without a title or "# " heading, titled after their file or folder name');
      title = fileTitle(file);
    }
    return { body: collapseBlankLines(body), title };
  }

  /** Counts `n` of a kind of conversion, printed as one line once the build is done (finish). */
  count(kind: string, n = 1): void {
    if (n > 0) this.notes.set(kind, (this.notes.get(kind) ?? 0) + n);
  }

  private twinLink(target: string, from: string, line: number, pagePath: string): string {
    const r = resolveLink(this.table, from, target);
    if (r.kind === 'page') {
      const path = r.url.replace(/[?#].*$/, '');
      if (this.published.has(path)) {
        const id = /#(.+)$/.exec(r.url)?.[1];
        if (id) this.sectionLinks.push({ at: `${from}:${line}`, path, id });
        return `${this.siteUrl}${r.url}`;
      }
      this.broken.push(`${from}:${line}: link to "${target}": the page there is a draft (draft: true), which is not built`);
      return target;
    }
    if (r.kind === 'asset') {
      this.assets.add(r.source);
      return `${this.siteUrl}${r.url}`;
    }
    if (r.kind === 'missing-asset') {
      this.count('links to files that are not in the content folder (left as written)');
      return r.url.startsWith('/') ? `${this.siteUrl}${r.url}` : r.url;
    }
    if (r.kind === 'broken') {
      this.broken.push(`${from}:${line}: link to "${target}": no page of the content folder is there`);
      return target;
    }
    if (target.startsWith('#')) {
      if (target.length > 1) this.sectionLinks.push({ at: `${from}:${line}`, path: pagePath, id: target.slice(1) });
      return `${this.siteUrl}${pagePath}${target}`;
    }
    if (target.startsWith('/') && !target.startsWith('//')) return `${this.siteUrl}${target}`;
    return target;
  }

  /** The section links whose page has no such id, as `file:line → /docs/x#y`. */
  private missedSections(pageOf: (path: string) => { title: string; headings: readonly { slug: string; text: string }[] } | undefined): string[] {
    const ids = new Map<string, Set<string>>();
    const missed: string[] = [];
    for (const link of this.sectionLinks) {
      let known = ids.get(link.path);
      if (!known) {
        const page = pageOf(link.path);
        if (!page) continue;
        ids.set(link.path, (known = pageIds(page.headings, [...(this.authoredIds.get(link.path) ?? []), titleAnchor(page.title)])));
      }
      let id = link.id;
      try {
        id = decodeURIComponent(id);
      } catch {
        // kept as written
      }
      if (!known.has(id)) missed.push(`${link.at} → ${link.path}#${link.id}`);
    }
    return [...new Set(missed)];
  }

  /**
   * Once per build, after every page: fails on broken links (or warns with LINK_CHECK=warn),
   * prints one line per kind of conversion, copies the linked assets into the site tree.
   */
  finish(siteDir: string, pageOf: (path: string) => { title: string; headings: readonly { slug: string; text: string }[] } | undefined, log: (line: string) => void = console.warn): void {
    const broken = [...new Set(this.broken)];
    if (broken.length > 0) {
      const list = broken.slice(0, brokenShown).map((b) => `  - ${b}`).join('\n');
      const more = broken.length > brokenShown ? `\n  … and ${broken.length - brokenShown} more` : '';
      const message = `${broken.length} broken link${broken.length === 1 ? '' : 's'} between pages:\n${list}${more}`;
      if (process.env.LINK_CHECK !== 'warn') throw new Error(`${message}\nFix the links, or set LINK_CHECK=warn to build anyway.`);
      log(`[content] ${message}\n  (LINK_CHECK=warn: kept as written)`);
    }
    for (const [kind, count] of [...this.notes].sort()) log(`[content] ${kind}: ${count}`);
    const missed = this.missedSections(pageOf);
    if (missed.length) log(`[content] links to a section the page does not have (they reach the page): ${missed.length}; ${missed.slice(0, 3).join(', ')}${missed.length > 3 ? ', …' : ''}`);
    for (const asset of this.assets) {
      const to = join(siteDir, 'assets', asset);
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(this.contentDir, asset), to);
    }
    if (this.assets.size > 0) log(`[content] files linked from pages copied to /assets/: ${this.assets.size}`);
  }
}

/** The ids the HTML page answers to: its headings' (and VitePress's for them) and its author's. */
function pageIds(headings: readonly { slug: string; text: string }[], authored: readonly string[] = []): Set<string> {
  return new Set([...headings.flatMap((h) => [h.slug, vitepressSlug(h.text)]), ...authored]);
}

/** The lines of a page as written, where the links of its rewritten form are looked up. */
class WrittenLines {
  private readonly lines: string[];
  /** Per target, the index of the line where it was last found: a repeated target is found further on. */
  private readonly found = new Map<string, number>();
  constructor(text: string) {
    this.lines = text.split('\n');
  }

  /** The 1-based line of the next occurrence of `target`, else `fallback`. */
  lineOf(target: string, fallback: number): number {
    const from = (this.found.get(target) ?? -1) + 1;
    let index = this.lines.findIndex((l, i) => i >= from && l.includes(target));
    if (index === -1) index = this.lines.findIndex((l) => l.includes(target));
    if (index === -1) return fallback;
    this.found.set(target, index);
    return index + 1;
  }
}

/** "Mocking | Guide" (VitePress's title template) → "Mocking". */
function cleanTitle(title: string | undefined): string | undefined {
  const cleaned = title?.split(' | ')[0]?.trim();
  return cleaned || undefined;
}

/** Runs of blank lines (left where containers were) become one, outside fenced code. */
function collapseBlankLines(text: string): string {
  const out: string[] = [];
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (!fence && line.trim() === '' && out.length > 0 && out[out.length - 1]!.trim() === '') continue;
    out.push(line);
  }
  return out.join('\n');
}

/**
 * "guide/import-example.md" → "Import example", "guide/cli-options.md" → "CLI options" (titleFromName); a folder's
 * own page (`Guides/Index.md`, `README.md`, Hugo's `_index.md`) is named after its folder, and the tree's at its
 * root (or in a leading `docs/`, routes.ts) after the section it lands in, "Overview".
 */
export function fileTitle(file: string): string {
  const parts = file.replace(/\.mdx?$/, '').split('/');
  const name = parts.pop()!;
  if (!/^(?:_?index|readme)$/i.test(name)) return titleFromName(name);
  const folder = parts.length === 1 && parts[0] === 'docs' ? undefined : parts.pop();
  return titleFromName(folder ?? rootSection);
}

function firstHeading(lines: string[]): string | undefined {
  let fence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    else if (!fence) {
      const heading = atxHeading(line);
      if (heading?.depth === 1) return heading.text;
    }
  }
  return undefined;
}
