// The URL rule, in one place: a content file maps to /docs/<section>/<page>.
// Any docs tree fits it: a leading `docs/` folder is skipped, the first folder is the
// section, the folders below it and the file name join with "-" into the page slug
// (an `index` file inside a nested folder is named after its folder), pages at the
// root of the tree go to the `overview` section, and every part is slugified.
import type { ContentType } from './site-config.ts';

/** Top-level content folders that give their pages a default type. */
export const typeFolders: Readonly<Record<string, ContentType>> = {
  skills: 'skill',
  agents: 'agent',
  hooks: 'hook',
  compositions: 'composition',
};

/** The section of pages that sit at the root of the content tree (`index.md`, `blog.md`). */
export const rootSection = 'overview';

export interface PageAddress {
  section: string;
  page: string;
  path: string;
  defaultType: ContentType;
  /** The folder below the content folder the section comes from (`docs/guide`, `guide`); undefined for a root page. */
  folder?: string;
}

/** "Mocking_Classes" → "mocking-classes": lower-case ASCII letters, digits and single hyphens. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The longest URL segment: a page is written as `<segment>.html`, `.md` and their `.br` and `.gz`, each a file name of at most 255 bytes. */
export const MAX_SEGMENT = 200;

/**
 * Maps a content entry id (its path below CONTENT_DIR without extension, e.g.
 * `docs/getting-started/installation`, `skills/search-the-docs` or
 * `guide/mocking/classes`) to its address. Throws a message naming the file when
 * a part has nothing left to form a URL segment (`---`, or a name in a script without
 * Latin letters: doc paths are ASCII, gateway/contract/docs-api.ts docPathPattern), or
 * one longer than a file name can be.
 */
export function addressOf(entryId: string, filePath = entryId): PageAddress {
  const parts = entryId.split('/');
  const lead = parts[0] === 'docs' && parts.length > 1 ? `${parts.shift()}/` : '';
  const folder = parts.length > 1 ? parts[0]! : undefined;
  const pageParts = folder === undefined ? parts : parts.slice(1);
  if (pageParts.length > 1 && pageParts[pageParts.length - 1]!.toLowerCase() === 'index') pageParts.pop();
  const section = folder === undefined ? rootSection : slugify(folder);
  const page = pageParts.map(slugify).filter(Boolean).join('-');
  for (const [name, slug] of [[folder ?? rootSection, section], [pageParts.join('/'), page]] as const) {
    if (!slug) throw new Error(`${filePath}: "${name}" has no letters a-z or digits 0-9 (accents dropped) to form a URL segment from, and URLs on this site are made of those: rename it`);
    if (slug.length > MAX_SEGMENT) {
      throw new Error(`${filePath}: its URL segment "${slug.slice(0, 40)}…" would be ${slug.length} characters, at most ${MAX_SEGMENT}: each page is a file named after it (with .html.br added), and a file name stops at 255 bytes. Shorten its folder or file names.`);
    }
  }
  return { section, page, path: `/docs/${section}/${page}`, defaultType: typeFolders[section] ?? 'docs', folder: folder === undefined ? undefined : `${lead}${folder}` };
}

/** Abbreviations of software docs that a folder or file name writes in lower case and a title in capitals (plurals with their `s`). */
const ABBREVIATIONS = new Map(
  ['ai', 'api', 'cdn', 'ci', 'cli', 'css', 'dns', 'faq', 'html', 'http', 'https', 'id', 'ide', 'json', 'jsx', 'llm', 'lts', 'mcp', 'sdk', 'seo', 'ssg', 'ssr', 'tls', 'tsx', 'ui', 'url', 'ux', 'xml', 'yaml'].flatMap((word) => [
    [word, word.toUpperCase()],
    [`${word}s`, `${word.toUpperCase()}s`],
  ]),
);

/**
 * A name for people from a folder or file name: "getting-started" → "Getting started", "api" → "API",
 * "cli-options" → "CLI options" (words apart at `-` and `_`, the first capitalized, ABBREVIATIONS in capitals).
 */
export function titleFromName(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim().split(' ').map((word) => ABBREVIATIONS.get(word.toLowerCase()) ?? word);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
