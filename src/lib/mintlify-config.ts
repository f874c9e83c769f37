// Mintlify's configuration at the root of its docs folder (`docs.json`, `mint.json` before it): the site's name, and
// the navigation, the only place a Mintlify tree says in what order its pages come (its pages carry no order of their
// own). Read leniently: a file that is not JSON, or a navigation of a shape not known here, gives nothing, and the
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

/**
 * Each page the navigation lists, by its path in the content folder without extension (`pm/cli/install`), and its
 * place in reading order. Every `pages` list at any depth is read in the order the file writes it, whatever holds it
 * (tabs, anchors, dropdowns, groups nested in groups, versions, languages): its strings are pages, its objects more
 * navigation. A page listed twice keeps its first place.
 */
export function navigationOrder(config: Record<string, unknown> | undefined): Map<string, number> {
  const order = new Map<string, number>();
  const walk = (node: unknown, inPages: boolean, depth: number): void => {
    if (depth > 64) return;
    if (typeof node === 'string') {
      const page = node.replace(/^\/+/, '').replace(/\.mdx?$/, '');
      if (inPages && page && !order.has(page)) order.set(page, order.size);
    } else if (Array.isArray(node)) {
      for (const item of node) walk(item, inPages, depth + 1);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) if (typeof value === 'object' || key === 'pages') walk(value, key === 'pages', depth + 1);
    }
  };
  walk(config?.navigation, false, 0);
  return order;
}
