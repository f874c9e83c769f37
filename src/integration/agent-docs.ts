// Build steps that need the finished HTML: llms-full.txt, the Pagefind index, the CDN
// header files, and moving the assistant site into its own tree. Runs on astro:build:done.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { headersFile, nginxSnippet } from '../../gateway/static/content-types.ts';
import { securityHeaders } from '../../gateway/http/security-headers.ts';
import type { SiteConfig } from '../lib/site-config.ts';
import { nginxDefaults, nginxGateways, nginxSite } from './nginx-site.ts';
import { deferEnv, deferValue, writeSearchIndexes } from './search-index.ts';
import { aheadDir, startCompressAhead, type CompressAhead } from './compress-ahead.ts';
import { writeSecurityHeaders } from './security-headers.ts';
import { writeLlmsFull } from './llms-full.ts';

/** Route prefix the assistant (portfolio) site is built under, then moved to dist/portfolio. */
export const assistantPrefix = 'assistant-site';

export function agentDocs({ site }: { site: SiteConfig }): AstroIntegration {
  let distDir = '';
  let ahead: CompressAhead | undefined;
  return {
    name: 'agent-docs',
    hooks: {
      // the dev server serves llms-full.txt from the docs model; a build writes it after the render (llms-full.ts)
      'astro:config:setup': ({ command, injectRoute }) => {
        if (command === 'dev') injectRoute({ pattern: '/llms-full.txt', entrypoint: fileURLToPath(new URL('../pages/_llms-full.txt.ts', import.meta.url)) });
      },
      'astro:config:done': ({ config, logger }) => {
        distDir = join(fileURLToPath(config.outDir), '..');
        // a brought tree that names itself nowhere would be presented as this product (its home page, llms.txt)
        if (!site.named && resolve(site.contentDir) !== resolve('content')) {
          logger.warn(`the site is named "${site.name}" and described as this product: set SITE_NAME (and SITE_DESCRIPTION), or give ${site.contentDir} an index.md or README.md whose title or first heading names it`);
        }
      },
      // The pages' .br and .gz siblings, made while Astro renders them (compress-ahead.ts).
      'astro:build:start': () => {
        if (process.env.PRECOMPRESS !== 'false') ahead = startCompressAhead(aheadDir(distDir));
      },
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        const dist = join(root, '..');
        if (ahead) {
          const { offered, dropped } = await ahead.finish();
          logger.info(`compress ahead: ${offered} bodies compressed during the render, ${dropped} left to the later pass`);
        }

        await writeLlmsFull(root);

        // The assistant site leaves the docs tree: it has its own origin.
        const portfolioSrc = join(root, assistantPrefix);
        const portfolioDir = join(dist, 'portfolio');
        await rm(portfolioDir, { recursive: true, force: true });
        if (existsSync(portfolioSrc)) await rename(portfolioSrc, portfolioDir);
        for (const f of [`${assistantPrefix}.html`]) await rm(join(root, f), { force: true });

        // the CSP's hashes of each tree's inline code, then every place that serves the trees
        const hashes = await writeSecurityHeaders(dist);
        if (existsSync(portfolioDir)) await writeFile(join(portfolioDir, '_headers'), headersFile(securityHeaders(hashes.portfolio)));
        await writeFile(join(root, '_headers'), headersFile(securityHeaders(hashes.site)));
        await mkdir(join(dist, 'nginx'), { recursive: true });
        await writeFile(join(dist, 'nginx', 'content-types.conf'), nginxSnippet());
        await writeFile(join(dist, 'nginx', 'agent-docs.conf'), nginxSite({ ...nginxDefaults, securityHeaders: securityHeaders(hashes.site) }));
        await writeFile(join(dist, 'nginx', 'gateways.conf'), nginxGateways());

        // The Pagefind step (src/integration/search-index.ts). runAstroBuild runs it in a process of
        // its own once this one has exited, so Astro's memory and Pagefind's never add up.
        if (process.env[deferEnv] === deferValue) logger.info('search index: written after the Astro build exits');
        else await writeSearchIndexes(dist, (m) => logger.info(m));
        logger.info(`${site.name}: static tree ready in ${root}`);
      },
    },
  };
}
