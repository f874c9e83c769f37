// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { loadSiteConfig } from './src/lib/site-config.ts';
import { agentDocs } from './src/integration/agent-docs.ts';

const site = loadSiteConfig();

export default defineConfig({
  site: site.url,
  outDir: `${site.distDir}/site`,
  // /docs/a/b is served from docs/a/b.html with its twin docs/a/b.md beside it.
  build: { format: 'file' },
  trailingSlash: 'never',
  // The site is fully static; the gateway (gateway/) serves the dynamic routes.
  output: 'static',
  markdown: { syntaxHighlight: false },
  integrations: [mdx(), agentDocs({ site })],
  devToolbar: { enabled: false },
});
