// A bad frontmatter must fail the build and name the file and the field; a title or description written over
// several lines (YAML block scalars) is read as one line everywhere it goes.
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite, removeDir, writeTree } from '../helpers/fixture.ts';
import { readManifest, readSiteFile } from '../helpers/manifest.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function contentWith(files: Record<string, string>): string {
  const dir = writeTree(files, 'agent-docs-bad-');
  dirs.push(dir);
  return dir;
}

/** Builds the files as a content tree; returns the build's output and whether it succeeded. */
async function build(files: Record<string, string>): Promise<{ code: number | null; output: string; distDir: string }> {
  const result = await buildSite(contentWith(files));
  dirs.push(result.distDir);
  return result;
}

/** The output of a build of the files that must fail. */
async function failedBuild(files: Record<string, string>): Promise<string> {
  const { code, output } = await build(files);
  expect(code).not.toBe(0);
  return output;
}

describe('frontmatter validation', () => {
  it('fails the build naming the file and the bad field', async () => {
    const output = await failedBuild({
      'docs/guide/good.md': '---\ntitle: Good\n---\n\nFine.\n',
      'docs/guide/broken.md': '---\ntitle: 42\ndescription: a title that is not text\n---\n\nBody.\n',
    });
    expect(output).toContain('broken.md');
    expect(output).toMatch(/title/);
  }, 120_000);

  it('fails the build on an unknown content type, naming the field', async () => {
    const output = await failedBuild({ 'docs/guide/typo.md': '---\ntitle: Typo\ntype: skil\n---\n\nBody.\n' });
    expect(output).toContain('typo.md');
    expect(output).toMatch(/type/);
  }, 120_000);

  it('fails the build on a title of nothing but spaces', async () => {
    const output = await failedBuild({ 'docs/guide/blank.md': '---\ntitle: "  "\n---\n\nBody.\n' });
    expect(output).toContain('blank');
    expect(output).toContain('title must not be empty');
  }, 120_000);
});

describe('the order and navigation labels other tools write', () => {
  it('sorts by order, else Starlight, Docusaurus, Just the Docs and Hugo fields, never failing on one that is no number; labels the navigation with their sidebar labels', async () => {
    const page = (title: string, field: string) => `---\ntitle: ${title}\n${field}\n---\n\nBody.\n`;
    const { code, output, distDir } = await build({
      'guide/a.md': page('Alpha', 'sidebar_position: 3\nsidebar_label: Short A'),
      'guide/b.md': page('Beta', 'sidebar:\n  order: 1\n  label: B short'),
      'guide/c.md': page('Gamma', 'weight: "2"\nlinkTitle: 3'),
      'guide/d.md': page('Delta', 'nav_order: banana'),
      'guide/e.md': page('Epsilon', 'order: 0\nsidebar_position: 99'),
      // Docusaurus folders: `_category_.json` titles and orders a section that sections.json does not name
      'basics/y.md': page('Why', 'sidebar_position: 1'),
      'basics/_category_.json': '{ "label": "Tutorial - Basics", "position": 2, "link": { "type": "generated-index" } }',
      'extras/x.md': page('Ex', 'sidebar_position: 1'),
      'extras/_category_.json': '{ "label": "Tutorial - Extras", "position": 1 }',
      // Docusaurus reads it as YAML: a comment is not JSON, and the file is set aside, not the build
      'guide/_category_.json': '{\n  # the guide\n  "label": "Not read", "position": 0\n}',
    });
    expect(code, output.slice(-2000)).toBe(0);
    expect(readManifest(distDir).pages.map((p) => p.title)).toEqual(['Ex', 'Why', 'Epsilon', 'Beta', 'Gamma', 'Alpha', 'Delta']);
    // the sidebar and the previous and next links say the label; the page, its twin and the manifest keep the title
    const epsilon = readSiteFile(distDir, 'docs/guide/e.html');
    expect(epsilon).toContain('<a href="/docs/guide/a">Short A</a>');
    expect(epsilon).toContain('<a href="/docs/guide/c">Gamma</a>'); // a label that is no text is no label
    expect(epsilon).toMatch(/rel="next">[^]*?<span class="pager-title">B short<\/span>/);
    expect(readSiteFile(distDir, 'docs/guide/a.html')).toContain('>Alpha</h1>');
    expect(readSiteFile(distDir, 'docs/guide/a.md')).toMatch(/^# Alpha$/m);
    const llms = readSiteFile(distDir, 'llms.txt');
    expect(llms).toMatch(/## Tutorial - Extras[^]*## Tutorial - Basics[^]*## Guide/);
    expect(output).toContain('_category_.json files that are not plain JSON, ignored: 1');
  }, 120_000);
});

describe('titles and descriptions over several lines', () => {
  it('are one line in the manifest, the twin and llms.txt, whose link text keeps its brackets escaped', async () => {
    const { code, output, distDir } = await build({
      'docs/guide/multi.md': '---\ntitle: |\n  Use [x](y)\n  twice\ndescription: |\n  First line.\n\n  # Not a heading\n---\n\nBody.\n',
    });
    expect(code, output.slice(-2000)).toBe(0);
    const page = readManifest(distDir).pages.find((p) => p.path === '/docs/guide/multi')!;
    expect(page.title).toBe('Use [x](y) twice');
    expect(page.description).toBe('First line. # Not a heading');
    expect(readSiteFile(distDir, 'docs/guide/multi.md')).toMatch(/^# Use \[x\]\(y\) twice\n\n> First line\. # Not a heading\n/);
    const llms = readSiteFile(distDir, 'llms.txt');
    expect(llms).toContain('- [Use \\[x\\](y) twice](');
    expect(llms).not.toMatch(/^# Not a heading/m);
  }, 120_000);

  it('show an identifier written in backticks as code in the page and its navigation, as text in the document title', async () => {
    const { code, output, distDir } = await build({
      'docs/guide/using.md': '---\ntitle: Auto-Cleanup with `using` | Recipes\n---\n\n# Auto-Cleanup with `using`\n\nBody.\n',
      'docs/guide/other.md': '---\ntitle: Other <page>\n---\n\nBody.\n',
      // a title taken from the page's heading keeps its code too
      'docs/guide/instances.md': '# Using `Environment` Instances\n\nBody.\n',
    });
    expect(code, output.slice(-2000)).toBe(0);
    const html = readSiteFile(distDir, 'docs/guide/using.html');
    expect(html).toContain('<h1 data-pagefind-meta="title">Auto-Cleanup with <code>using</code></h1>');
    expect(html).toContain('<title>Auto-Cleanup with using · ');
    expect(readSiteFile(distDir, 'docs/guide/other.html')).toContain('>Auto-Cleanup with <code>using</code></a>');
    expect(readSiteFile(distDir, 'docs/guide/using.html')).toContain('>Other &lt;page&gt;</a>'); // the rest stays text
    expect(readSiteFile(distDir, 'docs/guide/using.md')).toMatch(/^# Auto-Cleanup with `using`\n/);
    expect(readSiteFile(distDir, 'docs/guide/instances.html')).toContain('>Using <code>Environment</code> Instances</h1>');
    expect(readManifest(distDir).pages.find((p) => p.path === '/docs/guide/instances')!.title).toBe('Using `Environment` Instances');
  }, 120_000);
});
