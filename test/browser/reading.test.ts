// Real-browser tests of reading a page: highlighted code with a copy button, code
// groups whose choice follows the reader across pages, heading anchors, tables that
// scroll by keyboard or stack on a phone, the page-actions menu, the Ask panel
// streaming from the real gateway, the search dialog (built on its first opening; the gateway's ranking where the
// gateway serves the site, the Pagefind bundle on a static-only host) and axe-core on
// the pages and states a reader meets. Debian chromium driven by playwright-core
// against the fixture build served by the real gateway (and by a plain file host).
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { requireBinary, startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { indexedInParts } from '../helpers/search-parts.ts';
import { startStaticHost } from '../helpers/static-host.ts';

const chromiumPath = '/usr/bin/chromium';
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const writingPage = '/docs/getting-started/writing-content';
const tablePage = '/docs/configuration/environment';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const haveChromium = requireBinary(chromiumPath, 'Debian chromium (apt-get install -y chromium)');

describe.skipIf(!haveChromium)('reading a page in a real browser', () => {
  let browser: Browser;
  let gateway: RunningGateway;
  let base: string;
  let distDir: string;

  beforeAll(async () => {
    distDir = inject('distDir');
    gateway = await startGateway(distDir);
    base = gateway.url;
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
  });

  async function open(viewport = desktop, colorScheme: 'light' | 'dark' = 'light') {
    const context = await browser.newContext({ viewport, colorScheme, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { context, page, errors };
  }

  /** axe-core's violations on the page as it is, one line each. */
  const audit = async (page: Page) => {
    // Evaluated by the test harness, not added as an inline <script>: the pages' CSP rightly refuses those.
    await page.evaluate(axeSource);
    const result = (await page.evaluate(() => (window as unknown as { axe: { run(n: Document, o: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, { resultTypes: ['violations'] }))) as {
      violations: { id: string; nodes: { target: string[] }[] }[];
    };
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };

  /** From the focused search input: down into the results, up back to the input (class `inputClass`), Enter opens the second. */
  async function walkResultsByKeyboard(page: Page, links: Locator, inputClass: string): Promise<void> {
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const second = (await links.nth(1).getAttribute('href'))!;
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(second);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate((name) => document.activeElement?.classList.contains(name), inputClass)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => `${u.pathname}${u.hash}` === second);
  }

  const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
  const statusText = (page: Page) => page.locator('[data-announcer]').textContent();

  it('highlights code at build time and copies it with a keyboard-reachable button', async () => {
    const { context, page, errors } = await open();
    await page.goto(base + writingPage);
    const block = page.locator('.code-block', { has: page.locator('.code-title', { hasText: 'astro.config.mjs' }) });
    // Highlighted: token classes, one highlighted line, a title.
    expect(await block.locator('pre.code .k').count()).toBeGreaterThan(0);
    expect(await block.locator('.line-hl').innerText()).toContain('syntaxHighlight');
    const source = await block.locator('pre').innerText();
    // The copy button is in the tab order right after its block.
    await block.locator('pre').focus();
    await page.keyboard.press('Tab');
    const focused = page.locator(':focus');
    expect(await focused.getAttribute('aria-label')).toBe('Copy code');
    await page.keyboard.press('Enter');
    await expect.poll(() => clipboard(page)).toBe(source.replace(/\n$/, ''));
    await expect.poll(() => statusText(page)).toBe('Copied');
    expect(await block.locator('.code-copy').innerText()).toBe('Copied');
    // The twin keeps the plain fence.
    const twin = await (await fetch(`${base}${writingPage}.md`)).text();
    expect(twin).toContain('```ts title="astro.config.mjs" {3}');
    expect(twin).not.toContain('class="k"');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches code-group tabs with the ARIA keyboard pattern and remembers the choice across pages', async () => {
    const { context, page, errors } = await open();
    await page.goto(base + writingPage);
    const group = page.locator('[data-code-group]').first();
    const tab = (label: string) => group.getByRole('tab', { name: label, exact: true });
    expect(await tab('npm').getAttribute('aria-selected')).toBe('true');
    await tab('npm').focus();
    await page.keyboard.press('ArrowRight');
    expect(await tab('pnpm').getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('pnpm');
    expect(await group.getByRole('tabpanel').innerText()).toContain('pnpm install');
    expect(await tab('npm').getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('End');
    expect(await tab('yarn').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Home');
    await tab('pnpm').click();
    // Another page load: the stored label is selected before the reader does anything.
    await page.reload();
    expect(await tab('pnpm').getAttribute('aria-selected')).toBe('true');
    expect(await group.locator('[role="tabpanel"]:not([hidden])').innerText()).toContain('pnpm install');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows every code-group panel without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(base + writingPage);
    const panels = page.locator('[data-code-group]').first().locator('[role="tabpanel"]');
    expect(await panels.count()).toBe(3);
    for (let i = 0; i < 3; i++) expect(await panels.nth(i).isVisible()).toBe(true);
    await context.close();
  });

  it('gives every h2–h4 an anchor link reachable by keyboard that copies the section URL', async () => {
    const { context, page, errors } = await open();
    await page.goto(base + writingPage);
    const heading = page.locator('.prose h2').first();
    const id = await heading.getAttribute('id');
    const anchor = heading.locator('a.heading-anchor');
    expect(await anchor.getAttribute('href')).toBe(`#${id}`);
    // Reached with Tab from the element before it, visible once focused.
    await page.evaluate((hid) => {
      const h = document.getElementById(hid!)!;
      const marker = document.createElement('button');
      marker.id = 'before-heading';
      h.before(marker);
    }, id);
    await page.locator('#before-heading').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('heading-anchor');
    expect(Number(await anchor.evaluate((a) => getComputedStyle(a).opacity))).toBe(1);
    expect(await anchor.getAttribute('href')).toBe(`#${id}`);
    expect(await anchor.innerText()).toContain('#');
    await page.keyboard.press('Enter');
    await expect.poll(() => clipboard(page)).toBe(`${base}${writingPage}#${id}`);
    expect(new URL(page.url()).hash).toBe(`#${id}`);
    expect(await page.locator('.prose :is(h2, h3, h4)[id]:not(:has(> a.heading-anchor))').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('scrolls a wide table by keyboard inside a labelled region and stacks it on a phone', async () => {
    const { context, page } = await open({ width: 700, height: 800 });
    await page.goto(base + tablePage);
    const region = page.getByRole('region', { name: /^Table under “.+”: Variable, Default/ }).first();
    expect(await region.getAttribute('tabindex')).toBe('0');
    // However wide the screen, a narrow column makes it overflow.
    await region.evaluate((r) => (r.style.maxWidth = '260px'));
    expect(await region.evaluate((r) => r.scrollWidth > r.clientWidth)).toBe(true);
    await region.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((r) => r.scrollLeft)).toBeGreaterThan(0);
    await context.close();

    const small = await open(phone);
    await small.page.goto(base + tablePage);
    const table = small.page.locator('.table-scroll table.stack').first();
    expect(await table.evaluate((t) => getComputedStyle(t).display)).toBe('block');
    // Stacked: no horizontal scrolling needed, each cell names its column.
    expect(await table.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth + 1)).toBe(true);
    expect(await table.locator('td').first().evaluate((td) => getComputedStyle(td, '::before').content)).toMatch(/Variable/);
    await small.context.close();
  });

  it('offers page actions: Markdown links without scripts, copy page as Markdown, ChatGPT, Claude and MCP', async () => {
    const { context, page, errors } = await open();
    await page.goto(base + writingPage);
    const md = `${writingPage}.md`;
    await page.getByText('More actions').click();
    const menu = page.locator('[data-actions-menu]');
    for (const name of ['Open in ChatGPT', 'Open in Claude']) {
      const href = (await menu.getByRole('link', { name }).getAttribute('href'))!;
      expect(decodeURIComponent(href), name).toContain(`https://docs.example.test${md}`);
    }
    expect(decodeURIComponent((await menu.getByRole('link', { name: /VS Code/ }).getAttribute('href'))!)).toContain('"url":"https://docs.example.test/api/mcp"');
    await menu.getByRole('button', { name: 'Copy page as Markdown' }).click();
    const twin = await (await fetch(base + md)).text();
    await expect.poll(() => clipboard(page)).toBe(twin);
    await expect.poll(() => statusText(page)).toBe('Page copied as Markdown');
    await menu.getByRole('button', { name: /claude mcp add/ }).click();
    await expect.poll(() => clipboard(page)).toMatch(/^claude mcp add --transport http \S+ https:\/\/docs\.example\.test\/api\/mcp$/);
    await page.keyboard.press('Escape');
    expect(await menu.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();

    // Without scripts the links are there and the copy buttons (which need one) are not.
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const p = await plain.newPage();
    await p.goto(base + writingPage);
    await p.getByText('More actions').click();
    expect(await p.getByRole('link', { name: 'Open in Claude' }).isVisible()).toBe(true);
    expect(await p.getByRole('button', { name: 'Copy page as Markdown' }).count()).toBe(0);
    await plain.close();
  });

  it('builds the search dialog on its first opening, and shows it even when its stylesheet fails to load', async () => {
    const { context, page, errors } = await open();
    await page.route(/\/_astro\/search\.[\w-]+\.css$/, (route) => route.abort());
    await page.goto(base + writingPage);
    // The page's HTML carries no dialog (it needs a script to be of any use).
    expect(await page.locator('dialog').count()).toBe(0);
    await page.keyboard.press('/');
    const dialog = page.locator('#site__search');
    expect(await page.locator('[data-search-open]').getAttribute('aria-controls')).toBe('site__search');
    await expect.poll(() => dialog.evaluate((d) => getComputedStyle(d).opacity)).toBe('1');
    await page.keyboard.type('nginx', { delay: 20 });
    await dialog.locator('.gateway-search-link').first().waitFor({ timeout: 10_000 });
    expect(await dialog.getByRole('button', { name: 'Ask', exact: true }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('streams a cited answer in the Ask mode of the search dialog, by keyboard', async () => {
    const { context, page, errors } = await open();
    await page.goto(`${base}/docs`);
    await page.keyboard.press('/');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('site__ask-input');
    const streamed = page.waitForResponse((r) => r.url().includes('/ask?') && r.headers()['content-type']?.includes('text/event-stream') === true);
    await page.keyboard.type('How do I deploy behind nginx?');
    await page.keyboard.press('Enter');
    await streamed;
    const output = page.locator('[data-ask-output]');
    await page.waitForFunction(() => document.querySelector('[data-ask-output]')?.getAttribute('aria-busy') === 'false', null, { timeout: 20_000 });
    expect((await output.innerText()).length).toBeGreaterThan(40);
    // [n] markers are links to the cited pages; no markup from the answer is injected.
    const cite = output.locator('a.ask-cite').first();
    const href = (await cite.getAttribute('href'))!;
    expect(href).toMatch(/^\/docs\//);
    expect(await cite.getAttribute('aria-label')).toMatch(/^Source \d+: /);
    expect(await output.locator('script, img, iframe').count()).toBe(0);
    // the status line is written a moment after it is cleared, so that a screen reader announces it again
    await expect.poll(() => page.locator('[data-ask-status]').textContent()).toMatch(/^Answer ready/);
    await cite.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === href.split('#')[0]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("searches with the gateway's ranking where the gateway serves the site: its order, arrow keys and Enter, titled filters", async () => {
    const { context, page, errors } = await open();
    await page.goto(`${base}/docs`);
    const asked = page.waitForRequest((r) => r.url().includes('/api/search?') && new URL(r.url()).searchParams.get('query') === 'nginx');
    await page.getByRole('button', { name: /search/i }).click();
    await page.keyboard.type('nginx', { delay: 20 });
    await asked;
    const dialog = page.locator('#site__search');
    const links = dialog.locator('.gateway-search-link');
    await links.first().waitFor({ timeout: 10_000 });
    expect(await page.locator('.pagefind-ui').count()).toBe(0);
    // The pages in the order the gateway ranks them, one link per page.
    const hits = (await (await fetch(`${base}/api/search?limit=40&query=nginx`)).json()) as { url: string }[];
    const pagesInOrder = [...new Set(hits.map((h) => h.url.split('#')[0]))].slice(0, 10);
    const shown = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!.split('#')[0]));
    expect(shown).toEqual(pagesInOrder);
    expect(await dialog.locator('.gateway-search-message').innerText()).toMatch(/pages? for “nginx”/);
    // Filters read as titles; the section filter keeps that section's pages.
    const section = dialog.getByRole('combobox', { name: 'Section' });
    expect(await section.locator('option').allTextContents()).toEqual(expect.arrayContaining(['All sections', 'Getting started', 'Deploy']));
    expect(await dialog.getByRole('combobox', { name: 'Type' }).locator('option').allTextContents()).toEqual(expect.arrayContaining(['All types', 'Documentation']));
    await section.selectOption('deploy');
    await expect.poll(async () => (await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))).every((h) => h.startsWith('/docs/deploy/'))).toBe(true);
    await section.selectOption('');
    await expect.poll(() => links.count()).toBe(pagesInOrder.length);
    // Keys: down into the results, up back to the input, Enter opens the focused result.
    await dialog.getByRole('searchbox', { name: 'Search the docs' }).focus();
    await walkResultsByKeyboard(page, links, 'gateway-search-input');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps a working search on a static-only host: the Pagefind bundle, keys, titled filters, no one-letter marks', async () => {
    const host = await startStaticHost(join(distDir, 'site'));
    const { context, page, errors } = await open();
    const apiCalls: string[] = [];
    page.on('request', (r) => new URL(r.url()).pathname.startsWith('/api/') && apiCalls.push(new URL(r.url()).pathname));
    try {
      await page.goto(`${host.url}/docs`);
      await page.getByRole('button', { name: /search/i }).click();
      // typed while the engine loads: every letter reaches the engine's input, none is lost in the hand-over
      await page.keyboard.type('deploy', { delay: 20 });
      const dialog = page.locator('#site__search');
      await dialog.locator('.pagefind-ui__result-link').first().waitFor({ timeout: 10_000 });
      expect(await dialog.locator('.pagefind-ui__search-input').inputValue()).toBe('deploy');
      await page.waitForFunction(() => document.querySelectorAll('.pagefind-ui__loading').length === 0);
      // One probe of the gateway (404 here), then the bundle only.
      expect(apiCalls).toEqual(['/api/health']);
      const marks = await dialog.locator('mark').allInnerTexts();
      expect(marks.filter((m) => m.replace(/\W/g, '').length <= 1)).toEqual([]);
      expect(await dialog.getByRole('textbox', { name: 'Search the docs' }).count()).toBe(1);
      // Filter values read as titles, not slugs.
      await expect
        .poll(() => dialog.locator('.pagefind-ui__filter-label').allTextContents(), { timeout: 20_000 })
        .toEqual(expect.arrayContaining([expect.stringMatching(/^Getting started \(\d+\)$/), expect.stringMatching(/^Documentation \(\d+\)$/)]));
      const labels = await dialog.locator('.pagefind-ui__filter-label').allTextContents();
      expect(labels.some((l) => l.startsWith('getting-started'))).toBe(false);
      expect(await audit(page), 'Pagefind search dialog').toEqual([]);

      await dialog.locator('.pagefind-ui__search-input').fill('');
      await dialog.locator('.pagefind-ui__search-input').pressSequentially('nginx', { delay: 20 });
      await page.waitForFunction(() => /result/.test(document.querySelector('.pagefind-ui__message')?.textContent ?? '') && document.querySelectorAll('.pagefind-ui__loading').length === 0);
      const links = dialog.locator('.pagefind-ui__result-link');
      await walkResultsByKeyboard(page, links, 'pagefind-ui__search-input');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await host.stop();
    }
  }, 60_000);

  it('merges the parts of a search index built in parts on a static-only host: a page of the last part is found', async () => {
    const manifest = JSON.parse(readFileSync(join(distDir, 'site/build-manifest.json'), 'utf8')) as { pages: { path: string; title: string }[] };
    const last = manifest.pages[manifest.pages.length - 1]!;
    const parted = await indexedInParts(distDir, 12);
    const host = await startStaticHost(join(parted.distDir, 'site'));
    const { context, page, errors } = await open();
    try {
      await page.goto(`${host.url}/docs`);
      await page.getByRole('button', { name: /search/i }).click();
      await page.keyboard.type(last.title, { delay: 10 });
      const links = page.locator('#site__search .pagefind-ui__result-link');
      await expect.poll(async () => (await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).includes(last.path), { timeout: 10_000 }).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await host.stop();
      rmSync(parted.distDir, { recursive: true, force: true });
    }
  });

  it('has no axe-core violations on the home, a long docs page, the 404 and the assistant site, in both themes, nor with search or the phone menu open', async () => {
    const targets = [`${base}/`, base + tablePage, base + writingPage, `${base}/docs/no/such-page`, `${gateway.assistantUrl}/`];
    for (const scheme of ['light', 'dark'] as const) {
      for (const url of targets) {
        const { context, page } = await open(desktop, scheme);
        await page.goto(url);
        if (url.endsWith('such-page')) await page.locator('[data-search-inline] .gateway-search-link').first().waitFor({ timeout: 10_000 });
        expect(await audit(page), `${scheme} ${url}`).toEqual([]);
        await context.close();
      }
    }
    const { context, page } = await open(desktop, 'dark');
    await page.goto(base + tablePage);
    await page.getByRole('button', { name: /search/i }).click();
    await page.keyboard.type('nginx');
    await page.locator('.gateway-search-link').first().waitFor({ timeout: 10_000 });
    await page.locator('.gateway-search-filter select').first().waitFor();
    expect(await audit(page), 'search dialog').toEqual([]);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    expect(await audit(page), 'ask mode').toEqual([]);
    await context.close();
    const small = await open(phone, 'light');
    await small.page.goto(base + tablePage);
    await small.page.getByRole('button', { name: 'Menu' }).click();
    await small.page.locator('#site__sidebar[data-open]').waitFor();
    await small.page.waitForTimeout(300);
    expect(await audit(small.page), 'phone menu').toEqual([]);
    // Navigation at every width: the home page at 390 px links to the docs.
    await small.page.goto(`${base}/`);
    expect(await small.page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Docs' }).isVisible()).toBe(true);
    await small.context.close();
  }, 180_000);

  it('says when the docs do not cover a question: a marked answer with the closest pages, its own status line', async () => {
    const { context, page, errors } = await open();
    await page.goto(`${base}/docs`);
    await page.keyboard.press('/');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.keyboard.type('How do I bake sourdough bread at home?');
    await page.keyboard.press('Enter');
    const output = page.locator('[data-ask-output]');
    await page.waitForFunction(() => document.querySelector('[data-ask-output]')?.getAttribute('aria-busy') === 'false', null, { timeout: 20_000 });
    expect(await output.getAttribute('data-not-covered')).toBe('');
    expect(await output.innerText()).toMatch(/does not cover this question/);
    expect(await output.evaluate((o) => getComputedStyle(o, '::before').content)).toContain('Not covered');
    expect(await output.locator('a[href*="/docs/"]').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-ask-status]').textContent()).toMatch(/^The docs do not cover this question/);
    // The next, covered question drops the mark.
    await page.locator('#site__ask-input').fill('How do I deploy behind nginx?');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-ask-status]').textContent(), { timeout: 20_000 }).toMatch(/^Answer ready/);
    expect(await output.getAttribute('data-not-covered')).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('colours code for the theme the reader picks, not only the system one', async () => {
    const { context, page, errors } = await open(desktop, 'light');
    await page.goto(base + writingPage);
    const keyword = page.locator('pre.code .k').first();
    const colour = () => keyword.evaluate((k) => getComputedStyle(k).color);
    const background = () => keyword.evaluate((k) => getComputedStyle(k.closest('pre')!).backgroundColor);
    const light = { text: await colour(), pre: await background() };
    await page.getByRole('button', { name: 'Dark theme' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const dark = { text: await colour(), pre: await background() };
    expect(dark.text).not.toBe(light.text);
    expect(dark.pre).not.toBe(light.pre);
    // The same colours as a reader whose system is dark.
    const system = await open(desktop, 'dark');
    await system.page.goto(base + writingPage);
    expect(await system.page.locator('pre.code .k').first().evaluate((k) => getComputedStyle(k).color)).toBe(dark.text);
    await system.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  // Last: it spends this client's /ask budget on the shared gateway.
  it('says so when /ask refuses with 429, instead of a blank answer', async () => {
    const { context, page } = await open();
    await page.goto(`${base}/docs`);
    await page.getByRole('button', { name: /search/i }).click();
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const error = page.locator('[data-ask-output] .ask-error');
    // Spend the window's budget (120 per minute per endpoint) from this client, then ask. The limiter's window is
    // fixed: when it rolls over between the two, the question is answered, and the budget is spent again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const status = await page.evaluate(async () => {
        for (let i = 0; i < 300; i++) {
          const r = await fetch('/ask?query=nginx');
          await r.arrayBuffer();
          if (r.status === 429) return 429;
        }
        return 200;
      });
      expect(status).toBe(429);
      const input = page.locator('#site__ask-input');
      await input.fill('nginx');
      await input.press('Enter');
      const refused = await error.waitFor({ timeout: 10_000 }).then(() => true, () => false);
      if (refused) break;
    }
    expect(await error.innerText()).toMatch(/Too many questions.*Try again in \d+ seconds/);
    await expect.poll(() => page.locator('[data-ask-status]').textContent()).toMatch(/Too many questions/);
    await context.close();
  });
});
