// llms.txt per llmstxt.org: H1, blockquote summary, then H2 sections of links to
// the Markdown twins. Past the size budget the root file links per-section files.
// The twins of the index pages (/docs, /docs/<section>: src/lib/index-twins.ts) close
// it under "Optional" (they list what the sections above already list), so that every
// page of the sitemap but the home page has its Markdown named here.
import type { DocsModel, Section } from './docs.ts';
import { absolute } from './links.ts';
import { pagesLabel } from '../components/nav.ts';
import { loadSiteConfig } from './site-config.ts';

/** llms.txt stays under this many characters; larger sites are split by section. */
export const llmsBudget = 50_000;

/** A title as a link's text: its brackets escaped, so `Use [x](y)` cannot end the link or start another. */
const linkText = (title: string) => title.replace(/[[\]\\]/g, '\\$&');

function pageLine(p: Section['pages'][number]): string {
  return `- [${linkText(p.title)}](${absolute(`${p.path}.md`)})${p.description ? `: ${p.description}` : ''}`;
}

function header(title: string, summary: string, intro: string[]): string[] {
  return [`# ${title}`, '', `> ${summary}`, '', ...intro, ''];
}

function intro(): string[] {
  return [
    'Every page is available as Markdown: append `.md` to its URL, or send `Accept: text/markdown`.',
    `Search: \`GET ${absolute('/api/search?query=…')}\`. Questions: \`GET ${absolute('/ask?query=…')}\`. ` +
      `Up to 20 pages at once: \`POST ${absolute('/api/md/batch')}\`. MCP: \`${absolute('/api/mcp')}\` (Streamable HTTP). ` +
      `OpenAPI: ${absolute('/openapi.json')}.`,
  ];
}

export function sectionLlms(section: Section): string {
  const site = loadSiteConfig();
  const lines = header(`${site.name}: ${section.title}`, `The ${section.title} section of ${site.name}.`, []);
  lines.push(`## ${section.title}`, '', ...section.pages.map(pageLine), '');
  return lines.join('\n');
}

/** True when the one-file form would exceed the budget. */
export function isSplit(model: DocsModel): boolean {
  return fullIndex(model).length > llmsBudget;
}

/** The index pages' twins, for the Optional part. */
function indexLines(model: DocsModel): string[] {
  return [
    `- [Documentation](${absolute('/docs.md')}): every section with its page count`,
    ...model.sections.map((s) => `- [${s.title}](${absolute(`/docs/${s.slug}.md`)}): the section's index page`),
  ];
}

function fullIndex(model: DocsModel): string {
  const site = loadSiteConfig();
  const lines = header(site.name, site.description, intro());
  for (const section of model.sections) lines.push(`## ${section.title}`, '', ...section.pages.map(pageLine), '');
  lines.push('## Optional', '', ...indexLines(model), '');
  return lines.join('\n');
}

export function rootLlms(model: DocsModel): string {
  const one = fullIndex(model);
  if (one.length <= llmsBudget) return one;
  const site = loadSiteConfig();
  const lines = header(site.name, site.description, [
    ...intro(),
    '',
    `This site has ${model.pages.length} pages, so each section has its own llms.txt.`,
  ]);
  lines.push('## Sections', '');
  for (const s of model.sections) {
    lines.push(`- [${s.title}](${absolute(`/docs/${s.slug}/llms.txt`)}): ${pagesLabel(s.pages.length)}`);
  }
  lines.push('', '## Optional', '', `- [Everything in one file](${absolute('/llms-full.txt')}): every page's Markdown`, ...indexLines(model), '');
  return lines.join('\n');
}

/**
 * llms-full.txt is its head, then per page `\n` and the page's part: every page's Markdown twin in the docs model's
 * order (the manifest's). The build writes it page by page after the render (src/integration/llms-full.ts): as one
 * string it would be the site's whole Markdown held several times over in the Astro process (a 56 MB file at 10,000
 * pages); `astro dev` serves fullLlms.
 */
export function fullLlmsHead(): string {
  const site = loadSiteConfig();
  return `# ${site.name}\n\n> ${site.description}\n`;
}

export function fullLlmsPart(path: string, markdown: string): string {
  return `---\n\nSource: ${absolute(path)}\n\n${markdown}`;
}

export function fullLlms(model: DocsModel): string {
  return [fullLlmsHead(), ...model.pages.map((p) => fullLlmsPart(p.path, p.markdown))].join('\n');
}
