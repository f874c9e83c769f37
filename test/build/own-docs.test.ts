// Bring your own docs: trimmed copies of two real VitePress trees (test/fixtures/byod/,
// shaped like ../shared/corpora: nested folders, containers, code groups, includes,
// every link form, pages without frontmatter), a Starlight tree whose MDX imports
// its theme's components and a Mintlify tree whose MDX uses them without imports build as they are; a collision, a broken link, a symbolic link out
// of the tree and an MDX page nested too deeply fail the build naming what is wrong. Plus the twins of the main fixture:
// absolute links and the llms.txt pointer.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/astro-build.ts';
import { buildSite, fixtureSiteUrl, removeDir, writeTree } from '../helpers/fixture.ts';
import { readManifest, readSiteFile } from '../helpers/manifest.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const fixture = (name: string) => join(repoRoot, 'test', 'fixtures', 'byod', name);

/** The part of a page that comes from its Markdown. */
function prose(distDir: string, path: string): string {
  const html = readSiteFile(distDir, `${path.slice(1)}.html`);
  return html.slice(html.indexOf('<div class="prose">'), html.indexOf('</article>'));
}

async function build(contentDir: string, env: Record<string, string> = {}) {
  const result = await buildSite(contentDir, env);
  dirs.push(result.distDir);
  return result;
}

