// Mintlify's configuration at the root of its docs folder (`docs.json`, `mint.json` before it): the site's name, and
// the navigation, the only place a Mintlify tree says in what order its pages come (its pages carry no order of their
// own) and what its parts are called (a tab "Package Manager" over the folder `pm/`). Read leniently: a file that is not JSON, or a navigation of a shape not known here, gives nothing, and the
// tree builds as any other.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const CONFIG_FILES = ['docs.json', 'mint.json'];

/** The parsed configuration of a content folder, or undefined (none, or not JSON). */
export function mintlifyConfig(contentDir: string): Record<string, unknown> | undefined {
  for (const name of CONFIG_FILES) {
    const file = join(contentDir, name);
    if (!existsSync(file)) continue;
    try {
      const json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The keys that name a part of a Mintlify navigation. */
const PART_NAMES = ['tab', 'group', 'anchor', 'dropdown', 'product'];

/** A named part of the navigation (a tab, a group …) and every page it holds, at any depth. */
export interface NavigationPart {
  name: string;
  pages: Set<string>;
}

/** What a navigation says: each listed page's place in reading order, and its named parts. */
export interface Navigation {
  /** Each page the navigation lists, by its path in the content folder without extension (`pm/cli/install`). */
  order: Map<string, number>;
  /** The named parts, each before the parts it holds (so the outermost part of a folder comes first). */
  parts: NavigationPart[];
}

/**
 * Reads a navigation: every `pages` list at any depth, in the order the file writes it, whatever holds it (tabs,
 * anchors, dropdowns, groups nested in groups, versions, languages): its strings are pages, its objects more
 * navigation. A page listed twice keeps its first place.
 */
export function mintlifyNavigation(config: Record<string, unknown> | undefined): Navigation {
  const order = new Map<string, number>();
  const parts: NavigationPart[] = [];
  const walk = (node: unknown, inPages: boolean, open: NavigationPart[], depth: number): void => {
    if (depth > 64) return;
    if (typeof node === 'string') {
      const page = node.replace(/^\/+/, '').replace(/\.mdx?$/, '');
      if (!inPages || !page) return;
      if (!order.has(page)) order.set(page, order.size);
      for (const part of open) part.pages.add(page);
    } else if (Array.isArray(node)) {
      for (const item of node) walk(item, inPages, open, depth + 1);
    } else if (node !== null && typeof node === 'object') {
      const fields = node as Record<string, unknown>;
      const name = PART_NAMES.map((key) => fields[key]).find((value): value is string => typeof value === 'string' && value.trim() !== '');
      const inner = name ? [...open, { name: name.trim(), pages: new Set<string>() }] : open;
      if (name) parts.push(inner.at(-1)!);
      for (const [key, value] of Object.entries(fields)) if (typeof value === 'object' || key === 'pages') walk(value, key === 'pages', inner, depth + 1);
    }
  };
  walk(config?.navigation, false, [], 0);
  return { order, parts };
}

/**
 * The name of the part of the navigation that is exactly a folder's: the outermost part holding every listed page
 * of the folder and no page outside it (Bun's tab "Package Manager" holds all of `pm/` and nothing else). Undefined
 * when no part is (Bun's "Runtime" tab also holds the root's pages).
 */
export function partNameOf(parts: readonly NavigationPart[], folderPages: ReadonlySet<string>, listed: ReadonlySet<string>): string | undefined {
  if (listed.size === 0) return undefined;
  return parts.find((part) => part.pages.size > 0 && [...part.pages].every((page) => folderPages.has(page)) && [...listed].every((page) => part.pages.has(page)))?.name;
}

