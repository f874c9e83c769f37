import { existsSync } from 'node:fs';
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { contentTypes, loadSiteConfig, portfolioDir } from './lib/site-config.ts';
import { docsLoader, idFromPath } from './lib/docs-loader.ts';

const site = loadSiteConfig();

/**
 * A title or description on one line: YAML's block scalars (`title: |`) keep their line breaks, and a line break in a
 * title would split the twin's `# Title` and let a description's `# …` line become a heading of llms.txt.
 */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * A key written with no value (`description:`, YAML's null) is a key not written, as the tools that write them read
 * it (Bun's Mintlify pages leave such keys).
 */
const withoutEmptyKeys = (data: unknown): unknown =>
  data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null)) : data;

const frontmatter = z.object({
  // Without a title the page's first `# heading` gives it, else its file name (src/lib/source-pages.ts).
  title: z.string({ message: 'title must be a string' }).transform(oneLine).pipe(z.string().min(1, 'title must not be empty')).optional(),
  description: z.string({ message: 'description must be a string' }).transform(oneLine).optional(),
  type: z.enum(contentTypes, { message: `type must be one of ${contentTypes.join(', ')}` }).optional(),
  order: z.number({ message: 'order must be a number' }).optional(),
  draft: z.boolean({ message: 'draft must be true or false' }).default(false),
  // Old URLs of this page, answered with a 301 to it (src/lib/redirects.ts).
  redirect_from: z
    .union([z.string(), z.array(z.string())], { message: 'redirect_from must be a path or a list of paths' })
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
});

/** A number as other tools' frontmatter may write it (`3`, `"3"`); anything else is no order. */
const asOrder = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** A label as other tools' frontmatter may write it: a string with text, on one line; anything else is no label. */
const asLabel = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.replace(/\s+/g, ' ').trim() : undefined);

/**
 * A page's order and navigation label as other docs tools write them, when it gives no `order` of its own: Starlight's
 * `sidebar.order` and `sidebar.label`, Docusaurus's `sidebar_position` and `sidebar_label`, Just the Docs'
 * `nav_order`, Hugo's `weight` and `linkTitle`. Read leniently and never an error: they are those tools' fields, and a
 * tree brought here unchanged keeps its pages' order and the short names its navigation shows.
 */
const docsFrontmatter = z
  .preprocess(withoutEmptyKeys, frontmatter.extend({ sidebar: z.unknown().optional(), sidebar_position: z.unknown().optional(), sidebar_label: z.unknown().optional(), nav_order: z.unknown().optional(), weight: z.unknown().optional(), linkTitle: z.unknown().optional() }))
  .transform(({ sidebar, sidebar_position, sidebar_label, nav_order, weight, linkTitle, ...data }) => {
    const starlight = typeof sidebar === 'object' && sidebar !== null ? (sidebar as { order?: unknown; label?: unknown }) : {};
    return {
      ...data,
      order: data.order ?? asOrder(starlight.order) ?? asOrder(sidebar_position) ?? asOrder(nav_order) ?? asOrder(weight),
      navLabel: asLabel(starlight.label) ?? asLabel(sidebar_label) ?? asLabel(linkTitle),
    };
  });

export const collections = {
  docs: defineCollection({
    // Any docs tree: src/lib/docs-loader.ts (the URL rule is src/lib/routes.ts).
    loader: docsLoader(site.contentDir),
    schema: docsFrontmatter,
  }),
  portfolio: defineCollection({
    // A docs tree brought without a portfolio/ folder has an empty collection, not a warning on every build.
    loader: existsSync(portfolioDir(site.contentDir)) ? glob({ pattern: '*.{md,mdx}', base: portfolioDir(site.contentDir), generateId: idFromPath }) : { name: 'no-portfolio', load: async ({ store }) => store.clear() },
    schema: z.preprocess(withoutEmptyKeys, frontmatter.pick({ title: true, description: true, order: true, draft: true }).required({ title: true })),
  }),
};