describe('a VitePress tree (trimmed copy of Vitest’s docs)', () => {
  let distDir = '';
  let output = '';
  beforeAll(async () => {
    const result = await build(fixture('vitest'));
    ({ distDir, output } = result);
    if (result.code !== 0) throw new Error(`build failed:\n${output.slice(-3000)}`);
  }, 300_000);

  it('maps every file to /docs/<section>/<page>: first folder the section, the rest joined, root pages in overview', () => {
    const paths = readManifest(distDir).pages.map((p) => p.path).sort();
    expect(paths).toEqual([
      '/docs/api/vi',
      '/docs/config/globals',
      '/docs/config/index',
      '/docs/guide/index',
      '/docs/guide/mocking',
      '/docs/guide/mocking-classes',
      '/docs/overview/blog',
      '/docs/overview/index',
      '/docs/overview/upper-case-name',
    ]);
  });

  it('records in the manifest the file each page was built from, relative to the content folder', () => {
    const bySource = Object.fromEntries(readManifest(distDir).pages.map((p) => [p.source, p.path]));
    expect(bySource['guide/mocking/classes.md']).toBe('/docs/guide/mocking-classes');
    expect(bySource['index.md']).toBe('/docs/overview/index');
  });

  it('titles pages from frontmatter (without the "| Group" suffix) or the first # heading, shown once', () => {
    const titles = Object.fromEntries(readManifest(distDir).pages.map((p) => [p.path, p.title]));
    expect(titles['/docs/guide/mocking']).toBe('Mocking');
    expect(titles['/docs/guide/index']).toBe('Getting Started');
    // no frontmatter; the heading's badge and VitePress custom id {#…} are not part of the title
    expect(titles['/docs/guide/mocking-classes']).toBe('Mocking Classes');
    expect(titles['/docs/overview/blog']).toBe('Blog'); // frontmatter without a title
    expect(titles['/docs/overview/index']).toBe('Vitest');
    expect(prose(distDir, '/docs/guide/mocking-classes')).not.toContain('<h1');
    expect(readSiteFile(distDir, 'docs/guide/mocking-classes.md').match(/^# /gm)).toHaveLength(1);
  });

  it('rewrites relative, root-relative, .md, .html, folder and anchored links in HTML and twins', () => {
    const guide = prose(distDir, '/docs/guide/index');
    expect(guide).toContain('href="/docs/config/globals"');
    expect(guide).toContain('href="/docs/guide/mocking#cheat-sheet"');
    const mocking = prose(distDir, '/docs/guide/mocking');
    expect(mocking).toContain('href="/docs/api/vi#vi-fn"');
    expect(mocking).toContain('href="/docs/guide/mocking-classes"');
    expect(mocking).toContain('href="/docs/config/index"');
    expect(prose(distDir, '/docs/api/vi')).toContain('href="/docs/guide/mocking#cheat-sheet"');
    expect(prose(distDir, '/docs/overview/blog')).toContain('href="/docs/guide/index"');
    const twin = readSiteFile(distDir, 'docs/guide/mocking-classes.md');
    expect(twin).toContain(`[cheat sheet](${fixtureSiteUrl}/docs/guide/mocking#cheat-sheet)`);
    expect(twin).toContain(`[config](${fixtureSiteUrl}/docs/config/index)`);
    // links inside code stay as written
    expect(readSiteFile(distDir, 'docs/guide/mocking.md')).toContain('[x](./nowhere.md) and ::: tip');
  });

  it('keeps the ids the author gave, and the ids VitePress gives headings, as anchors their links land on', () => {
    const mocking = prose(distDir, '/docs/guide/mocking');
    // an id after a heading sits beside the one the heading gets from its text; equal to it, it adds nothing
    expect(mocking).toContain('<h2 id="mocking-modules"><span id="modules"></span>Mocking Modules</h2>');
    expect(mocking).toContain('<h2 id="cheat-sheet">Cheat Sheet</h2>');
    // on a line of its own, and after a container's title
    expect(mocking).toMatch(/<span id="algorithm"><\/span>\s*<ul>/);
    expect(mocking).toContain('<p class="callout-title" id="class-support">Class Support</p>');
    // a badge in a container's title shows as one
    expect(mocking).toContain('<p class="callout-title">Since <span class="badge badge-version">4.1.0</span></p>');
    // VitePress's id for `vi.fn` is vi-fn, github-slugger's vifn
    expect(prose(distDir, '/docs/api/vi')).toContain('<h2 id="vifn"><span id="vi-fn"></span>vi.fn</h2>');
    for (const path of ['/docs/guide/mocking', '/docs/api/vi']) {
      const ids = [...readSiteFile(distDir, `${path.slice(1)}.html`).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
      expect(new Set(ids).size).toBe(ids.length);
    }
    // every anchored link between the fixture's pages lands on an id (or an a element's name) of its page, but the one
    // written to a gone section
    for (const page of readManifest(distDir).pages) {
      for (const [, target, id] of prose(distDir, page.path).matchAll(/href="(\/docs\/[^"#]+)#([^"]+)"/g)) {
        if (id === 'renamed-section') continue;
        expect(readSiteFile(distDir, `${target!.slice(1)}.html`), `${page.path} → ${target}#${id}`).toMatch(new RegExp(`\\sid="${id}"|<a name=["']${id}["']`));
      }
    }
    const twin = readSiteFile(distDir, 'docs/guide/mocking.md');
    expect(twin).toContain('## Mocking Modules\n');
    expect(twin).not.toContain('{#');
    // ids in the page's HTML, a heading with a reference link in it and an h1 after the title are sections too
    expect(prose(distDir, '/docs/api/vi')).toContain('<h2 id="vimockedt">');
    expect(prose(distDir, '/docs/guide/mocking')).toMatch(/<a id="mocking-modules-anchor"><\/a>[\s\S]*<a name='legacy-modules'><\/a>[\s\S]*<h1 id="appendix">/);
    // a link to a section no page has reaches the page, and the build says where it is written
    expect(output).toMatch(/^\[content\] links to a section the page does not have \(they reach the page\): 1; api\/vi\.md:\d+ → \/docs\/guide\/mocking#renamed-section$/m);
  });

  it('closes containers as VitePress does: the first `:::` closes the open callout and the code group inside it', () => {
    const html = prose(distDir, '/docs/api/vi');
    const callout = html.slice(html.indexOf('<div class="callout callout-warning"'), html.indexOf('<h2 id="vispyon">'));
    expect(callout).toContain('<div class="code-group"');
    expect(callout.match(/<div\b/g)!.length).toBe(callout.match(/<\/div>/g)!.length);
    const twin = readSiteFile(distDir, 'docs/api/vi.md');
    expect(twin).toContain('> **Spies keep length**');
    expect(twin).toContain('\n## vi.spyOn\n\nOutside the callout again.');
  });

  it('renders containers and GitHub alerts as callouts, readable block quotes in the twin', () => {
    const mocking = prose(distDir, '/docs/guide/mocking');
    expect(mocking).toMatch(/<div class="callout callout-warning" role="note">\s*<p class="callout-title">Custom title<\/p>/);
    expect(mocking).toMatch(/<details class="callout callout-details">\s*<summary>Click to see the output<\/summary>/);
    expect(mocking).toMatch(/<div class="callout callout-note" role="note">\s*<p class="callout-title">Note<\/p>\s*<p>GitHub alerts/);
    expect(prose(distDir, '/docs/config/globals')).toMatch(/<div class="callout callout-note" role="note">\s*<p class="callout-title">Starlight style<\/p>/);
    const twin = readSiteFile(distDir, 'docs/guide/mocking.md');
    expect(twin).toContain('> **Custom title**\n>\n> Always restore mocks.');
    expect(twin).not.toMatch(/^:::/m);
    const sheets = [...readSiteFile(distDir, 'docs/guide/mocking.html').matchAll(/href="\/(_astro\/[^"]+\.css)"/g)].map((m) => readSiteFile(distDir, m[1]!));
    expect(sheets.some((css) => css.includes('.callout-warning'))).toBe(true);
  });

  it('renders ::: code-group as a tab group labelled from [label], plain labelled fences in the twin', () => {
    const html = prose(distDir, '/docs/guide/index');
    expect(html).toContain(
      '<div class="code-group" data-code-group=""><div class="code-group-tabs" role="tablist">' +
        '<button type="button" role="tab" id="code-group-1-1-tab" aria-selected="true" aria-controls="code-group-1-1">npm</button>' +
        '<button type="button" role="tab" id="code-group-1-2-tab" aria-selected="false" aria-controls="code-group-1-2">yarn</button>' +
        '<button type="button" role="tab" id="code-group-1-3-tab" aria-selected="false" aria-controls="code-group-1-3">example.js</button></div>',
    );
    // each panel holds the fence as the site renders every code block (highlighted at build time)
    expect(html).toMatch(/<div class="code-group-panel" role="tabpanel" id="code-group-1-1" aria-labelledby="code-group-1-1-tab">\s*<div class="code-block"><pre class="code" tabindex="0" data-lang="bash">/);
    const twin = readSiteFile(distDir, 'docs/guide/index.md');
    expect(twin).toContain('**npm**\n\n```bash\nnpm install -D vitest\n```\n\n**yarn**\n\n```bash\nyarn add -D vitest\n```');
    expect(twin).toContain("**example.js**\n\n```js\nimport { expect, test } from 'vitest'");
  });

  it('reads code includes from the tree, drops <script>/<style>, keeps templates, turns components into text or badges', () => {
    const mocking = prose(distDir, '/docs/guide/mocking');
    expect(mocking).toContain('✓ test/basic.test.ts (1 test) 2ms');
    expect(mocking).not.toContain('\u001b[');
    expect(mocking).toContain('<span class="badge badge-version">4.1.0</span>');
    expect(mocking).toContain('<span class="badge badge-experimental">Experimental</span>');
    expect(mocking).not.toMatch(/CRoot|<Version|<Badge/);
    const home = readSiteFile(distDir, 'docs/overview/index.html');
    expect(home).not.toContain('Home.vue');
    expect(home).not.toContain('color: red');
    expect(prose(distDir, '/docs/guide/index')).toContain('{{ $frontmatter.title }}');
  });

  it('reports each converted kind once, with a count', () => {
    expect(output.match(/\[content\] <script> blocks dropped.*: 1$/gm)).toHaveLength(1);
    expect(output).toMatch(/\[content\] code includes read from the tree: 2$/m);
    expect(output).toMatch(/\[content\] template expressions \{\{ … \}\} kept as text: 1$/m);
    expect(output.match(/\[content\] <Version> shown as a badge/g)).toHaveLength(1);
    // a tree without a portfolio/ folder or MDX pages of this site's own gets no warning about either (nor any other)
    expect(output).not.toMatch(/\[WARN\]/);
  });

  it('copies images beside the pages and points at the copy', () => {
    expect(prose(distDir, '/docs/guide/mocking')).toContain('<img src="/assets/guide/images/diagram.svg" alt="Diagram of mocks">');
    expect(readSiteFile(distDir, 'assets/guide/images/diagram.svg')).toContain('<svg');
    expect(readSiteFile(distDir, 'docs/guide/mocking.md')).toContain(`(${fixtureSiteUrl}/assets/guide/images/diagram.svg)`);
  });

  it('keeps old URLs: _redirects and redirect_from, resolved to the new URLs, in _redirects and the nginx snippet only', () => {
    expect(readSiteFile(distDir, '_redirects')).toBe(
      '/guide/mocks /docs/guide/mocking 301\n/guide/old-mocking /docs/guide/mocking 301\n/old-config /docs/config/globals 301\n',
    );
    const nginx = readFileSync(join(distDir, 'nginx', 'redirects.conf'), 'utf8');
    expect(nginx).toContain('location = "/guide/old-mocking" { return 301 "/docs/guide/mocking$is_args$args"; }');
    expect(readManifest(distDir).pages.some((p) => p.path.includes('old') || p.path.includes('mocks'))).toBe(false);
    expect(readSiteFile(distDir, 'llms.txt')).not.toContain('old-mocking');
  });
});

describe('a VitePress tree with pages without frontmatter (trimmed copy of Vite’s docs)', () => {
  let distDir = '';
  let output = '';
  beforeAll(async () => {
    const result = await build(fixture('vite'), { LINK_CHECK: 'warn' });
    ({ distDir, output } = result);
    if (result.code !== 0) throw new Error(`build failed:\n${output.slice(-3000)}`);
  }, 300_000);

  it('drops an HTML block with Vue directives (it renders the source tool\'s data), keeps plain HTML', () => {
    const html = prose(distDir, '/docs/guide/features');
    const twin = readSiteFile(distDir, 'docs/guide/features.md');
    for (const page of [html, twin]) {
      expect(page).not.toMatch(/v-for|dep\.name|:href/);
      expect(page).toContain('A plain HTML block stays.');
    }
    expect(output).toMatch(/HTML blocks with Vue directives dropped \(they render the source tool's data\): 1$/m);
  });

  it('builds pages without frontmatter, titled by their first heading', () => {
    const titles = Object.fromEntries(readManifest(distDir).pages.map((p) => [p.path, p.title]));
    expect(titles).toEqual({
      '/docs/blog/announcing-vite': 'Announcing Vite',
      '/docs/config/index': 'Configuring Vite',
      '/docs/config/shared-options': 'Shared Options',
      '/docs/guide/features': 'Features',
      '/docs/overview/index': 'Vite',
    });
  });

  it('with LINK_CHECK=warn, reports a broken link with file, line and target and builds', () => {
    expect(output).toContain('guide/features.md:13: link to "./gone.md"');
    expect(output).toContain('LINK_CHECK=warn');
    expect(prose(distDir, '/docs/guide/features')).toContain('href="/docs/config/shared-options#base"');
    expect(prose(distDir, '/docs/guide/features')).toContain('href="/docs/config/index"');
  });

  it('shows a twoslash sample as its page does: no set-up lines above the cut, no options or query markers', () => {
    const twin = readSiteFile(distDir, 'docs/guide/features.md');
    expect(twin).toContain("```ts [vite.config.ts]\nconst modules = import.meta.glob('./dir/*.js')\n// @ts-expect-error the sample's own comment\nexport default modules\n```");
    const text = prose(distDir, '/docs/guide/features').replace(/<[^>]+>/g, '');
    expect(text).toContain('vite.config.ts');
    expect(text).toContain("const modules = import.meta.glob('./dir/*.js')");
    expect(text).not.toMatch(/---cut|vite\/client|@noErrors|\^\?|hidden|twoslash/);
    expect(output).toMatch(/twoslash annotations dropped .*: 1$/m);
  });

  it('copies public/ assets linked root-relative, and leaves missing ones as written with one warning', () => {
    expect(prose(distDir, '/docs/guide/features')).toContain('<img src="/assets/public/og-image.png" alt="Cover">');
    expect(prose(distDir, '/docs/blog/announcing-vite')).toContain('src="/assets/public/og-image.png"');
    expect(existsSync(join(distDir, 'site', 'assets', 'public', 'og-image.png'))).toBe(true);
    expect(output).toMatch(/\[content\] links to files that are not in the content folder \(left as written\): 1$/m);
  });
});

describe('a Starlight tree whose MDX imports the theme’s components (shaped like Astro’s docs, content folder `en/`)', () => {
  let distDir = '';
  let output = '';
  beforeAll(async () => {
    const result = await build(join(fixture('starlight'), 'en'));
    ({ distDir, output } = result);
    if (result.code !== 0) throw new Error(`build failed:\n${output.slice(-3000)}`);
  }, 300_000);

  it('reads an MDX page whose imports do not resolve as Markdown: no import lines, components as their text, tabs by their labels', () => {
    expect(output).toMatch(/MDX pages using components this site does not have or writing ids \{#id\}, read as Markdown \(components shown as their text\): 3$/m);
    const html = prose(distDir, '/docs/guides/integrations-guide');
    expect(html).not.toMatch(/@astrojs\/starlight|~\/components|ReadMore|a comment the page hides/);
    expect(html).toContain('<p><strong>pnpm</strong></p>');
    expect(html).toMatch(/<p><strong>pnpm<\/strong><\/p>\s*<div class="code-block"><pre class="code" tabindex="0" data-lang="shell">/);
    expect(html).toContain('<p class="callout-title">Using a custom adapter</p>');
    expect(html).toContain('<div class="code-title">astro.config.mjs</div>');
    const collections = prose(distDir, '/docs/guides/content-collections');
    expect(collections).toContain('<p><strong>JSON</strong>');
    expect(collections).toContain('<li>content.config.ts</li>');
    expect(collections).toContain('<a href="/docs/guides/environment-variables">Environment variables</a>: Read secrets at build time.');
    expect(collections).toMatch(/<strong>Caution<\/strong>\s*Keep your keys out of client code\./);
    const twin = readSiteFile(distDir, 'docs/guides/content-collections.md');
    expect(twin).toContain(`[Environment variables](${fixtureSiteUrl}/docs/guides/environment-variables): Read secrets at build time.`);
    expect(twin).toContain('**Caution**\n\nKeep your keys out of client code.');
  });

  it('warns that a tree naming itself nowhere is presented as this product, and says what to set', () => {
    // Astro colours its log when CI is set
    expect(output.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/\[WARN\] \[agent-docs\] the site is named "Agent Docs" and described as this product: set SITE_NAME/);
  });

  it('resolves links written with the content folder’s name first (`/en/guides/x/`), in HTML and twin', () => {
    expect(prose(distDir, '/docs/guides/integrations-guide')).toContain('<a href="/docs/reference/configuration-reference#integrations">');
    const twin = readSiteFile(distDir, 'docs/guides/integrations-guide.md');
    expect(twin).toContain(`[content collections](${fixtureSiteUrl}/docs/guides/content-collections)`);
  });

  it('gives a twin with its blocks apart and its tabs labelled, even after a one-line component', () => {
    const twin = readSiteFile(distDir, 'docs/guides/integrations-guide.md');
    expect(twin).toContain('few lines of code.\n\n## Automatic integration setup\n\n');
    expect(twin).toContain('**npm**\n\n```shell\nnpx astro add sitemap\n```\n\n**pnpm**');
    expect(twin).toContain('> **Using a custom adapter**');
    expect(twin).not.toMatch(/^import |@astrojs\/starlight/m);
  });

  it('reads an MDX page that gives headings ids the Docusaurus way (`{#build}`) as Markdown, the ids kept as anchors', () => {
    const html = prose(distDir, '/docs/reference/cli-reference');
    expect(html).toContain('<h2 id="build-the-site"><span id="build"></span>Build the site</h2>');
    expect(html).toMatch(/<span id="flags"><\/span>\s*<ul>/);
    expect(html).toContain('<a href="/docs/reference/cli-reference#build">building</a> and <a href="#flags">its flags</a>');
    const twin = readSiteFile(distDir, 'docs/reference/cli-reference.md');
    expect(twin).toContain('## Build the site\n');
    expect(twin).not.toContain('{#');
  });

  it('keeps an MDX page without such imports as MDX: its expressions are evaluated, its links resolved', () => {
    const html = prose(distDir, '/docs/guides/environment-variables');
    expect(html).toContain('start with PUBLIC_.');
    expect(html).toContain('<a href="/docs/reference/configuration-reference#integrations">the configuration</a>');
    expect(html).toContain('<a href="/docs/reference/cli-reference#flags">build flags</a>');
  });
});

describe('a Mintlify tree (components without imports, partials, keys without values)', () => {
  let distDir = '';
  let output = '';
  beforeAll(async () => {
    const result = await build(fixture('mintlify'));
    ({ distDir, output } = result);
    if (result.code !== 0) throw new Error(`build failed:\n${output.slice(-3000)}`);
  }, 300_000);

  it('builds a page whose frontmatter has a key without a value, as if the key were not there', () => {
    expect(readSiteFile(distDir, 'docs/overview/index.md')).toMatch(/^# Quickstart\n\nIndex of every page/);
    expect(output).not.toMatch(/\[WARN\]/);
  });

  it('reads a page using components no import names as Markdown: callouts, tabs and cards by their titles, content indented inside them at the margin', () => {
    expect(output).toMatch(/MDX pages using components this site does not have or writing ids \{#id\}, read as Markdown \(components shown as their text\): 2$/m);
    const html = prose(distDir, '/docs/overview/index');
    expect(html).toContain('<p><strong>Note</strong> Restart your shell after installing.</p>');
    expect(html).toMatch(/<p><strong>Windows<\/strong><\/p>\s*<div class="code-block"><pre class="code" tabindex="0" data-lang="powershell"><code>irm example.com\/install.ps1 \| iex<\/code>/);
    expect(html).toContain('<a href="/docs/cli/publish">Publish a package</a>');
    const twin = readSiteFile(distDir, 'docs/overview/index.md');
    expect(twin).toContain('**Note**\n\nRestart your shell after installing.');
    expect(twin).toContain('**macOS & Linux**\n\n```bash\ncurl -fsSL https://example.com/install | bash\n```');
    expect(twin).toContain('```mdx\nimport Flags from "/snippets/flags.mdx";\n\n<Flags />\n```');
  });

  it('inlines a partial the page imports from the tree (`<Flags />`), its fields by name, type and default, in HTML and twin', () => {
    expect(output).toMatch(/MDX partials inlined: 1$/m);
    // Mintlify's snippets/ holds partials, not pages
    expect(output).toMatch(/and snippets\/, read as partials \(included, not pages\): 1$/m);
    expect(readManifest(distDir).pages.map((p: { path: string }) => p.path).sort()).toEqual(['/docs/cli/install', '/docs/cli/publish', '/docs/overview/index']);
    const html = prose(distDir, '/docs/cli/publish');
    expect(html).toContain('<strong><code>--tag</code></strong> <code>string</code> (default <code>latest</code>)\nSet the tag of the version being published.');
    expect(html).toContain('See <a href="/docs/overview/index">the quickstart</a>');
    const twin = readSiteFile(distDir, 'docs/cli/publish.md');
    expect(twin).toContain('## Flags\n\n**`--tag`** `string` (default `latest`)\n\nSet the tag of the version being published.\n\n**`--dry-run`** `boolean`');
    expect(twin).toContain('**Warning**\n\nA published version cannot be published again.');
    expect(twin).not.toMatch(/^import |<Flags/m);
  });

  it('is named, ordered and its sections titled by its docs.json: as its navigation lists and names them', () => {
    const llms = readSiteFile(distDir, 'llms.txt');
    expect(llms).toMatch(/^# Example CLI\n/);
    // each folder is titled by the outermost tab or group that holds it and nothing else
    expect(llms.indexOf('## Guides\n')).toBeGreaterThan(0);
    expect(llms.indexOf('## Reference\n')).toBeGreaterThan(llms.indexOf('## Guides\n'));
    const paths = readManifest(distDir).pages.map((p: { path: string }) => p.path);
    expect(paths).toEqual(['/docs/overview/index', '/docs/cli/publish', '/docs/cli/install']);
  });

  it('renders a <CodeGroup> as a tab group and titles a fence by its first words, as Mintlify does', () => {
    const html = prose(distDir, '/docs/cli/publish');
    expect(html).toContain(
      '<div class="code-group" data-code-group=""><div class="code-group-tabs" role="tablist">' +
        '<button type="button" role="tab" id="code-group-1-1-tab" aria-selected="true" aria-controls="code-group-1-1">npm</button>' +
        '<button type="button" role="tab" id="code-group-1-2-tab" aria-selected="false" aria-controls="code-group-1-2">Package manager of your own</button></div>',
    );
    expect(html).toContain('<div class="code-title">package.json</div>');
    // the twin keeps each fence's info string as written
    expect(readSiteFile(distDir, 'docs/cli/publish.md')).toContain('```bash npm icon="npm"\nnpm publish\n```');
  });
});

describe('what fails the build', () => {
  function tree(files: Record<string, string>): string {
    const dir = writeTree(files, 'agent-docs-byod-');
    dirs.push(dir);
    return dir;
  }

  it('two files mapping to one URL, naming both', async () => {
    const dir = tree({ 'guide/mocking-classes.md': '# One\n', 'guide/mocking/classes.md': '# Two\n' });
    const { code, output } = await build(dir);
    expect(code).not.toBe(0);
    expect(output).toMatch(/Two files map to \/docs\/guide\/mocking-classes: \S*guide\/mocking[-/]classes\.md and \S*guide\/mocking[-/]classes\.md/);
  }, 300_000);

  it("a link to a page that does not exist or is a draft, with file, line (an MDX file's as written) and target", async () => {
    const dir = tree({
      'guide/index.md': '# Guide\n\nSee [setup](./setup.md#install).\n',
      'guide/other.md': '# Other\n\nLine three.\n\nAnd [home](/guide/).\n\nThe [plan](./plan.md).\n',
      'guide/plan.md': '---\ntitle: Plan\ndraft: true\n---\n\nNot yet.\n',
      // frontmatter, a JSX block and a comment: the Markdown it is reduced to has other line numbers
      'guide/widget.mdx': '---\ntitle: Widget\n---\n\n<div>\n\nSome **text**.\n\n</div>\n\n{/* a note */}\n\nA [gone link](./gone.md) here,\nand [again](./gone.md).\n',
    });
    const { code, output } = await build(dir);
    expect(code).not.toBe(0);
    expect(output).toContain('guide/index.md:3: link to "./setup.md#install": no page of the content folder is there');
    expect(output).toContain('guide/other.md:7: link to "./plan.md": the page there is a draft (draft: true), which is not built');
    expect(output).toContain('guide/widget.mdx:13: link to "./gone.md"');
    expect(output).toContain('guide/widget.mdx:14: link to "./gone.md"');
    expect(output).toContain('LINK_CHECK=warn');
  }, 300_000);

  it('a symbolic link out of the content folder, naming it, before anything is read', async () => {
    const secret = writeTree({ 'token.md': '# Token\n\ntop secret\n' }, 'agent-docs-outside-');
    dirs.push(secret);
    const dir = tree({ 'guide/index.md': '# Guide\n\nHello.\n' });
    symlinkSync(join(secret, 'token.md'), join(dir, 'guide/token.md'));
    const { code, output } = await build(dir);
    expect(code).not.toBe(0);
    expect(output).toContain(`guide/token.md → ${join(secret, 'token.md')}`);
    expect(output).toContain('CONTENT_SYMLINKS=follow');
    expect(output).not.toContain('top secret');
  }, 300_000);

  it('a sections.json that is not JSON, naming the file', async () => {
    const dir = tree({ 'guide/index.md': '# Guide\n', 'sections.json': '["guide",]\n' });
    const { code, output } = await build(dir);
    expect(code).not.toBe(0);
    expect(output).toMatch(/sections\.json is not valid JSON: /);
  }, 300_000);

  it('a _redirects line that is no redirect, with its line; a byte-order mark is not one', async () => {
    const dir = tree({ 'guide/index.md': '# Guide\n', _redirects: '\ufeff/first /guide/\r\n# a comment\r\nold/path /guide/\r\n' });
    const { code, output } = await build(dir);
    expect(code).not.toBe(0);
    expect(output).toMatch(/_redirects:3: "old\/path \/guide\/" is not a redirect/);
    expect(output).not.toContain(':1:');
  }, 300_000);

  it('an old URL with a query or fragment, which no request path can match', async () => {
    const dir = tree({ 'guide/index.md': '# Guide\n', _redirects: '/old#part /guide/\n' });
    const { code, output } = await build(dir);
    expect(code).not.toBe(0);
    expect(output).toMatch(/_redirects: "\/old#part" cannot be redirected: a request's path has no query or fragment/);
  }, 300_000);

  it('an MDX page nested 1,000 levels deep, naming the page instead of crashing the bundler', async () => {
    // with Rust's default 2 MiB thread stack the bundler died of SIGSEGV here (exit 139), naming nothing
    const nested = `${'<div>'.repeat(1000)}deep${'</div>'.repeat(1000)}`;
    const dir = tree({ 'guide/index.md': '# Guide\n\nHello.\n', 'guide/nested.mdx': `---\ntitle: Nested\n---\n\n${nested}\n` });
    const { code, output } = await build(dir);
    expect(code).not.toBe(0);
    expect(code).toBeLessThan(128); // an exit, not a signal
    expect(output).toMatch(/Caught error rendering \/docs\/guide\/nested: RangeError: Maximum call stack size exceeded/);
  }, 300_000);
});

describe('pages nested deeply', () => {
  it('build: an MDX list nested 250 levels and a Markdown one nested 1,500', async () => {
    const list = (depth: number) => Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}- level ${i + 1}`).join('\n');
    const dir = writeTree({ 'guide/index.md': `# Guide\n\n${list(1500)}\n`, 'guide/nested.mdx': `---\ntitle: Nested\n---\n\n${list(250)}\n` }, 'agent-docs-byod-');
    dirs.push(dir);
    const { code, output, distDir } = await build(dir);
    expect(code, output.slice(-2000)).toBe(0);
    expect(prose(distDir, '/docs/guide/nested')).toContain('level 250');
    expect(prose(distDir, '/docs/guide/index')).toContain('level 1500');
  }, 300_000);
});

describe('a page saved on Windows (a byte-order mark, CRLF line ends)', () => {
  it('converts as the same page with LF does: its code group keeps its labels, the twin has no carriage return', async () => {
    const page = ['---', 'title: Windows page', '---', '', '::: code-group', '', '```sh [npm]', 'npm install x', '```', '', '```sh [pnpm]', 'pnpm add x', '```', '', ':::', '', '<<< ./snippet.ts', ''];
    const dir = writeTree({ 'guide/index.md': `\ufeff${page.join('\r\n')}`, 'guide/snippet.ts': 'export const a = 1;\r\n' }, 'agent-docs-byod-');
    dirs.push(dir);
    const { code, output, distDir } = await build(dir);
    expect(code, output.slice(-2000)).toBe(0);
    const twin = readSiteFile(distDir, 'docs/guide/index.md');
    expect(twin).not.toContain('\r');
    expect(twin).toContain('**npm**\n\n```sh\nnpm install x\n```\n\n**pnpm**');
    expect(twin).toContain('```ts\nexport const a = 1;\n```');
    expect(prose(distDir, '/docs/guide/index')).not.toContain('\ufeff');
  }, 300_000);

  it('reads a sections.json saved with a byte-order mark', async () => {
    const dir = writeTree({ 'b/index.md': '# B\n', 'a/index.md': '# A\n', 'sections.json': '\ufeff["b", { "slug": "a", "title": "All about A" }]\r\n' }, 'agent-docs-byod-');
    dirs.push(dir);
    const { code, output, distDir } = await build(dir);
    expect(code, output.slice(-2000)).toBe(0);
    expect(readManifest(distDir).pages.map((p) => p.path)).toEqual(['/docs/b/index', '/docs/a/index']);
    expect(readSiteFile(distDir, 'llms.txt')).toContain('## All about A');
  }, 300_000);
});

describe('setext headings (a line underlined with === or ---)', () => {
  it('title the page and are its headings in the manifest, the twin and the HTML, as ATX ones are', async () => {
    const dir = writeTree({ 'guide/index.md': 'Page Title\n==========\n\nIntro.\n\nInstallation\n------------\n\nRun it, see [missing](./gone.md).\n' }, 'agent-docs-byod-');
    dirs.push(dir);
    const { code, output, distDir } = await build(dir, { LINK_CHECK: 'warn' });
    expect(code, output.slice(-2000)).toBe(0);
    const page = readManifest(distDir).pages.find((p) => p.path === '/docs/guide/index')!;
    expect(page.title).toBe('Page Title');
    expect(page.headings?.map((h) => [h.depth, h.slug])).toEqual([[2, 'installation']]);
    expect(readSiteFile(distDir, 'docs/guide/index.md')).toContain('\n## Installation\n');
    expect(prose(distDir, '/docs/guide/index')).not.toContain('<h1');
    expect(output).toContain('guide/index.md:9: link to "./gone.md"'); // the line as written
  }, 300_000);
});

describe('MkDocs admonitions and content tabs', () => {
  it('are callouts, details boxes and labelled tabs in the page, quotes in the twin, later lines keeping their numbers', async () => {
    const page = ['# Guide', '', '!!! warning "Mind this"', '    Careful **now**.', '', '??? note "More"', '    Hidden.', '', '=== "npm"', '    npm i x', '', '=== "pnpm"', '    pnpm add x', '', 'See [gone](./gone.md).', ''];
    const dir = writeTree({ 'guide/index.md': page.join('\n') }, 'agent-docs-byod-');
    dirs.push(dir);
    const { code, output, distDir } = await build(dir, { LINK_CHECK: 'warn' });
    expect(code, output.slice(-2000)).toBe(0);
    const html = prose(distDir, '/docs/guide/index');
    expect(html).toContain('<div class="callout callout-warning" role="note">\n<p class="callout-title">Mind this</p>\n<p>Careful <strong>now</strong>.</p>');
    expect(html).toContain('<details class="callout callout-details">\n<summary>More</summary>');
    expect(readSiteFile(distDir, 'docs/guide/index.md')).toContain('> **Mind this**\n>\n> Careful **now**.');
    expect(html).toContain('<p><strong>npm</strong></p>\n<p>npm i x</p>\n<p><strong>pnpm</strong></p>');
    expect(output).toContain('guide/index.md:15: link to "./gone.md"');
  }, 300_000);
});

describe('a VitePress home page (its hero and features in frontmatter)', () => {
  it('says what the site is in the HTML and the twin, its body lines keeping their numbers', async () => {
    const home = ['---', 'layout: home', 'title: Tool', 'hero:', '  name: Tool', '  text: Tests that run fast', '  actions:', '    - text: Start', '      link: /guide/', 'features:', '  - title: Fast', '    details: Instant start.', '---', '', 'A [gone](./gone.md) link.', ''];
    const dir = writeTree({ 'index.md': home.join('\n'), 'guide/index.md': '# Guide\n' }, 'agent-docs-byod-');
    dirs.push(dir);
    const { code, output, distDir } = await build(dir, { LINK_CHECK: 'warn' });
    expect(code, output.slice(-2000)).toBe(0);
    // a site with a name of its own (here its home page's, without SITE_NAME) is about its docs: not described as this
    // product, no commands that run this repository
    const site = readSiteFile(distDir, 'index.html');
    expect(site).toContain('Documentation for Tool.');
    expect(site).toContain('For AI agents and tools');
    expect(site).not.toContain('npm start');
    expect(site).not.toContain('Agent Docs');
    expect(readSiteFile(distDir, 'llms.txt')).toMatch(/^# Tool\n\n> Documentation for Tool\.\n/);
    expect(prose(distDir, '/docs/overview/index')).toContain('<p><strong>Tool</strong>: Tests that run fast</p>\n<p><a href="/docs/guide/index">Start</a></p>');
    expect(readSiteFile(distDir, 'docs/overview/index.md')).toContain('- **Fast**: Instant start.');
    expect(output).toContain('index.md:15: link to "./gone.md"');
  }, 300_000);
});

describe('file names with spaces and parentheses', () => {
  it('link to copies whose URLs are percent-encoded, so each stays a link in the page and its twin', async () => {
    const dir = writeTree(
      {
        'guide/index.md': '# Guide\n\n![one](<./img dir/shot (1).png>)\n\n![two](./img%20dir/shot%20(1).png)\n\n<img src="./img dir/shot (1).png" alt="three">\n',
        'guide/img dir/shot (1).png': 'PNG',
      },
      'agent-docs-byod-',
    );
    dirs.push(dir);
    const { code, output, distDir } = await build(dir);
    expect(code, output.slice(-2000)).toBe(0);
    const html = prose(distDir, '/docs/guide/index');
    for (const alt of ['one', 'two', 'three']) expect(html).toContain(`<img src="/assets/guide/img%20dir/shot%20(1).png" alt="${alt}">`);
    const twin = readSiteFile(distDir, 'docs/guide/index.md');
    expect(twin).toContain(`![two](${fixtureSiteUrl}/assets/guide/img%20dir/shot%20(1).png)`);
    expect(existsSync(join(distDir, 'site/assets/guide/img dir/shot (1).png'))).toBe(true);
  }, 300_000);

  it('read a page named like a glob as itself, and a linked folder inside the tree as the tree walk does, .md and .mdx alike', async () => {
    const dir = writeTree(
      {
        'guide/index.md': '# Guide\n',
        // `[1](x)` as a glob matches `a1x.mdx`: the other tool's page must be read as Markdown, its look-alike as MDX
        'guide/a[1](x).mdx': "---\ntitle: Foreign\n---\nimport Tabs from '@theme/Tabs';\n\nForeign words.\n",
        'guide/a1x.mdx': '---\ntitle: Look-alike\n---\n\nMDX words.\n',
        'shared/page.md': '# Shared page\n',
        'shared/other.mdx': '---\ntitle: Shared MDX\n---\n\nShared words.\n',
      },
      'agent-docs-byod-',
    );
    dirs.push(dir);
    // links to folders of the tree: their pages are pages at their own place only, by the tree walk and the MDX glob
    symlinkSync('../shared', join(dir, 'guide/linked'));
    symlinkSync('..', join(dir, 'guide/loop'));
    const { code, output, distDir } = await build(dir);
    expect(code, output.slice(-2000)).toBe(0);
    const paths = readManifest(distDir).pages.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['/docs/guide/a-1-x', '/docs/guide/a1x', '/docs/shared/page', '/docs/shared/other']));
    expect(paths.filter((p) => p.includes('linked') || p.includes('loop'))).toEqual([]);
    expect(readSiteFile(distDir, 'docs/guide/a-1-x.md')).toContain('Foreign words.');
  }, 300_000);
});

describe('a page included by another (VitePress `parts/`)', () => {
  it('re-renders the pages that include it when it changes, from a warm content cache', async () => {
    const dir = writeTree({ 'guide/index.md': '# Guide\n\n<!--@include: ./parts/steps.md-->\n', 'guide/parts/steps.md': '# Steps\n\nStep one.\n' }, 'agent-docs-byod-');
    dirs.push(dir);
    const cache = writeTree({}, 'agent-docs-cache-');
    dirs.push(cache);
    const first = await build(dir, { ASTRO_CACHE_DIR: cache });
    expect(first.code, first.output.slice(-2000)).toBe(0);
    expect(prose(first.distDir, '/docs/guide/index')).toContain('Step one.');
    writeFileSync(join(dir, 'guide/parts/steps.md'), '# Steps\n\nStep two, and more.\n');
    const second = await build(dir, { ASTRO_CACHE_DIR: cache });
    expect(second.code, second.output.slice(-2000)).toBe(0);
    expect(prose(second.distDir, '/docs/guide/index')).toContain('Step two, and more.');
    expect(prose(second.distDir, '/docs/guide/parts-steps')).toContain('Step two, and more.');
  }, 300_000);
});

describe('Markdown twins of the fixture site', () => {
  const distDir = inject('distDir');

  it('point at llms.txt near the top and carry absolute links only', () => {
    const manifest = readManifest(distDir);
    for (const page of manifest.pages) {
      const twin = readSiteFile(distDir, page.md);
      const head = twin.split('\n').slice(0, 6).join('\n');
      expect(head, page.path).toContain(`${fixtureSiteUrl}/llms.txt`);
      // no root-relative or relative Markdown link targets outside code
      const prose = twin.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '');
      expect(prose.match(/\]\((?!https?:|mailto:|#)[^)]+\)/g), page.path).toBeNull();
    }
  });

  it('keep our own layout (content/docs/<section>/<page>.md and the type folders) at the same URLs', () => {
    const paths = readManifest(distDir).pages.map((p) => p.path);
    expect(paths).toContain('/docs/getting-started/writing-content');
    expect(paths).toContain('/docs/skills/search-docs');
    expect(paths).toContain('/docs/fixture/plain-markdown');
  });
});
