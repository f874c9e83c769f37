// @ts-check
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { loadSiteConfig } from './src/lib/site-config.ts';
import { checkContentTree } from './src/lib/content-links.ts';
import { agentDocs } from './src/integration/agent-docs.ts';
import { readingPlugin } from './src/markdown/reading-plugin.ts';

const site = loadSiteConfig();
// before anything reads the tree: a missing content folder, or a symbolic link out of it, stops the build, named
checkContentTree(site.contentDir);
// The cache holds rendered HTML: a change to our Markdown rendering (src/markdown/) or to how the docs loader
// converts a page before rendering it (src/lib/) must start a new one.
const renderCode = [
  'markdown/reading-plugin.ts', 'markdown/heading-ids.ts', 'markdown/highlight.ts', 'markdown/highlight-tokens.ts',
  'lib/docs-loader.ts', 'lib/source-markdown.ts', 'lib/markdown-lines.ts', 'lib/home-frontmatter.ts', 'lib/tool-components.ts', 'lib/content-links.ts', 'lib/foreign-mdx.ts', 'lib/routes.ts',
];
const renderSource = renderCode.map((f) => readFileSync(new URL(`./src/${f}`, import.meta.url))).join('');
const contentKey = createHash('sha256').update(resolve(site.contentDir)).update(renderSource).digest('hex').slice(0, 12);

/**
 * Hands the reading plugin to the configured processor before any renderer exists (Markdown, MDX, content layer).
 * @returns {import('astro').AstroIntegration}
 */
function readingMarkdown() {
  return {
    name: 'agent-docs-reading',
    hooks: {
      'astro:config:setup': ({ config }) => {
        const processor = /** @type {{ name: string, options: { hastPlugins: unknown[] } }} */ (config.markdown.processor);
        if (processor.name !== 'satteri') throw new Error(`src/markdown/reading-plugin.ts is a Sätteri plugin; markdown.processor is ${processor.name}`);
        const contentDir = resolve(site.contentDir);
        processor.options.hastPlugins.push(() => readingPlugin(contentDir));
      },
    },
  };
}

export default defineConfig({
  site: site.url,
  outDir: `${site.distDir}/site`,
  // /docs/a/b is served from docs/a/b.html with its twin docs/a/b.md beside it.
  // One shared stylesheet file for every page (never inlined per page: 10,000 pages).
  // Four pages in flight: with one, the render waits for each page's file to be created
  // and written (2,000 pages: the generation took 29–34 s at concurrency 1 against
  // 18–20 s at 4 on the loaded 2-core VM, same CPU, same peak; the performance docs page).
  build: { format: 'file', inlineStylesheets: 'never', concurrency: 4 },
  trailingSlash: 'never',
  // The site is fully static; the gateway (gateway/) serves the dynamic routes.
  output: 'static',
  // Highlighting, code groups and table regions are one hast plugin of our own (src/markdown/):
  // a fixed set of grammars, a cache per unique block, token classes instead of inline colours.
  // It runs on Astro's default processor (Sätteri, native): setting markdown.rehypePlugins would
  // move every page to the unified processor, ≈30× slower per page (the performance docs page).
  markdown: { syntaxHighlight: false },
  integrations: [readingMarkdown(), mdx(), agentDocs({ site })],
  devToolbar: { enabled: false },
  // Every MDX page Astro compiles draws one warning from the bundler about a directive of Astro's own
  // ("use astro:head-inject", withastro/astro#18087, harmless): a tree of 1,000 MDX pages printed
  // 15,000 lines. That one warning is left out; every other is printed.
  vite: {
    build: {
      rolldownOptions: {
        onLog(level, log, handler) {
          if (log.code === 'MODULE_LEVEL_DIRECTIVE' && log.message.includes('use astro:head-inject')) return;
          handler(level, log);
        },
      },
    },
  },
  // The content-layer cache (data-store.json) is keyed by entry id, not by content
  // folder, so builds of different CONTENT_DIRs (tests, the benchmark corpus, a user's
  // own docs) get a cache of their own instead of reading each other's stale entries;
  // the key also changes with the Markdown rendering code (renderSource above), also
  // under an ASTRO_CACHE_DIR of the operator's choosing.
  cacheDir: `${process.env.ASTRO_CACHE_DIR || './node_modules/.astro'}/content-${contentKey}`,
});
