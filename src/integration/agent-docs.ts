// Build steps that need the finished HTML: the Pagefind index, the CDN header
// files, and moving the assistant site into its own tree. Runs on astro:build:done.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import * as pagefind from 'pagefind';
import { headersFile, nginxSnippet } from '../../gateway/static/content-types.ts';
import type { SiteConfig } from '../lib/site-config.ts';
import { nginxSite } from './nginx-site.ts';

/** Route prefix the assistant (portfolio) site is built under, then moved to dist/portfolio. */
export const assistantPrefix = 'assistant-site';

interface ManifestPage {
  path: string;
}

async function indexTree(root: string, label: string, logger: AstroIntegrationLogger): Promise<void> {
  const manifest = JSON.parse(await readFile(join(root, 'build-manifest.json'), 'utf8')) as { pages: ManifestPage[] };
  const started = Date.now();
  const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
  if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
  const total = manifest.pages.length;
  const step = Math.max(1, Math.ceil(total / 10));
  for (const [i, page] of manifest.pages.entries()) {
    const file = page.path === '/' ? 'index.html' : `${page.path.slice(1)}.html`;
    const html = await readFile(join(root, file), 'utf8');
    const added = await index.addHTMLFile({ url: page.path, content: html });
    if (added.errors.length) throw new Error(`Pagefind could not index ${page.path}: ${added.errors.join('; ')}`);
    if ((i + 1) % step === 0 || i + 1 === total) logger.info(`${label}: indexed ${i + 1}/${total} pages`);
  }
  const written = await index.writeFiles({ outputPath: join(root, 'pagefind') });
  if (written.errors.length) throw new Error(`Pagefind could not write its bundle: ${written.errors.join('; ')}`);
  await index.deleteIndex();
  logger.info(`${label}: search index written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export function agentDocs({ site }: { site: SiteConfig }): AstroIntegration {
  return {
    name: 'agent-docs',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        const dist = join(root, '..');

        // The assistant site leaves the docs tree: it has its own origin.
        const portfolioSrc = join(root, assistantPrefix);
        const portfolioDir = join(dist, 'portfolio');
        await rm(portfolioDir, { recursive: true, force: true });
        if (existsSync(portfolioSrc)) await rename(portfolioSrc, portfolioDir);
        for (const f of [`${assistantPrefix}.html`]) await rm(join(root, f), { force: true });

        await writeFile(join(root, '_headers'), headersFile());
        await mkdir(join(dist, 'nginx'), { recursive: true });
        await writeFile(join(dist, 'nginx', 'content-types.conf'), nginxSnippet());
        await writeFile(join(dist, 'nginx', 'agent-docs.conf'), nginxSite());

        await indexTree(root, 'docs', logger);
        if (existsSync(join(portfolioDir, 'build-manifest.json'))) await indexTree(portfolioDir, 'portfolio', logger);
        // Pagefind runs as a child service; left open it keeps the build process alive.
        await pagefind.close();
        logger.info(`${site.name}: static tree ready in ${root}`);
      },
    },
  };
}
