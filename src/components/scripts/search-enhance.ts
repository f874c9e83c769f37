// What the site adds to the Pagefind UI: the search input's accessible name, filter
// values shown with their titles ("Getting started", not `getting-started`; the
// index keeps the slugs the gateway reads), no highlight on one-letter matches (a
// typo such as "depoly" would otherwise mark `-D` and `-d` in shell snippets), and
// the arrow keys moving between the input and the results (Enter opens one).

interface PagefindResult {
  excerpt?: string;
  sub_results?: { excerpt?: string }[];
}

const shortMark = /<mark>(\W{0,2}\w)<\/mark>/g;

/** Pagefind's processResult hook: unmarks matches of one letter or digit. */
export function processResult<T extends PagefindResult>(result: T): T {
  if (result.excerpt) result.excerpt = result.excerpt.replace(shortMark, '$1');
  for (const sub of result.sub_results ?? []) if (sub.excerpt) sub.excerpt = sub.excerpt.replace(shortMark, '$1');
  return result;
}

export type Labels = Record<string, Record<string, string>>;
let labels: Promise<Labels> | undefined;

/** Filter titles by filter name and value (/search-labels.json: section and type). */
export function loadLabels(): Promise<Labels> {
  labels ??= fetch('/search-labels.json')
    .then((r) => (r.ok ? (r.json() as Promise<Labels>) : {}))
    .catch(() => ({}));
  return labels;
}

function relabel(root: HTMLElement, map: Labels): void {
  for (const label of root.querySelectorAll<HTMLLabelElement>('.pagefind-ui__filter-label')) {
    const input = label.ownerDocument.getElementById(label.htmlFor) as HTMLInputElement | null;
    const title = input && map[input.name]?.[input.value];
    const text = label.firstChild;
    if (!title || text?.nodeType !== Node.TEXT_NODE) continue;
    const count = /\s\(\d+\)$/.exec(text.nodeValue ?? '')?.[0] ?? '';
    if (text.nodeValue !== `${title}${count}`) text.nodeValue = `${title}${count}`;
  }
}

/** Wires the mounted Pagefind UI in `target`. */
export function enhanceSearch(target: HTMLElement): void {
  const input = target.querySelector<HTMLInputElement>('.pagefind-ui__search-input');
  input?.setAttribute('aria-label', 'Search the docs');
  void loadLabels().then((map) => {
    relabel(target, map);
    new MutationObserver(() => relabel(target, map)).observe(target, { childList: true, subtree: true, characterData: true });
  });
  if (input) resultKeys(target, input, '.pagefind-ui__result-link');
}

/**
 * The arrow keys move from `input` through the result links (`linkSelector`) inside `target` and back;
 * Enter in the input opens the first result, on a result the link itself does it.
 */
export function resultKeys(target: HTMLElement, input: HTMLInputElement, linkSelector: string): void {
  target.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Enter') return;
    const links = [...target.querySelectorAll<HTMLAnchorElement>(linkSelector)];
    const active = target.ownerDocument.activeElement;
    const at = links.indexOf(active as HTMLAnchorElement);
    const inInput = active === input;
    if (e.key === 'Enter') {
      if (inInput && links[0]) {
        e.preventDefault();
        links[0].click();
      }
      return;
    }
    if (!inInput && at < 0) return;
    e.preventDefault();
    const next = e.key === 'ArrowDown' ? (inInput ? 0 : Math.min(at + 1, links.length - 1)) : at - 1;
    if (next < 0) input.focus();
    else links[next]?.focus();
    if (next >= 0) links[next]?.scrollIntoView({ block: 'nearest' });
  });
}
