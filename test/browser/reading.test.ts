// Real-browser tests of reading a page: highlighted code with a copy button, code
// groups whose choice follows the reader across pages, heading anchors, tables that
// scroll by keyboard or stack on a phone, the page-actions menu, the Ask panel
// streaming from the real gateway, the search dialog's keyboard, and axe-core on the
// pages and states a reader meets. Debian chromium driven by playwright-core
// against the fixture build served by the real gateway.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { requireBinary, startGateway, type RunningGateway } from '../helpers/gateway.ts';

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

  const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
  const statusText = (page: Page) => page.locator('[role="status"]').last().textContent();

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
    const region = page.getByRole('region', { name: /^Table: Variable/ }).first();
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
});
