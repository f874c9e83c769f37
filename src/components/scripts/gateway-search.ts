// The search dialog's results from the gateway's ranking (/api/search) when the site is
// served with its gateway: on the judged Vitest set it ranks the right page higher than
// the Pagefind bundle on questions, typos and titles alike (numbers on the "Reading
// experience" docs page). A static-only host has no /api: there the dialog keeps the
// Pagefind UI (search.ts decides, once per page, with a probe of /api/health).
// Results are built as DOM nodes from the JSON (text only, same-site links), grouped by
// page in the gateway's order; the type filter is the API's `tag`, the section filter
// is applied here on the page paths. Keys as in the Pagefind UI (search-enhance.ts).
import { loadLabels, resultKeys, type Labels } from './search-enhance.ts';

interface Hit {
  url: string;
  title?: string;
  content?: string;
}

export interface SearchUI {
  triggerSearch(term: string): void;
}

const pagesShown = 10;
const hitsAsked = 40;

/** Whether a gateway answers on this origin (a JSON health answer; a static host has none). */
export async function gatewayAvailable(): Promise<boolean> {
  try {
    const res = await fetch('/api/health', { headers: { accept: 'application/json' } });
    await res.body?.cancel();
    return res.ok && (res.headers.get('content-type') ?? '').includes('json');
  } catch {
    return false;
  }
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function filterSelect(name: string, label: string, all: string, options: Record<string, string>): HTMLLabelElement {
  const select = element('select', { name });
  select.append(element('option', { value: '' }, all), ...Object.entries(options).map(([value, title]) => element('option', { value }, title)));
  return element('label', { className: 'gateway-search-filter' }, `${label} `, select);
}

/** The query's words marked in `text` (words of two letters or more; text nodes only). */
function marked(text: string, query: string): Node[] {
  const words = query.toLowerCase().split(/\W+/).filter((w) => w.length > 1);
  if (!words.length) return [document.createTextNode(text)];
  const re = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi');
  return text.split(re).map((part, i) => (i % 2 ? element('mark', {}, part) : document.createTextNode(part)));
}

/** Mounts the gateway-backed search in `target` and focuses its input when asked. */
export function mountGatewaySearch(target: HTMLElement, onUnavailable: () => void): SearchUI {
  const input = element('input', { type: 'search', className: 'search-preinput gateway-search-input', placeholder: 'Search the docs', autocomplete: 'off' });
  input.setAttribute('aria-label', 'Search the docs');
  const filters = element('div', { className: 'gateway-search-filters' });
  const message = element('p', { className: 'gateway-search-message' });
  message.setAttribute('role', 'status');
  const list = element('ol', { className: 'gateway-search-results' });
  target.replaceChildren(element('div', { className: 'gateway-search' }, input, filters, message, list));
  resultKeys(target, input, '.gateway-search-link');

  let labels: Labels = {};
  void loadLabels().then((map) => {
    labels = map;
    filters.append(filterSelect('type', 'Type', 'All types', map.type ?? {}), filterSelect('section', 'Section', 'All sections', map.section ?? {}));
  });
  const filterValue = (name: string) => filters.querySelector<HTMLSelectElement>(`select[name="${name}"]`)?.value ?? '';

  let running: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function run(query: string): Promise<void> {
    running?.abort();
    if (!query) {
      list.replaceChildren();
      message.textContent = '';
      return;
    }
    const controller = (running = new AbortController());
    const params = new URLSearchParams({ query, limit: String(hitsAsked) });
    if (filterValue('type')) params.set('tag', filterValue('type'));
    let res: Response;
    let hits: Hit[];
    try {
      res = await fetch(`/api/search?${params}`, { signal: controller.signal, headers: { accept: 'application/json' } });
      if (res.status === 429) {
        const wait = res.headers.get('retry-after');
        message.textContent = `Too many searches from your address. Try again in ${/^\d+$/.test(wait ?? '') ? `${wait} seconds` : 'a moment'}.`;
        return;
      }
      if (!res.ok) throw new Error(`status ${res.status}`);
      hits = (await res.json()) as Hit[];
    } catch {
      if (controller.signal.aborted) return;
      onUnavailable(); // the gateway went away: the Pagefind bundle takes over
      return;
    }
    if (controller.signal.aborted) return;
    const section = filterValue('section');
    const pages = new Map<string, Hit>();
    for (const hit of hits) {
      const path = hit.url.split('#')[0]!;
      if (section && path.split('/')[2] !== section) continue;
      if (!pages.has(path)) pages.set(path, hit);
      if (pages.size === pagesShown) break;
    }
    list.replaceChildren(
      ...[...pages].map(([path, hit]) => {
        const sectionTitle = labels.section?.[path.split('/')[2] ?? ''];
        const link = element('a', { className: 'gateway-search-link', href: hit.url.startsWith('/') ? hit.url : path }, hit.title ?? path);
        const item = element('li', {}, link);
        if (sectionTitle) item.append(element('span', { className: 'gateway-search-section' }, sectionTitle));
        if (hit.content) item.append(element('p', { className: 'gateway-search-excerpt' }, ...marked(hit.content.slice(0, 220), query)));
        return item;
      }),
    );
    message.textContent = pages.size ? `${pages.size} ${pages.size === 1 ? 'page' : 'pages'} for “${query}”` : `No results for “${query}”`;
  }

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(input.value.trim()), 120);
  };
  input.addEventListener('input', schedule);
  filters.addEventListener('change', () => void run(input.value.trim()));
  return {
    triggerSearch(term: string) {
      input.value = term;
      void run(term.trim());
    },
  };
}
