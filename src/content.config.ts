import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { contentTypes, loadSiteConfig } from './lib/site-config.ts';

const site = loadSiteConfig();

const frontmatter = z.object({
  title: z.string({ message: 'title is required and must be a string' }).min(1, 'title must not be empty'),
  description: z.string().optional(),
  type: z.enum(contentTypes, { message: `type must be one of ${contentTypes.join(', ')}` }).optional(),
  order: z.number({ message: 'order must be a number' }).optional(),
  draft: z.boolean({ message: 'draft must be true or false' }).default(false),
});

// Entry ids are the file path without extension, so the URL rule in
// src/lib/routes.ts sees the folders (the default slugger would drop case and dots).
const idFromPath = ({ entry }: { entry: string }) => entry.replace(/\.(md|mdx)$/, '');

export const collections = {
  docs: defineCollection({
    // retainBody: false keeps raw bodies out of the data store Astro inlines into the
    // prerender bundle (−9 s and −0.5 GB at 10,000 pages); the twin reads the file instead.
    loader: glob({ pattern: ['**/*.{md,mdx}', '!portfolio/**'], base: site.contentDir, generateId: idFromPath, retainBody: false }),
    schema: frontmatter,
  }),
  portfolio: defineCollection({
    loader: glob({ pattern: '*.{md,mdx}', base: `${site.contentDir}/portfolio`, generateId: idFromPath }),
    schema: frontmatter.pick({ title: true, description: true, order: true, draft: true }),
  }),
};
