// Markdown twins of the generated index pages: /docs (every section) and /docs/<section>
// (its pages). They list what those HTML pages list, with absolute links to the page
// twins, so an agent that lands on an index page (a link, `Accept: text/markdown`, the
// sitemap) reads Markdown there too, and llms.txt can name every page of the sitemap.
// The text follows the HTML pages (src/pages/docs/index.astro, [section]/index.astro)
// so that both say the same; the shape is the page twins' (src/lib/markdown-twin.ts).
import type { DocsModel, Section } from './docs.ts';
import { absolute } from './links.ts';
import { pageTwin } from './markdown-twin.ts';
import { pagesLabel, shelves } from '../components/nav.ts';
import { loadSiteConfig } from './site-config.ts';

const llmsUrl = () => absolute('/llms.txt');

export function sectionIndexTwin(section: Section): string {
  const lines = [`${pagesLabel(section.pages.length)}. Each is also available as Markdown: add \`.md\` to its address.`, ''];
  section.pages.forEach((p, i) => lines.push(`${i + 1}. [${p.title}](${absolute(`${p.path}.md`)})${p.description ? `: ${p.description}` : ''}`));
  return pageTwin({ title: section.title, body: lines.join('\n'), isMdx: false, llmsUrl: llmsUrl() }).markdown;
}

export function docsIndexTwin(model: DocsModel): string {
  const site = loadSiteConfig();
  const lines = [`${pagesLabel(model.pages.length)} in ${model.sections.length} sections. Agents can read the same index as Markdown at ${llmsUrl()}.`];
  for (const shelf of shelves(model)) {
    lines.push('', `## ${shelf.label}`, '');
    for (const s of shelf.sections) lines.push(`- [${s.title}](${absolute(`/docs/${s.slug}.md`)}): ${pagesLabel(s.pages.length)}`);
  }
  return pageTwin({ title: 'Documentation', description: `Every section of the ${site.name} documentation.`, body: lines.join('\n'), isMdx: false, llmsUrl: llmsUrl() }).markdown;
}
