// The search dialog's two modes: Search (the Pagefind UI) and Ask (a question to the
// gateway's /ask, see ask.ts, loaded on the first question). The mode buttons are a
// toggle pair; switching moves focus to the mode's input.

const dialog = document.getElementById('search-dialog') as HTMLDialogElement | null;
const form = dialog?.querySelector<HTMLFormElement>('[data-ask-form]');
const searchTarget = dialog?.querySelector<HTMLElement>('[data-search-target]');
const title = dialog?.querySelector<HTMLElement>('#search-dialog-title');
const modeButtons = [...(dialog?.querySelectorAll<HTMLButtonElement>('[data-dialog-mode]') ?? [])];

export type DialogMode = 'search' | 'ask';

export function currentMode(): DialogMode {
  return form && !form.hidden ? 'ask' : 'search';
}

/** Shows `mode` and focuses its input. */
export function setMode(mode: DialogMode): void {
  if (!form || !searchTarget) return;
  form.hidden = mode !== 'ask';
  searchTarget.hidden = mode === 'ask';
  for (const b of modeButtons) b.setAttribute('aria-pressed', String(b.dataset.dialogMode === mode));
  if (title) title.textContent = mode === 'ask' ? 'Ask the docs' : 'Search the docs';
  const input = mode === 'ask' ? form.querySelector<HTMLInputElement>('input') : searchTarget.querySelector<HTMLInputElement>('input:not([hidden])');
  input?.focus();
}

if (dialog && form) {
  for (const b of modeButtons) b.addEventListener('click', () => setMode(b.dataset.dialogMode === 'ask' ? 'ask' : 'search'));
  const output = form.querySelector<HTMLElement>('[data-ask-output]')!;
  const statusLine = form.querySelector<HTMLElement>('[data-ask-status]')!;
  const status = (message: string) => {
    statusLine.textContent = '';
    setTimeout(() => (statusLine.textContent = message), 30);
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const query = new FormData(form).get('query')?.toString().trim() ?? '';
    if (!query) return;
    void import('./ask.ts')
      .then(({ ask }) => ask(query, { output, status }))
      .catch(() => status('The Ask feature could not load. Check the connection and try again.'));
  });
}
