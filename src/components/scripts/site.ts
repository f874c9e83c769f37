// The site's one client script (an external module shared by every page):
// theme toggle, the phone menu, the search dialog and the on-page TOC highlight.
// The search engine (search.ts) and the dialog's styles (search.css) load when the
// dialog first opens or its button is hovered or focused, never on page load.

import './reading.ts';
import { loadStylesheet } from './stylesheet.ts';
import searchCss from '../../styles/search.css?url';

const root = document.documentElement;

// ── Theme ─────────────────────────────────────────────────────────────────
// The inline script in <head> applies a stored choice before first paint; this
// keeps the toggle's state in sync and persists new choices.
const darkQuery = matchMedia('(prefers-color-scheme: dark)');
const effectiveTheme = (): 'light' | 'dark' =>
  root.dataset.theme === 'light' || root.dataset.theme === 'dark' ? root.dataset.theme : darkQuery.matches ? 'dark' : 'light';
const themeButtons = document.querySelectorAll<HTMLButtonElement>('[data-theme-toggle]');
const syncTheme = () => {
  const dark = effectiveTheme() === 'dark';
  for (const b of themeButtons) b.setAttribute('aria-pressed', String(dark));
};
for (const b of themeButtons) {
  b.addEventListener('click', () => {
    const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
    root.dataset.theme = next;
    try {
      localStorage.setItem('theme', next);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    syncTheme();
  });
}
darkQuery.addEventListener('change', syncTheme);
// A choice made in another tab applies here too.
addEventListener('storage', (e) => {
  if (e.key !== 'theme') return;
  if (e.newValue === 'light' || e.newValue === 'dark') root.dataset.theme = e.newValue;
  else delete root.dataset.theme;
  syncTheme();
});
syncTheme();

// ── Phone menu ────────────────────────────────────────────────────────────
const menuButton = document.querySelector<HTMLButtonElement>('[data-menu-button]');
const sidebar = document.getElementById('site__sidebar');
/** Scrolls the sidebar (only the sidebar) so the current page's link is in view. */
function revealCurrent(): void {
  const link = sidebar?.querySelector<HTMLElement>('[aria-current="page"]');
  if (!sidebar || !link) return;
  const top = link.getBoundingClientRect().top - sidebar.getBoundingClientRect().top + sidebar.scrollTop;
  if (top + link.offsetHeight > sidebar.scrollTop + sidebar.clientHeight || top < sidebar.scrollTop) {
    sidebar.scrollTop = Math.max(0, top - sidebar.clientHeight / 3);
  }
}
const wide = matchMedia('(min-width: 56rem)');
// The drawer (narrow screens) reveals it when opened; measuring a hidden sidebar on load would only force a layout.
if (wide.matches) requestAnimationFrame(revealCurrent);
if (menuButton && sidebar) {
  const setOpen = (open: boolean, restoreFocus = false) => {
    menuButton.setAttribute('aria-expanded', String(open));
    sidebar.toggleAttribute('data-open', open);
    root.classList.toggle('menu-open', open);
    if (open) {
      revealCurrent();
      (sidebar.querySelector<HTMLElement>('[aria-current="page"]') ?? sidebar.querySelector<HTMLElement>('a'))?.focus({ preventScroll: true });
    } else if (restoreFocus) {
      menuButton.focus();
    }
  };
  menuButton.addEventListener('click', () => setOpen(menuButton.getAttribute('aria-expanded') !== 'true'));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && sidebar.hasAttribute('data-open')) setOpen(false, true);
  });
  document.addEventListener('click', (e) => {
    const t = e.target as Node;
    if (sidebar.hasAttribute('data-open') && !sidebar.contains(t) && !menuButton.contains(t)) setOpen(false);
  });
  wide.addEventListener('change', () => setOpen(false));
}

// ── Search ────────────────────────────────────────────────────────────────
// The page's HTML has no dialog: the script builds it on the first opening. At once,
// the part that must be there in the same tap: the dialog and a plain input, so typing
// (and the phone keyboard, which only opens on a focus inside the tap) works while the
// rest loads: the dialog's styles (search.css; it stays transparent until they load),
// its title, modes, close button and Ask form (search-dialog.ts), the engine (search.ts).
const searchButtons = document.querySelectorAll<HTMLButtonElement>('[data-search-open]');
let dialog: HTMLDialogElement | undefined;

