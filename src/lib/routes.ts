// The URL rule, in one place: a content file maps to /docs/<section>/<page>.
import type { ContentType } from './site-config.ts';

/** Top-level content folders that are a section of their own and give the default type. */
export const typeFolders: Readonly<Record<string, ContentType>> = {
  skills: 'skill',
  agents: 'agent',
  hooks: 'hook',
  compositions: 'composition',
};

const segment = /^[a-z0-9][a-z0-9-]*$/;

export interface PageAddress {
  section: string;
  page: string;
  path: string;
  defaultType: ContentType;
}

/**
 * Maps a content entry id (its path below CONTENT_DIR without extension, e.g.
 * `docs/getting-started/installation` or `skills/search-the-docs`) to its address.
 * Throws a message naming the file when the layout does not fit the rule.
 */
export function addressOf(entryId: string, filePath = entryId): PageAddress {
  const parts = entryId.split('/');
  if (parts[0] === 'docs') parts.shift();
  if (parts.length !== 2) {
    throw new Error(
      `${filePath}: content files must live at docs/<section>/<page>.md or <skills|agents|hooks|compositions>/<name>.md ` +
        `(found ${parts.length === 1 ? 'no section folder' : 'folders nested too deep'})`,
    );
  }
  const [section, page] = parts as [string, string];
  for (const s of [section, page]) {
    if (!segment.test(s)) throw new Error(`${filePath}: "${s}" is not a valid URL segment (use lower-case letters, digits and hyphens)`);
  }
  return { section, page, path: `/docs/${section}/${page}`, defaultType: typeFolders[section] ?? 'docs' };
}

/** "getting-started" → "Getting started". */
export function sectionTitle(section: string): string {
  const words = section.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
