// The weight budget of a documentation page (issue 19: ≤ 60 KB before search). What a
// page's own article weighs is the writer's; what the site adds around it is ours and has
// a ceiling: the shared stylesheet and script, the header, navigation, footer and, on the
// pages that have callouts or tabs, their rules and script, together stay under 40 KB, so
// any article up to 20 KB of HTML makes a page of at most 60 KB. The search dialog, the
// search and Ask code never load with the page.
// Sizes are bytes on disk, a rule rather than a measurement; `npm run weight` reports
// the whole distribution.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureDocsPages, referencedAssets } from '../../scripts/lib/page-weight.ts';
import { fixtureBuild, readSiteFile } from '../helpers/manifest.ts';

const { distDir, manifest } = fixtureBuild();
const siteDir = join(distDir, 'site');
const aroundArticleBudget = 40 * 1024;

/** Bytes of the page's own content: its article and its "On this page" list (both grow with the page). */
function ownContent(html: string): number {
  const slice = (open: string, close: string) => {
    const start = html.indexOf(open);
    return start < 0 ? 0 : html.indexOf(close, start) + close.length - start;
  };
  return slice('<article', '</article>') + slice('<aside class="toc"', '</aside>');
}

describe('page weight', () => {
  const pages = measureDocsPages(siteDir).filter((p) => manifest.pages.some((m) => m.path === p.path));

  it('measures every documentation page of the fixture', () => {
    expect(pages.length).toBe(manifest.pages.filter((p) => p.path.startsWith('/docs/')).length);
  });

  it('keeps what the site adds around an article under its budget on every docs page', () => {
    const over = pages
      .map((p) => ({ path: p.path, around: p.bytes - ownContent(readSiteFile(distDir, `${p.path.slice(1)}.html`)) }))
      .filter((p) => p.around > aroundArticleBudget);
    expect(over).toEqual([]);
  });

  it('loads no search or Ask code, and no Pagefind file, before the reader searches', () => {
    const page = pages.at(-1)!;
    const loaded = page.assets.map((a) => a.path);
    expect(loaded.some((p) => p.endsWith('.css'))).toBe(true);
    expect(loaded.some((p) => p.endsWith('.js'))).toBe(true);
    expect(loaded.filter((p) => /\/(search|search-dialog|ask|stylesheet)\.[\w-]+\.(js|css)$|pagefind/.test(p))).toEqual([]);
  });

  it('links the callouts-and-tabs stylesheet and the tabs script only on pages that have such blocks', () => {
    const htmls = pages.map((p) => readSiteFile(distDir, `${p.path.slice(1)}.html`));
    const article = (h: string) => h.slice(h.indexOf('<article'), h.indexOf('</article>'));
    const withGroups = htmls.filter((h) => article(h).includes('data-code-group'));
    const plain = htmls.filter((h) => !/data-code-group|class="(?:callout|badge)\b/.test(article(h)));
    expect(withGroups.length).toBeGreaterThan(0);
    expect(plain.length).toBeGreaterThan(0);
    const blocksCss = (h: string) => referencedAssets(h).some((a) => /\/blocks\.[\w-]+\.css$/.test(a));
    // Astro inlines a script this small, or links it as CodeGroups.*.js.
    const tabsScript = (h: string) => /<script type="module">[^<]*\[data-code-group\]/.test(h) || referencedAssets(h).some((a) => a.includes('CodeGroups'));
    for (const h of withGroups) expect([blocksCss(h), tabsScript(h)]).toEqual([true, true]);
    for (const h of plain) expect([blocksCss(h), tabsScript(h)]).toEqual([false, false]);
  });

  it('colours code with token classes from the one stylesheet, never inline styles', () => {
    const html = readSiteFile(distDir, 'docs/getting-started/writing-content.html');
    expect(html).toContain('<span class="k">');
    expect(html).not.toMatch(/<span style=/);
    expect(referencedAssets(html).filter((a) => a.endsWith('.css')).length).toBeLessThanOrEqual(2);
  });
});
