import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { contentTypes, loadSiteConfig } from './lib/site-config.ts';
import { docsLoader, idFromPath } from './lib/docs-loader.ts';

const site = loadSiteConfig();

/**
 * A title or description on one line: YAML's block scalars (`title: |`) keep their line breaks, and a line break in a
 * title would split the twin's `# Title` and let a description's `# …` line become a heading of llms.txt.
 */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

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

export const collections = {
  docs: defineCollection({
    // Any docs tree: src/lib/docs-loader.ts (the URL rule is src/lib/routes.ts).
    loader: docsLoader(site.contentDir),
    schema: frontmatter,
  }),
  portfolio: defineCollection({
    loader: glob({ pattern: '*.{md,mdx}', base: `${site.contentDir}/portfolio`, generateId: idFromPath }),
    schema: frontmatter.pick({ title: true, description: true, order: true, draft: true }).required({ title: true }),
  }),
};
