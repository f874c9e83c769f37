// The portfolio model: every published page of the assistant site (collection
// `portfolio`, content/portfolio/*.md) with its address, Markdown twin and hash,
// computed once per build and shared by the assistant site's routes.
//
// The assistant site is built under /assistant-site/ and moved to dist/portfolio/,
// where it is served at the root of its own origin: every link inside it is
// root-relative to that origin (`/about`), and absolute URLs use ASSISTANT_SITE_URL.
import { existsSync } from 'node:fs';
import { getCollection, type CollectionEntry } from 'astro:content';
import { pageTwin, type PageTwin } from '../../../lib/markdown-twin.ts';
import { absoluteLinks } from '../../../lib/source-markdown.ts';
import { loadSiteConfig, portfolioDir } from '../../../lib/site-config.ts';

export interface PortfolioPage extends PageTwin {
  entry?: CollectionEntry<'portfolio'>;
  /** `index`, `about`, … */
  slug: string;
  /** URL path at the assistant origin: `/` for the home page, else `/<slug>`. */
  path: string;
  title: string;
  description: string;
  order: number;
}

export interface PortfolioModel {
  site: { url: string; name: string; description: string; version: string };
  home: PortfolioPage;
  /** Every page, home first, then by `order`, title. */
  pages: PortfolioPage[];
}

/** Paths the assistant site generates itself; content files may not use them. */
export const reservedSlugs = new Set(['auth', 'api', 'ask', 'llms', 'build-manifest', 'pagefind', 'well-known']);

const slugPattern = /^[a-z0-9][a-z0-9-]*$/;

export const twinFile = (p: { slug: string }) => `${p.slug}.md`;
export const pageHref = (slug: string) => (slug === 'index' ? '/' : `/${slug}`);

let model: Promise<PortfolioModel> | undefined;

export function portfolioModel(): Promise<PortfolioModel> {
  model ??= buildModel();
  return model;
}

/** Absolute URL on the assistant site. */
export function assistantAbsolute(path: string): string {
  return `${loadSiteConfig().assistantUrl}${path}`;
}

async function buildModel(): Promise<PortfolioModel> {
  const config = loadSiteConfig();
  // without the folder there is no collection to ask for (Astro would warn that it is empty)
  const entries = existsSync(portfolioDir(config.contentDir)) ? await getCollection('portfolio', (e) => !e.data.draft) : [];
  const pages: PortfolioPage[] = entries.map((entry) => {
    const slug = entry.id;
    const file = entry.filePath ?? entry.id;
    if (!slugPattern.test(slug)) throw new Error(`${file}: "${slug}" is not a valid page name (use lower-case letters, digits and hyphens)`);
    if (reservedSlugs.has(slug)) throw new Error(`${file}: "${slug}" is reserved by the assistant site; rename the file`);
    return {
      entry,
      slug,
      path: pageHref(slug),
      title: entry.data.title,
      description: entry.data.description ?? '',
      order: entry.data.order ?? Number.MAX_SAFE_INTEGER,
      ...pageTwin({
        title: entry.data.title,
        description: entry.data.description,
        // MDX bodies are reduced by pageTwin; Markdown links are made absolute here
        body: file.endsWith('.mdx') ? (entry.body ?? '') : absoluteLinks(entry.body ?? '', config.assistantUrl),
        isMdx: file.endsWith('.mdx'),
        llmsUrl: assistantAbsolute('/llms.txt'),
      }),
    };
  });
  pages.sort((a, b) => a.order - b.order || a.title.localeCompare(b.title) || a.slug.localeCompare(b.slug));

  let home = pages.find((p) => p.slug === 'index');
  if (!home) {
    // No content/portfolio/index.md: a generated home page that lists the others.
    const description = `${config.assistantName}: ask the assistant about the pages of this site.`;
    const body = pages.map((p) => `- [${p.title}](${assistantAbsolute(p.path)})${p.description ? `: ${p.description}` : ''}`).join('\n');
    const twin = pageTwin({ title: config.assistantName, description, body, isMdx: false, llmsUrl: assistantAbsolute('/llms.txt') });
    home = { slug: 'index', path: '/', title: config.assistantName, description, order: -1, ...twin };
  }
  const rest = pages.filter((p) => p !== home);
  return {
    site: { url: config.assistantUrl, name: config.assistantName, description: home.description || `${config.assistantName}.`, version: config.version },
    home,
    pages: [home, ...rest],
  };
}
