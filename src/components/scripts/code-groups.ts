// Code groups (tabs from Markdown or `::: code-group`): ARIA tabs whose chosen label is
// remembered across pages and tabs. A script of its own, loaded by the pages that have a
// group (components/CodeGroups.astro), so the other pages do not carry it.

const storageKey = 'code-group';
const groups = [...document.querySelectorAll<HTMLElement>('[data-code-group]')];

function tabsOf(group: HTMLElement): HTMLButtonElement[] {
  return [...group.querySelectorAll<HTMLButtonElement>(':scope > [role="tablist"] > [role="tab"]')];
}

function select(group: HTMLElement, tab: HTMLButtonElement): void {
  for (const t of tabsOf(group)) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    const panel = document.getElementById(t.getAttribute('aria-controls') ?? '');
    if (panel) panel.hidden = !on;
  }
}

/** Selects `label` in every group of the page that has it. */
function selectLabel(label: string, except?: HTMLElement): void {
  for (const group of groups) {
    if (group === except) continue;
    const tab = tabsOf(group).find((t) => t.textContent?.trim() === label);
    if (tab) select(group, tab);
  }
}

let stored: string | null = null;
try {
  stored = localStorage.getItem(storageKey);
} catch {
  // storage blocked: choices last for this page
}
for (const group of groups) {
  const tabs = tabsOf(group);
  tabs.forEach((tab, i) => {
    tab.id ||= `${tab.getAttribute('aria-controls')}-tab`;
    document.getElementById(tab.getAttribute('aria-controls') ?? '')?.setAttribute('aria-labelledby', tab.id);
    if (!tab.hasAttribute('tabindex')) tab.tabIndex = tab.getAttribute('aria-selected') === 'true' ? 0 : -1;
    tab.addEventListener('click', () => {
      select(group, tab);
      const label = tab.textContent?.trim() ?? '';
      selectLabel(label, group);
      try {
        localStorage.setItem(storageKey, label);
      } catch {
        // storage blocked
      }
    });
    tab.addEventListener('keydown', (e) => {
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      const next = tabs[(to + tabs.length) % tabs.length]!;
      next.focus();
      next.click();
    });
  });
  for (const panel of group.querySelectorAll<HTMLElement>(':scope > [role="tabpanel"]')) panel.tabIndex = -1;
}
if (stored) selectLabel(stored);
addEventListener('storage', (e) => {
  if (e.key === storageKey && e.newValue) selectLabel(e.newValue);
});

