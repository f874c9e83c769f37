// Real-browser test of the docs site for people: Debian chromium driven by
// playwright-core against the fixture build, served by the real gateway on loopback
// (a gateway that does not start fails the test: the product is what is under test).
// Screenshots go to test/artifacts/ (gitignored).
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { requireBinary, startGateway } from '../helpers/gateway.ts';
import { readManifest, type ManifestPage } from '../helpers/manifest.ts';
import { auditContrast } from './contrast.ts';

const chromiumPath = '/usr/bin/chromium';
const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url));
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

// Missing chromium: a loud skip on a laptop, a failure in CI (requireBinary throws there).
const haveChromium = requireBinary(chromiumPath, 'Debian chromium (apt-get install -y chromium)');

describe.skipIf(!haveChromium)('docs site in a real browser', () => {
  let browser: Browser;
  let base: string;
  let stopServer: () => Promise<void>;
  let siteDir: string;
  let pages: ManifestPage[];

  beforeAll(async () => {
    const distDir = inject('distDir');
    siteDir = join(distDir, 'site');
    pages = readManifest(distDir).pages;
    mkdirSync(artifacts, { recursive: true });

    const gw = await startGateway(distDir);
    base = gw.url;
    stopServer = gw.stop;

    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await stopServer?.();
  });

  /** Content-Security-Policy violations reported in the console of every page any test opened (checked last). */
  const cspViolations: string[] = [];

  /** A fresh context (no stored theme) with page errors and CSP violations collected. */
  async function open(viewport: { width: number; height: number }, colorScheme: 'light' | 'dark' = 'light') {
    const context: BrowserContext = await browser.newContext({ viewport, colorScheme });
    // every violation reaches the console, also those Chromium reports only as an event
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline code'}`)),
    );
    const page: Page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(`${page.url()}: ${m.text()}`);
    });
    return { context, page, errors };
  }

  const h1 = (page: Page) => page.locator('main h1').first().innerText();
  const noHorizontalOverflow = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  /** The first section with at least three pages, in reading order. */
  function readingTrail(): [ManifestPage, ManifestPage, ManifestPage] {
    for (let i = 0; i + 2 < pages.length; i++) {
      const [a, b, c] = [pages[i]!, pages[i + 1]!, pages[i + 2]!];
      if (a.section === b.section && b.section === c.section) return [a, b, c];
    }
    throw new Error('the fixture needs a section with three pages');
  }

  /** A word of at least 7 letters that occurs in exactly one page's Markdown twin, and that page. */
  function uniqueWord(): { word: string; page: ManifestPage } {
    const seen = new Map<string, Set<number>>();
    pages.forEach((p, i) => {
      const words = readFileSync(join(siteDir, p.md), 'utf8')
        .replace(/```[\s\S]*?```/g, ' ')
        .toLowerCase()
        .match(/\b[a-z]{7,}\b/g);
      for (const w of words ?? []) (seen.get(w) ?? seen.set(w, new Set()).get(w)!).add(i);
    });
    const preferred = seen.get('zebraquokka'); // planted in the fixture content
    if (preferred?.size === 1) return { word: 'zebraquokka', page: pages[[...preferred][0]!]! };
    const [word, where] = [...seen].filter(([, s]) => s.size === 1).sort(([a], [b]) => a.localeCompare(b))[0]!;
    return { word, page: pages[[...where][0]!]! };
  }

  it('renders a doc page with its agent hooks and landmarks', async () => {
    const { context, page, errors } = await open(desktop);
    const [first] = readingTrail();
    const res = await page.goto(base + first.path);
    expect(res?.status()).toBe(200);
    // served with its Content-Security-Policy (checked for violations at the end)
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(await h1(page)).toBe(first.title);
    expect(await page.locator('link[rel="alternate"][type="text/markdown"]').getAttribute('href')).toBe(`${first.path}.md`);
    expect(await page.getByRole('link', { name: 'View as Markdown' }).getAttribute('href')).toBe(`${first.path}.md`);
    expect(await page.locator('.sr-only', { hasText: '/llms.txt' }).count()).toBeGreaterThan(0);
    for (const landmark of ['header', 'nav#site__sidebar', 'main', 'aside', 'footer']) {
      expect(await page.locator(landmark).count(), landmark).toBeGreaterThan(0);
    }
    expect(await page.locator('#site__sidebar a[aria-current="page"]').getAttribute('href')).toBe(first.path);
    await page.screenshot({ path: join(artifacts, 'desktop-doc-light.png') });
    // The skip link is the first stop of the keyboard, and focus is visible.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    // Only the article is indexed; its headings carry ids for sub-results.
    expect(await page.locator('[data-pagefind-body]').count()).toBe(1);
    expect(await page.locator('article[data-pagefind-body] h1[data-pagefind-meta="title"]').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('navigates with the sidebar and the next link', async () => {
    const { context, page, errors } = await open(desktop);
    const [first, second, third] = readingTrail();
    await page.goto(base + first.path);

    await page.locator(`#site__sidebar a[href="${second.path}"]`).click();
    await page.waitForURL((u) => u.pathname === second.path);
    expect(await h1(page)).toBe(second.title);
    expect(await page.locator('#site__sidebar a[aria-current="page"]').getAttribute('href')).toBe(second.path);

    await page.locator('a[rel="next"]').click();
    await page.waitForURL((u) => u.pathname === third.path);
    expect(await h1(page)).toBe(third.title);

    await page.locator('a[rel="prev"]').click();
    await page.waitForURL((u) => u.pathname === second.path);

    // A section link leads to the section index, which lists the section's pages.
    await page.locator(`#site__sidebar a[href="/docs/${first.section}"]`).first().click();
    await page.waitForURL((u) => u.pathname === `/docs/${first.section}`);
    expect(await page.locator(`main a[href="${first.path}"]`).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('indexes only the article, with type and section filters', async () => {
    const { context, page } = await open(desktop);
    await page.goto(`${base}/docs`);
    // A string, not a function: the test runner would rewrite a function's dynamic import().
    const loadPagefind = `const pagefind = await import('/pagefind/pagefind.js'); await pagefind.options({ baseUrl: '/' });`;
    const filters = (await page.evaluate(`(async () => { ${loadPagefind} return pagefind.filters(); })()`)) as Record<string, Record<string, number>>;
    const count = (key: 'type' | 'section', value: string) => pages.filter((p) => (key === 'type' ? p.type : p.section) === value).length;
    for (const p of pages.slice(0, 5)) {
      expect(filters.section?.[p.section], `section ${p.section}`).toBe(count('section', p.section));
    }
    expect(filters.type?.docs).toBe(count('type', 'docs'));
    // Only the article is indexed: the page chrome (skip link, actions) is not in the text.
    const { word } = uniqueWord();
    const hits = (await page.evaluate(
      `(async () => { ${loadPagefind} const r = await pagefind.search(${JSON.stringify(word)}); return Promise.all(r.results.slice(0, 3).map((x) => x.data())); })()`,
    )) as { url: string; content: string }[];
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) {
      const hitPage = pages.find((p) => p.path === h.url.split('#')[0]);
      // Filter values sit in attributes, so they do not leak into the indexed text.
      if (hitPage) expect(h.content).not.toContain(`${hitPage.type}${hitPage.section}`);
      expect(h.url).toMatch(/^\/docs\/[^/]+\/[^/.#]+/);
      expect(h.content).not.toContain('Skip to content');
      expect(h.content).not.toContain('View as Markdown');
    }
    await context.close();
  });

  it('finds a word of the content with the search box', async () => {
    const { word, page: target } = uniqueWord();
    for (const [name, viewport] of [['desktop', desktop], ['phone', phone]] as const) {
      const { context, page, errors } = await open(viewport);
      await page.goto(`${base}/docs`);
      await page.getByRole('button', { name: /search/i }).click();
      const dialog = page.locator('#site__search');
      expect(await dialog.isVisible()).toBe(true);
      // Typing starts at once, before the search code has loaded (served by the gateway: its ranking).
      await page.keyboard.type(word, { delay: 20 });
      const result = dialog.locator(`.gateway-search-link[href^="${target.path}"]`).first();
      await result.waitFor({ timeout: 10_000 });
      expect(await dialog.getByRole('searchbox', { name: 'Search the docs' }).inputValue()).toBe(word);
      await page.screenshot({ path: join(artifacts, `${name}-search.png`) });
      if (name === 'phone') expect(await noHorizontalOverflow(page)).toBe(true);
      await result.click();
      await page.waitForURL((u) => u.pathname === target.path);
      expect(await h1(page)).toBe(target.title);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('toggles the theme, keeps it across pages, and has no flash', async () => {
    const { context, page } = await open(desktop, 'light');
    const [first, second] = readingTrail();
    await page.goto(base + first.path);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const toggle = page.locator('[data-theme-toggle]');
    const lightBg = await bg();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');

    await toggle.click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const darkBg = await bg();
    expect(darkBg).not.toBe(lightBg);
    await page.screenshot({ path: join(artifacts, 'desktop-doc-dark.png') });

    // The stored choice is applied by the inline head script, before the body renders.
    await page.goto(base + second.path, { waitUntil: 'commit' });
    await page.waitForSelector('body');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.waitForLoadState('load');
    expect(await bg()).toBe(darkBg);

    await page.locator('[data-theme-toggle]').click();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    expect(await bg()).toBe(lightBg);
    await context.close();

    // With no stored choice, the system preference decides.
    const dark = await open(desktop, 'dark');
    await dark.page.goto(base + first.path);
    expect(await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(darkBg);
    expect(await dark.page.locator('[data-theme-toggle]').getAttribute('aria-pressed')).toBe('true');
    await dark.context.close();
  });

  it('fits a phone: no horizontal overflow, the menu button reveals the sidebar', async () => {
    const { context, page, errors } = await open(phone);
    const [first, second] = readingTrail();
    for (const path of ['/', '/docs', `/docs/${first.section}`, first.path]) {
      await page.goto(base + path);
      expect(await noHorizontalOverflow(page), path).toBe(true);
    }
    await page.screenshot({ path: join(artifacts, 'phone-doc.png') });
    await page.screenshot({ path: join(artifacts, 'phone-doc-full.png'), fullPage: true });

    const menu = page.getByRole('button', { name: 'Menu' });
    const sidebar = page.locator('#site__sidebar');
    expect(await sidebar.isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await sidebar.locator(`a[href="${second.path}"]`).waitFor({ state: 'visible' });
    await page.waitForTimeout(300); // let the drawer finish sliding in
    expect(await noHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: join(artifacts, 'phone-menu.png') });

    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    await sidebar.locator(`a[href="${second.path}"]`).click();
    await page.waitForURL((u) => u.pathname === second.path);
    expect(await h1(page)).toBe(second.title);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has a helpful 404 page that searches for the missing page', async () => {
    const { context, page } = await open(phone);
    const [first] = readingTrail();
    // A mistyped address: the page's own slug, cut short.
    const missing = first.path.slice(0, -2);
    const res = await page.goto(base + missing);
    expect(res?.status()).toBe(404);
    expect(await h1(page)).toBe('Page not found');
    for (const href of ['/', '/docs', '/llms.txt']) expect(await page.locator(`main a[href="${href}"]`).count(), href).toBeGreaterThan(0);
    const suggestion = page.locator(`[data-search-inline] .gateway-search-link[href^="${first.path}"]`).first();
    await suggestion.waitFor({ timeout: 10_000 });
    expect(await noHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: join(artifacts, 'phone-404.png') });
    await suggestion.click();
    await page.waitForURL((u) => u.pathname === first.path);
    await context.close();
  });

  it('meets WCAG AA text contrast in both themes', async () => {
    const [first] = readingTrail();
    const { word } = uniqueWord();
    for (const scheme of ['light', 'dark'] as const) {
      for (const viewport of [desktop, phone]) {
        const { context, page } = await open(viewport, scheme);
        for (const path of ['/', '/docs', `/docs/${first.section}`, first.path, '/docs/no/such-page']) {
          await page.goto(base + path);
          // The 404 page searches for the missing path once the search code has loaded (the gateway's ranking
          // here): wait until that search has answered ("N pages for …" / "No results for …").
          if (path === '/docs/no/such-page') {
            await page.waitForFunction(() => /pages? for|no results/i.test(document.querySelector('[data-search-inline] .gateway-search-message')?.textContent ?? ''), null, {
              timeout: 10_000,
            });
          }
          expect(await page.evaluate(auditContrast), `${scheme} ${viewport.width}px ${path}`).toEqual([]);
        }
        // The search dialog with results, and the open menu on a phone.
        await page.getByRole('button', { name: /search/i }).click();
        await page.keyboard.type(word);
        await page.locator('.gateway-search-link').first().waitFor({ timeout: 10_000 });
        expect(await page.evaluate(auditContrast), `${scheme} ${viewport.width}px search`).toEqual([]);
        await context.close();
      }
    }
  }, 120_000); // 20 page loads and audits in two themes at two widths: slow on a busy machine, never timed

  it('saves overview screenshots at desktop and phone width', async () => {
    for (const [name, viewport] of [['desktop', desktop], ['phone', phone]] as const) {
      const { context, page, errors } = await open(viewport);
      await page.goto(`${base}/`);
      await page.screenshot({ path: join(artifacts, `${name}-home.png`), fullPage: true });
      await page.goto(`${base}/docs`);
      await page.screenshot({ path: join(artifacts, `${name}-docs-index.png`), fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    }
    const saved = readdirSync(artifacts).filter((f) => f.endsWith('.png'));
    expect(saved).toEqual(expect.arrayContaining(['desktop-doc-light.png', 'phone-doc.png', 'desktop-search.png', 'phone-menu.png']));
    expect(existsSync(join(artifacts, 'desktop-home.png'))).toBe(true);
  });

  it('runs every page above with no Content-Security-Policy violation in the console', () => {
    expect(cspViolations).toEqual([]);
  });
});
