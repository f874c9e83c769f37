// Navigation data for the page chrome, derived from the docs model once per build.
// Scale rule: a page's HTML lists every section but only a window of its own
// section's pages, so it stays proportional to the page, not to the site.
import type { DocPage, DocsModel, Section } from '../lib/docs.ts';
import type { ContentType } from '../lib/site-config.ts';

/** Plural display label per content type, in sidebar order. */
export const typeLabels: Readonly<Record<ContentType, string>> = {
  docs: 'Documentation',
  skill: 'Skills',
  agent: 'Agents',
  hook: 'Hooks',
  composition: 'Compositions',
};

export interface NavGroup {
  type: ContentType;
  label: string;
  /** Set when the group is one section named like the group (e.g. "Skills"): the heading is that section's link. */
  single?: Section;
  sections: Section[];
}

const groupCache = new WeakMap<DocsModel, NavGroup[]>();

/** Sections grouped by their content type, in model order (computed once per model). */
export function navGroups(model: DocsModel): NavGroup[] {
  const cached = groupCache.get(model);
  if (cached) return cached;
  const groups: NavGroup[] = [];
  for (const section of model.sections) {
    let group = groups.find((g) => g.type === section.type);
    if (!group) {
      group = { type: section.type, label: typeLabels[section.type], sections: [] };
      groups.push(group);
    }
    group.sections.push(section);
  }
  for (const g of groups) {
    const only = g.sections.length === 1 ? g.sections[0] : undefined;
    if (only && only.title.toLowerCase() === g.label.toLowerCase()) g.single = only;
  }
  groupCache.set(model, groups);
  return groups;
}

/**
 * Most pages of the current section the sidebar lists (ten either side of the current
 * page; the section index lists them all). Each costs about 80 bytes on every page of the
 * section: on the 10,000-page corpus (sections of 57-731 pages) a window of 40 made the
 * sidebar 8.2 KB of every page, 20 makes it 6.5 KB.
 */
export const sidebarWindow = 20;

export interface PageWindow {
  pages: DocPage[];
  /** Pages of the section before / after the window. */
  before: number;
  after: number;
}

/** The slice of a section's pages the sidebar shows around the current page. */
export function pageWindow(section: Section, current?: DocPage, size = sidebarWindow): PageWindow {
  const all = section.pages;
  if (all.length <= size) return { pages: all, before: 0, after: 0 };
  const i = current ? Math.max(0, all.indexOf(current)) : 0;
  const start = Math.min(Math.max(0, i - Math.floor(size / 2)), all.length - size);
  return { pages: all.slice(start, start + size), before: start, after: all.length - start - size };
}

export interface SectionShelf {
  id: string;
  label: string;
  sections: Section[];
}

/**
 * Groups for the overview pages: one shelf per content type, except that
 * consecutive one-section groups (Skills, Agents, …) share a shelf.
 */
export function shelves(model: DocsModel): SectionShelf[] {
  const out: SectionShelf[] = [];
  let merged: NavGroup[] = [];
  const flush = () => {
    if (!merged.length) return;
    // "Skills, agents, hooks and compositions"
    const labels = merged.map((g, i) => (i === 0 ? g.label : g.label.toLowerCase()));
    const label = labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)!}`;
    out.push({ id: merged.map((g) => g.type).join('-'), label, sections: merged.flatMap((g) => g.sections) });
    merged = [];
  };
  for (const g of navGroups(model)) {
    if (g.single) {
      merged.push(g);
      continue;
    }
    flush();
    out.push({ id: g.type, label: g.label, sections: g.sections });
  }
  flush();
  return out;
}

/** Section index URL. */
export const sectionHref = (slug: string): string => `/docs/${slug}`;

/** "page" / "pages". */
export const pagesWord = (n: number): string => (n === 1 ? 'page' : 'pages');

/** "1 page" / "12 pages". */
export const pagesLabel = (n: number): string => `${n} ${pagesWord(n)}`;
