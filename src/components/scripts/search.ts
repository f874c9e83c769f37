// The search box's engine, loaded when a person opens search (or on the 404 page), so
// pages stay light: the gateway's ranking (gateway-search.ts) where the site is served
// with its gateway, else the Pagefind UI over the bundle the build writes to /pagefind/.

import { enhanceSearch, processResult } from './search-enhance.ts';
import { loadStylesheet } from './stylesheet.ts';
import siteSearchCss from '../../styles/search.css?url';
import { gatewayAvailable, mountGatewaySearch, type SearchUI } from './gateway-search.ts';

type PagefindUIConstructor = new (options: Record<string, unknown>) => SearchUI;

const bundlePath = '/pagefind/';
let loading: Promise<PagefindUIConstructor> | undefined;
let partsLoading: Promise<string[]> | undefined;
const mounted = new WeakMap<HTMLElement, SearchUI>();
let engine: Promise<'gateway' | 'pagefind'> | undefined;

/** Loads pagefind-ui.css and pagefind-ui.js once. */
export function loadPagefindUI(): Promise<PagefindUIConstructor> {
  void bundleParts(); // fetched meanwhile: the UI is constructed with them
  loading ??= new Promise<PagefindUIConstructor>((resolve, reject) => {
    // Before the site's stylesheets (search.css is appended after all of them): the site's rules win.
    void loadStylesheet(`${bundlePath}pagefind-ui.css`, document.head.querySelector('link[rel="stylesheet"]'));
    const script = document.createElement('script');
    script.src = `${bundlePath}pagefind-ui.js`;
    script.onload = () => {
      const ctor = (window as unknown as { PagefindUI?: PagefindUIConstructor }).PagefindUI;
      if (ctor) resolve(ctor);
      else reject(new Error('pagefind-ui.js loaded but defined no PagefindUI'));
    };
    script.onerror = () => reject(new Error(`could not load ${script.src}`));
    document.head.append(script);
  });
  loading.catch(() => {
    loading = undefined; // let a later attempt retry
  });
  return loading;
}

/**
 * The bundle's parts (`parts.json`, written by the build: a site of more pages than SEARCH_INDEX_PART_PAGES is indexed
 * in parts), merged into the search; none when the file is missing or unreadable (a build from before parts).
 */
function bundleParts(): Promise<string[]> {
  partsLoading ??= fetchParts();
  return partsLoading;
}

async function fetchParts(): Promise<string[]> {
  try {
    const res = await fetch(`${bundlePath}parts.json`);
    const parts = res.ok ? ((await res.json()) as { parts?: unknown }).parts : undefined;
    return Array.isArray(parts) ? parts.filter((part): part is string => typeof part === 'string' && /^part-\d+$/.test(part)) : [];
  } catch {
    return [];
  }
}

/**
 * Why the bundle did not load, from its status (a script's error event does not tell): only a 404 means the index
 * was not built; a 429 (too many requests from this address), a 5xx or a network failure pass, so retry.
 */
async function unavailableReason(): Promise<string> {
  let status = 0;
  let wait = '';
  try {
    const res = await fetch(`${bundlePath}pagefind-ui.js`, { method: 'HEAD', cache: 'no-store' });
    status = res.status;
    wait = res.headers.get('retry-after') ?? '';
  } catch {
    // offline or the server is unreachable: a retry may work
  }
  if (status === 404) return 'Search is not available on this site (the search index has not been built).';
  const when = /^\d+$/.test(wait) ? `in ${wait} s` : 'in a moment';
  return `Search could not load right now${status === 429 ? ' (too many requests from your address)' : ''}. Please try again ${when}.`;
}

/** Which engine the search box uses on this page: decided once, with one probe of the gateway. */
function searchEngine(): Promise<'gateway' | 'pagefind'> {
  engine ??= gatewayAvailable().then((yes) => (yes ? 'gateway' : 'pagefind'));
  return engine;
}

/** Fetches what opening search will need (on a hover or focus of the search button). */
export async function preloadSearch(): Promise<void> {
  void loadStylesheet(siteSearchCss);
  if ((await searchEngine()) === 'pagefind') await loadPagefindUI();
}

/** Mounts the search in `target` (once): the gateway's when it answers, else the Pagefind UI; focuses its input. */
export async function mountSearch(target: HTMLElement, { focus = true } = {}): Promise<SearchUI | undefined> {
  void loadStylesheet(siteSearchCss);
  if (!mounted.has(target) && (await searchEngine()) === 'gateway') {
    mounted.set(target, mountGatewaySearch(target, () => {
      // The gateway stopped answering: the bundle takes over for the rest of the page's life.
      engine = Promise.resolve('pagefind');
      const query = target.querySelector('input')?.value ?? '';
      mounted.delete(target);
      target.replaceChildren();
      void mountSearch(target, { focus: true }).then((ui) => query && ui?.triggerSearch(query));
    }));
  }
  let ui = mounted.get(target);
  if (!ui) {
    target.setAttribute('aria-busy', 'true');
    try {
      const PagefindUI = await loadPagefindUI();
      if (!(ui = mounted.get(target))) {
        const parts = await bundleParts();
        ui = new PagefindUI({
          element: target,
          bundlePath,
          mergeIndex: parts.map((part) => ({ bundlePath: `${bundlePath}${part}/` })),
          showSubResults: true,
          showImages: false,
          excerptLength: 24,
          resetStyles: true,
          translations: { placeholder: 'Search the docs' },
          processResult,
        });
        mounted.set(target, ui);
      }
    } catch {
      target.innerHTML =
        `<p class="search-unavailable">${await unavailableReason()} ` +
        'Meanwhile, browse <a href="/docs">all sections</a> or read <a href="/llms.txt">/llms.txt</a>.</p>';
      return undefined;
    } finally {
      target.removeAttribute('aria-busy');
    }
  }
  // The Pagefind UI renders its input on the next frame.
  for (let i = 0; i < 20; i++) {
    const input = target.querySelector<HTMLInputElement>('.pagefind-ui input, .gateway-search-input');
    if (input) {
      if (!target.dataset.enhanced && input.matches('.pagefind-ui input')) {
        target.dataset.enhanced = 'true';
        enhanceSearch(target);
      }
      if (focus) {
        input.focus();
        input.select();
      }
      break;
    }
    await new Promise((r) => requestAnimationFrame(r));
  }
  return ui;
}
