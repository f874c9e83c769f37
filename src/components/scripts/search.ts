// Lazy loader for the Pagefind UI (the bundle the build writes to /pagefind/).
// Loaded only when a person opens search (or on the 404 page), so pages stay light.

import { enhanceSearch, processResult } from './search-enhance.ts';
import { loadStylesheet } from './stylesheet.ts';
import siteSearchCss from '../../styles/search.css?url';

interface PagefindUIInstance {
  triggerSearch(term: string): void;
}
type PagefindUIConstructor = new (options: Record<string, unknown>) => PagefindUIInstance;

const bundlePath = '/pagefind/';
let loading: Promise<PagefindUIConstructor> | undefined;
const mounted = new WeakMap<HTMLElement, PagefindUIInstance>();

/** Loads pagefind-ui.css, the site's search.css and pagefind-ui.js once. */
export function loadPagefindUI(): Promise<PagefindUIConstructor> {
  loading ??= new Promise<PagefindUIConstructor>((resolve, reject) => {
    // pagefind-ui.css before the site's stylesheets, search.css (its colours) after all: the site's rules win.
    void loadStylesheet(`${bundlePath}pagefind-ui.css`, document.head.querySelector('link[rel="stylesheet"]'));
    void loadStylesheet(siteSearchCss);
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

/** Mounts the Pagefind UI in `target` (once) and focuses its input. */
export async function mountSearch(target: HTMLElement, { focus = true } = {}): Promise<PagefindUIInstance | undefined> {
  let ui = mounted.get(target);
  if (!ui) {
    target.setAttribute('aria-busy', 'true');
    try {
      const PagefindUI = await loadPagefindUI();
      if (!(ui = mounted.get(target))) {
        ui = new PagefindUI({
          element: target,
          bundlePath,
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
  // The UI renders its input on the next frame.
  for (let i = 0; i < 20; i++) {
    const input = target.querySelector<HTMLInputElement>('.pagefind-ui input');
    if (input) {
      if (!target.dataset.enhanced) {
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