function searchDialog(): HTMLDialogElement {
  if (dialog) return dialog;
  const created = (dialog = document.createElement('dialog'));
  created.id = 'site__search';
  created.className = 'search-dialog';
  created.setAttribute('aria-label', 'Search the docs');
  created.innerHTML =
    '<div class="search-panel"><div class="search-target" data-search-target>' +
    '<input type="search" class="search-preinput" data-search-preinput placeholder="Search the docs" aria-label="Search the docs" autocomplete="off"></div></div>';
  // A click on the backdrop (the dialog element itself, outside its panel) closes it.
  created.addEventListener('click', (e) => {
    if (e.target === created) created.close();
  });
  document.body.append(created);
  for (const b of searchButtons) b.setAttribute('aria-controls', created.id);
  return created;
}

const preload = () => {
  void loadStylesheet(searchCss);
  void import('./search-dialog.ts').catch(() => {});
  void import('./search.ts').then((m) => m.preloadSearch()).catch(() => {});
};

async function openSearch(): Promise<void> {
  const opened = searchDialog();
  void loadStylesheet(searchCss).then(() => (opened.dataset.ready = ''));
  if (!opened.open) opened.showModal();
  void import('./search-dialog.ts').then((m) => m.completeDialog(opened));
  if (opened.dataset.mode === 'ask') return void opened.querySelector<HTMLInputElement>('#site__ask-input')?.focus();
  const target = opened.querySelector<HTMLElement>('[data-search-target]')!;
  const preInput = opened.querySelector<HTMLInputElement>('[data-search-preinput]');
  if (preInput && !preInput.hidden) preInput.focus();
  const { mountSearch } = await import('./search.ts');
  const typing = Boolean(preInput && !preInput.hidden);
  const ui = await mountSearch(target, { focus: !typing });
  if (ui && preInput && typing) {
    // In one task, so no keystroke lands between the two inputs: what was typed so far moves to the engine's input,
    // which takes the focus with the caret at the end (the reader may still be typing).
    const focused = document.activeElement === preInput;
    preInput.hidden = true;
    if (preInput.value.trim()) ui.triggerSearch(preInput.value);
    const input = target.querySelector<HTMLInputElement>('.pagefind-ui input, .gateway-search-input');
    if (input && (focused || !opened.contains(document.activeElement))) {
      input.value = preInput.value;
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    }
  }
}

for (const b of searchButtons) {
  b.addEventListener('click', () => void openSearch());
  b.addEventListener('focus', preload, { once: true });
  b.addEventListener('pointerenter', preload, { once: true });
}
if (searchButtons.length) {
  document.addEventListener('keydown', (e) => {
    const t = e.target as HTMLElement;
    const typing = t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName);
    if ((e.key === '/' && !typing && !e.metaKey && !e.ctrlKey && !e.altKey) || (e.key.toLowerCase() === 'k' && (e.metaKey || e.ctrlKey))) {
      e.preventDefault();
      void openSearch();
    }
  });
}

// An inline search box (the 404 page) loads at once and searches for the last
// segment of the missing URL ("/docs/getting-started/instal" → "instal").
const inline = document.querySelector<HTMLElement>('[data-search-inline]');
if (inline) {
  void import('./search.ts').then(async ({ mountSearch }) => {
    const ui = await mountSearch(inline, { focus: false });
    let last = '';
    try {
      last = decodeURIComponent(location.pathname).replace(/\.(html?|md)$/i, '').split('/').filter(Boolean).at(-1) ?? '';
    } catch {
      // a malformed escape: no suggestion
    }
    const words = last.replace(/[-_.]+/g, ' ').trim();
    if (ui && words) ui.triggerSearch(words);
  });
}

// ── On-page TOC: highlight the section being read ─────────────────────────
const tocLinks = [...document.querySelectorAll<HTMLAnchorElement>('[data-toc] a[href^="#"]')];
if (tocLinks.length && 'IntersectionObserver' in window) {
  const byId = new Map(tocLinks.map((a) => [decodeURIComponent(a.hash.slice(1)), a]));
  const headings = [...byId.keys()].map((id) => document.getElementById(id)).filter((h): h is HTMLElement => h !== null);
  const visible = new Set<Element>();
  const mark = () => {
    // The first heading on screen, else the last one scrolled past.
    let current = headings.find((h) => visible.has(h));
    if (!current) current = [...headings].reverse().find((h) => h.getBoundingClientRect().top < 80);
    for (const a of tocLinks) a.classList.toggle('is-active', current !== undefined && a === byId.get(current.id));
  };
  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries) (e.isIntersecting ? visible.add(e.target) : visible.delete(e.target));
      mark();
    },
    { rootMargin: '-64px 0px -40% 0px' },
  );
  for (const h of headings) io.observe(h);
}
