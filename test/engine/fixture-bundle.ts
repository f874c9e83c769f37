/**
 * Builds a tiny real Pagefind bundle (pagefind's Node API) plus a build-manifest.json in a directory,
 * shaped like the site build's output (`<siteDir>/pagefind/`, `<siteDir>/build-manifest.json`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pagefind from 'pagefind';

export interface FixturePage {
  path: string; // /docs/<section>/<page>
  title: string;
  type: 'docs' | 'skill' | 'agent' | 'hook' | 'composition';
  body: string; // HTML inside the article, after the h1
  description?: string;
}

export function page(path: string, title: string, type: FixturePage['type'], body: string): FixturePage {
  return { path, title, type, body };
}

/** One filter per element: Pagefind 1.6 does not split "type:x, section:y" in a single attribute. */
export function pageHtml(p: FixturePage): string {
  const section = p.path.split('/')[2] ?? '';
  return `<!doctype html><html lang="en"><head><title>${p.title}</title></head><body><nav>Navigation noise</nav>
<article data-pagefind-body data-pagefind-filter="type:${p.type}"><span data-pagefind-filter="section:${section}" hidden></span>
<h1 data-pagefind-meta="title">${p.title}</h1>
${p.body}
</article></body></html>`;
}

export async function buildFixtureSite(siteDir: string, pages: FixturePage[], buildId = '0123456789abcdef'): Promise<void> {
  mkdirSync(siteDir, { recursive: true });
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw new Error(`pagefind.createIndex failed: ${errors.join('; ')}`);
  for (const p of pages) {
    const r = await index.addHTMLFile({ url: p.path, content: pageHtml(p) });
    if (r.errors.length) throw new Error(`pagefind addHTMLFile ${p.path}: ${r.errors.join('; ')}`);
  }
  const w = await index.writeFiles({ outputPath: join(siteDir, 'pagefind') });
  if (w.errors.length) throw new Error(`pagefind writeFiles: ${w.errors.join('; ')}`);
  await index.deleteIndex();
  const manifest = {
    manifestVersion: 1,
    buildId,
    site: { url: 'http://localhost:4321', name: 'Fixture Docs', description: 'Fixture', version: '1.0.0' },
    pages: pages.map((p, i) => ({
      path: p.path,
      title: p.title,
      description: p.description ?? '',
      type: p.type,
      section: p.path.split('/')[2] ?? '',
      md: `${p.path.slice(1)}.md`,
      hash: `sha256-${i.toString(16).padStart(64, '0')}`,
      order: i,
      headings: [],
    })),
  };
  writeFileSync(join(siteDir, 'build-manifest.json'), JSON.stringify(manifest, null, 2));
}

export async function closePagefind(): Promise<void> {
  await pagefind.close();
}

/** The fixture corpus used by the engine tests. */
export function fixturePages(): FixturePage[] {
  const pages: FixturePage[] = [
    page('/docs/getting-started/installation', 'Installation', 'docs',
      `<p>Install the widget CLI with npm &amp; friends. It runs anywhere Node runs.</p>
<h2 id="requirements">Requirements</h2><p>You need Node 24 and npm 11. Use &lt;target&gt; for the output directory.</p>
<h2 id="troubleshooting">Troubleshooting</h2><p>If the setup fails, remove the cache folder and try again.</p>`),
    page('/docs/getting-started/configuration', 'Configuration', 'docs',
      `<p>The configuration file lives next to your package.json.</p>
<h2 id="install-plugins">Install plugins</h2><p>Plugins extend the build with extra steps.</p>
<h2 id="environment">Environment</h2><p>Variables override the file.</p>`),
    page('/docs/skills/deploy', 'Deploy skill', 'skill',
      `<p>Deploys the site. Installation of the CLI is covered elsewhere.</p><h2 id="usage">Usage</h2><p>Run deploy with a target to install the bundle remotely.</p>`),
    page('/docs/agents/reviewer', 'Reviewer agent', 'agent', `<p>Reviews pull requests and explains the findings.</p>`),
    page('/docs/hooks/pre-commit', 'Pre-commit hook', 'hook', `<p>Runs the linters before each commit.</p>`),
    page('/docs/compositions/release', 'Release pipeline', 'composition', `<p>Chains the reviewer agent and the deploy skill into a release.</p>`),
  ];
  for (let i = 1; i <= 25; i++) {
    const n = String(i).padStart(2, '0');
    // every widget page mentions "gadget" the same number of times: equal scores, so the url tiebreak decides
    pages.push(page(`/docs/widgets/w-${n}`, `Widget part ${n}`, i % 5 === 0 ? 'skill' : 'docs',
      `<p>This part covers the gadget assembly step ${n}.</p><h2 id="details">Details</h2><p>More words about assembly number ${n}.</p>`));
  }
  return pages;
}
