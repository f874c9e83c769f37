// The docs model: every published page with its address, type, twin and neighbours,
// computed once per build and shared by every route.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getCollection, type CollectionEntry } from 'astro:content';
import { z } from 'zod';
import { addressOf, titleFromName } from './routes.ts';
import { readContentFile } from './content-links.ts';
import { mintlifyConfig, mintlifyNavigation, partNameOf } from './mintlify-config.ts';
import { pageTwin, type PageTwin } from './markdown-twin.ts';
import { writeRedirects } from './redirects.ts';
import { contentTypes, loadSiteConfig, type ContentType } from './site-config.ts';
import { SourcePages } from './source-pages.ts';

export interface DocPage extends PageTwin {
  entry: CollectionEntry<'docs'>;
  path: string;
  section: string;
  page: string;
  type: ContentType;
  title: string;
  /** What the navigation (sidebar, previous and next) calls the page: its other tool's sidebar label, else its title. */
  navLabel: string;
  description: string;
  order: number;
  /** Old URLs answered with a 301 to this page (frontmatter redirect_from). */
  redirectFrom: string[];
}

export interface Section {
  slug: string;
  title: string;
  type: ContentType;
  pages: DocPage[];
}

export interface DocsModel {
  pages: DocPage[];
  sections: Section[];
  byPath: Map<string, DocPage>;
}

const sectionsFileSchema = z.array(
  z.union([
    z.string(),
    z.object({ slug: z.string(), title: z.string().optional(), type: z.enum(contentTypes).optional() }),
  ]),
);

interface SectionSetting {
  index: number;
  title?: string;
  /** The default content type of the section's pages (frontmatter `type` wins). */
  type?: ContentType;
}

/** A settings file of the content folder, parsed; one that is not JSON stops the build naming it. */
function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(readContentFile(file));
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Optional CONTENT_DIR/sections.json: the order, display titles and default types of sections. */
function readSectionOrder(contentDir: string): Map<string, SectionSetting> {
  const file = join(contentDir, 'sections.json');
  const order = new Map<string, SectionSetting>();
  if (!existsSync(file)) return order;
  const parsed = sectionsFileSchema.safeParse(readJsonFile(file));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  parsed.data.forEach((item, index) => {
    const entry = typeof item === 'string' ? { slug: item } : item;
    order.set(entry.slug, { index, title: entry.title, type: entry.type });
  });
  return order;
}

/** A Docusaurus folder's `_category_.json`: the label and position its sidebar gives the folder. */
interface Category { label?: string; position?: number }

/**
 * The `_category_.json` of a section's folder (Docusaurus), when there is one: its `label` titles the section and its
 * `position` orders it, where sections.json says nothing. Other fields, and fields of another type, are ignored; so
 * is a file that is not plain JSON (Docusaurus reads it as YAML, comments and all), counted in the build's notes.
 */
function readCategory(contentDir: string, folder: string, sources: SourcePages): Category {
  const file = join(contentDir, folder, '_category_.json');
  if (!existsSync(file)) return {};
  let json: unknown;
  try {
    json = readJsonFile(file);
  } catch {
    sources.count('_category_.json files that are not plain JSON, ignored');
    return {};
  }
  const fields = (json ?? {}) as Record<string, unknown>;
  return {
    label: typeof fields.label === 'string' && fields.label.trim() ? fields.label.trim() : undefined,
    position: typeof fields.position === 'number' && Number.isFinite(fields.position) ? fields.position : undefined,
  };
}

/** The whole source file of an entry: the collection does not retain bodies (see content.config.ts). */
function sourceOf(entry: CollectionEntry<'docs'>): string {
  // filePath is relative to the project root, which is the build's working directory.
  return readContentFile(resolve(process.cwd(), entry.filePath!));
}

let model: Promise<DocsModel> | undefined;

export function docsModel(): Promise<DocsModel> {
  model ??= buildModel();
  return model;
}

