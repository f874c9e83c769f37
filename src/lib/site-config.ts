// The one validated site config. Every discovery file, llms.txt and the build
// manifest are generated from it, so a typo fails the build once, here.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { parseFrontmatter } from '@astrojs/markdown-remark';
import { z } from 'zod';
import { siteUrl } from '../../gateway/site-url.ts';
import { inlineText } from '../../gateway/engine/inline-markdown.ts';
import { atxHeading } from '../../gateway/engine/markdown-sections.ts';
import { withoutAuthoredId } from '../markdown/heading-ids.ts';
import { mintlifyConfig } from './mintlify-config.ts';

export const contentTypes = ['docs', 'skill', 'agent', 'hook', 'composition'] as const;
export type ContentType = (typeof contentTypes)[number];

const siteConfigSchema = z.object({
  url: siteUrl,
  name: z.string().min(1, 'SITE_NAME must not be empty'),
  /**
   * Whether the site has a name of its own (SITE_NAME, else the one its content's home page gives: treeName). Without
   * one it is this product's own site: described as Agent Docs, its home page showing how to run it; with one, its
   * description and home page are about its docs.
   */
  named: z.boolean(),
  description: z.string().min(1, 'SITE_DESCRIPTION must not be empty'),
  version: z.string().min(1, 'SITE_VERSION must not be empty'),
  contentDir: z.string().min(1),
  distDir: z.string().min(1),
  assistantUrl: siteUrl,
  assistantName: z.string().min(1),
  /** Where the content folder is edited; each page's path inside it is appended for "Edit this page". */
  editUrl: z
    .url({ message: 'SITE_EDIT_URL must be an absolute http(s) URL, e.g. https://github.com/you/docs/edit/main/content' })
    .refine((u) => /^https?:\/\//.test(u), 'SITE_EDIT_URL must start with http:// or https://')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  /** Pages per Pagefind bundle (src/integration/search-index.ts partRanges): bounds the search step's memory. */
  searchIndexPartPages: z.coerce
    .number({ message: 'SEARCH_INDEX_PART_PAGES must be a whole number of pages, e.g. 5000' })
    .int('SEARCH_INDEX_PART_PAGES must be a whole number of pages, e.g. 5000')
    .min(1, 'SEARCH_INDEX_PART_PAGES must be at least 1'),
  /** Whether the build follows symbolic links that lead out of the content folder (src/lib/content-links.ts). */
  contentSymlinks: z.enum(['inside', 'follow'], { message: 'CONTENT_SYMLINKS must be "inside" (the default) or "follow"' }),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;

/** The assistant site's pages: a folder of the content folder (content/portfolio/*.md), optional. */
export const portfolioDir = (contentDir: string) => join(contentDir, 'portfolio');

const envNames: Record<keyof SiteConfig, string> = {
  url: 'SITE_URL',
  name: 'SITE_NAME',
  named: 'SITE_NAME',
  description: 'SITE_DESCRIPTION',
  version: 'SITE_VERSION',
  contentDir: 'CONTENT_DIR',
  distDir: 'DIST_DIR',
  assistantUrl: 'ASSISTANT_SITE_URL',
  assistantName: 'ASSISTANT_SITE_NAME',
  editUrl: 'SITE_EDIT_URL',
  searchIndexPartPages: 'SEARCH_INDEX_PART_PAGES',
  contentSymlinks: 'CONTENT_SYMLINKS',
};

/**
 * The content folder and the build output must not hold each other: a build output inside the content folder is
 * read back as pages by the next build (its Markdown twins), and a content folder inside the output is deleted when
 * Astro empties the output before writing it.
 */
function foldersOverlap(contentDir: string, distDir: string): string | undefined {
  const content = resolve(contentDir);
  const dist = resolve(distDir);
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(outer + sep);
  if (within(dist, content)) return `DIST_DIR (${dist}) is inside CONTENT_DIR (${content}): the next build would read this build's output as pages. Set DIST_DIR to a folder outside the content folder.`;
  if (within(content, dist)) return `CONTENT_DIR (${content}) is inside DIST_DIR (${dist}): the build empties its output folder and would delete the pages. Set DIST_DIR to a folder outside the content folder.`;
  return undefined;
}

/** The files a tree's home page may be (the page at its root, `/docs/overview/index`), in any case (`Index.md`). */
const HOME_FILES = ['index.md', 'index.mdx', '_index.md', 'readme.md'];
const treeNames = new Map<string, string | undefined>();

/**
 * The name a brought tree gives itself: Mintlify's `docs.json` (or `mint.json`) `name`, else on its home page
 * VitePress's `hero.name`, else the page's `title` (before a VitePress ` | ` group), else the heading the page opens
 * with (`# Name`, a README's `<h1 align="center">Name</h1>`), read once per content folder. This repository's own
 * content has no such page.
 */
function treeName(contentDir: string): string | undefined {
  const dir = resolve(contentDir);
  if (treeNames.has(dir)) return treeNames.get(dir);
  let name: string | undefined;
  try {
    const files = new Map(readdirSync(dir).map((file) => [file.toLowerCase(), file]));
    const configured = mintlifyConfig(dir)?.name;
    const home = HOME_FILES.map((file) => files.get(file)).find((file) => file !== undefined);
    const { frontmatter, content }: { frontmatter: Record<string, unknown>; content: string } = home ? parseFrontmatter(readFileSync(join(dir, home), 'utf8')) : { frontmatter: {}, content: '' };
    const hero = typeof frontmatter.hero === 'object' && frontmatter.hero !== null ? (frontmatter.hero as Record<string, unknown>).name : undefined;
    const firstLine = /^\s*([^\n]*)/.exec(content)![1]!;
    const heading = atxHeading(firstLine);
    const html = /^<h1\b[^<>]*>([^<>]+)<\/h1>/.exec(firstLine)?.[1];
    const opening = heading?.depth === 1 ? inlineText(withoutAuthoredId(heading.text)) : html && inlineText(html);
    name = [configured, hero, frontmatter.title, opening]
      .map((value) => (typeof value === 'string' ? value.split(' | ')[0]!.replace(/\s+/g, ' ').trim() : ''))
      .find(Boolean);
  } catch {
    // no such folder (the build says so), or front matter that is not YAML (the docs loader reports it, naming the file)
  }
  treeNames.set(dir, name);
  return name;
}

/**
 * Reads the site config from the environment; throws one readable error listing every bad variable. Unset, the site
 * and assistant URLs are the local addresses the gateway will listen on (PORT, ASSISTANT_PORT), so a site moved to a
 * free port links to itself and its assistant accepts its own origin.
 */
export function loadSiteConfig(env: Record<string, string | undefined> = process.env): SiteConfig {
  const ownName = env.SITE_NAME || treeName(env.CONTENT_DIR || 'content');
  const result = siteConfigSchema.safeParse({
    url: env.SITE_URL || `http://localhost:${env.PORT || 4321}`,
    name: ownName || 'Agent Docs',
    named: Boolean(ownName),
    // a site with a name of its own is not described as this product (its llms.txt, home page and agent card say it)
    description: env.SITE_DESCRIPTION || (ownName ? `Documentation for ${ownName}.` : 'Documentation for Agent Docs: a self-hostable documentation site that serves people and AI agents equally well.'),
    version: env.SITE_VERSION || '1.0.0',
    contentDir: env.CONTENT_DIR || 'content',
    distDir: env.DIST_DIR || 'dist',
    assistantUrl: env.ASSISTANT_SITE_URL || `http://localhost:${env.ASSISTANT_PORT || 4322}`,
    assistantName: env.ASSISTANT_SITE_NAME || 'Portfolio assistant',
    editUrl: env.SITE_EDIT_URL || undefined,
    searchIndexPartPages: env.SEARCH_INDEX_PART_PAGES || 5000,
    contentSymlinks: env.CONTENT_SYMLINKS || 'inside',
  });
  if (result.success) {
    const overlap = foldersOverlap(result.data.contentDir, result.data.distDir);
    if (overlap) throw new Error(`Invalid site configuration:\n  - ${overlap}`);
    return result.data;
  }
  const problems = result.error.issues.map((i) => {
    const key = i.path[0] as keyof SiteConfig;
    return `  - ${envNames[key] ?? String(key)}: ${i.message}`;
  });
  throw new Error(`Invalid site configuration:\n${problems.join('\n')}`);
}