async function buildModel(): Promise<DocsModel> {
  const site = loadSiteConfig();
  const sectionOrder = readSectionOrder(site.contentDir);
  const entries = await getCollection('docs', (e) => !e.data.draft);
  const addresses = entries.map((entry) => addressOf(entry.id, entry.filePath ?? entry.id));
  // Links resolve against every page of the tree; one to a page left out (a draft) is broken.
  const published = new Set(addresses.map((address) => address.path));
  const sources = new SourcePages(site.contentDir, site.url, published);
  const llmsUrl = `${site.url}/llms.txt`;
  // a Mintlify tree's reading order and part names: its pages as its docs.json lists them (by URL path here)
  const navigation = mintlifyNavigation(mintlifyConfig(site.contentDir));
  const navigationKey = new Map<string, string>();
  const listed = new Map<string, number>();
  const pages: DocPage[] = entries.map((entry, index) => {
    const address = addresses[index]!;
    const file = sources.fileOf(entry.filePath!);
    navigationKey.set(address.path, file.replace(/\.mdx?$/, ''));
    const place = navigation.order.get(navigationKey.get(address.path)!);
    if (place !== undefined) listed.set(address.path, place);
    const source = sources.read(sourceOf(entry), file, address.path, entry.data.title);
    return {
      entry,
      path: address.path,
      section: address.section,
      page: address.page,
      type: entry.data.type ?? sectionOrder.get(address.section)?.type ?? address.defaultType,
      title: source.title,
      navLabel: entry.data.navLabel ?? source.title,
      description: entry.data.description ?? '',
      order: entry.data.order ?? place ?? Number.MAX_SAFE_INTEGER,
      redirectFrom: entry.data.redirect_from,
      ...pageTwin({ title: source.title, description: entry.data.description, body: source.body, isMdx: false, llmsUrl }),
    };
  });

  const categories = new Map<string, Category>();
  for (const { section, folder } of addresses) {
    if (folder !== undefined && !categories.has(section)) categories.set(section, readCategory(site.contentDir, folder, sources));
  }
  sources.count('files or folders starting with _, and snippets/, read as partials (included, not pages)', sources.table.partials);
  const bySection = new Map<string, DocPage[]>();
  for (const page of pages) {
    const list = bySection.get(page.section) ?? [];
    list.push(page);
    bySection.set(page.section, list);
  }
  const typeRank = (t: ContentType) => contentTypes.indexOf(t);
  const sections: Section[] = [...bySection].map(([slug, list]) => {
    list.sort((a, b) => a.order - b.order || a.title.localeCompare(b.title) || a.path.localeCompare(b.path));
    // A section's type is the type most of its pages have.
    const counts = new Map<ContentType, number>();
    for (const p of list) counts.set(p.type, (counts.get(p.type) ?? 0) + 1);
    const type = [...counts].sort((a, b) => b[1] - a[1] || typeRank(a[0]) - typeRank(b[0]))[0]![0];
    const named = navigation.parts.length > 0 ? partNameOf(navigation.parts, new Set(list.map((p) => navigationKey.get(p.path)!)), new Set(list.flatMap((p) => (listed.has(p.path) ? [navigationKey.get(p.path)!] : [])))) : undefined;
    return { slug, title: sectionOrder.get(slug)?.title ?? categories.get(slug)?.label ?? named ?? titleFromName(slug), type, pages: list };
  });
  // sections.json's order first, then Docusaurus positions, then Mintlify's navigation (a section where its first page
  // is listed), then the rest by slug
  const rank = (s: Section) => {
    const index = sectionOrder.get(s.slug)?.index;
    if (index !== undefined) return index;
    const position = categories.get(s.slug)?.position;
    if (position !== undefined) return 1e9 + Math.max(-1e8, Math.min(1e8, position));
    const first = s.pages.reduce((min, p) => Math.min(min, listed.get(p.path) ?? Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER);
    return first === Number.MAX_SAFE_INTEGER ? first : 2e9 + first;
  };
  sections.sort((a, b) => typeRank(a.type) - typeRank(b.type) || rank(a) - rank(b) || a.slug.localeCompare(b.slug));

  const ordered = sections.flatMap((s) => s.pages);
  const byPath = new Map<string, DocPage>();
  for (const page of ordered) {
    const clash = byPath.get(page.path);
    if (clash) throw new Error(`Two files map to ${page.path}: ${clash.entry.filePath} and ${page.entry.filePath}`);
    byPath.set(page.path, page);
  }
  const siteDir = join(site.distDir, 'site');
  sources.finish(siteDir, (path) => byPath.get(path));
  writeRedirects(site, sources.table, ordered);
  return { pages: ordered, sections, byPath };
}

/** The previous and next page in reading order. */
export function neighbours(model: DocsModel, page: DocPage): { prev?: DocPage; next?: DocPage } {
  const i = model.pages.indexOf(page);
  return { prev: model.pages[i - 1], next: model.pages[i + 1] };
}
