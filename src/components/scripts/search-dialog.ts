// The search dialog's controls, added around the plain input that site.ts opens it with
// (the page's HTML carries no dialog: it is no use without a script): the title, the
// Search / Ask mode pair, the close button and the Ask form. Loaded with the search code
// when the dialog first opens. Ask sends the question to the gateway's /ask (ask.ts,
// loaded on the first question) and streams a cited answer; switching modes moves focus
// to the mode's input. The chosen mode is on the dialog as data-mode.

const closeIcon = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6 6 18"/></svg>';
const head =
  '<div class="search-panel-head"><h2 id="site__search-title" class="search-title">Search the docs</h2>' +
  '<div class="search-modes" role="group" aria-label="Mode"><button type="button" aria-pressed="true" data-dialog-mode="search">Search</button>' +
  '<button type="button" aria-pressed="false" data-dialog-mode="ask">Ask</button></div>' +
  `<button type="button" class="icon-button" data-search-close>${closeIcon}<span class="sr-only">Close search</span></button></div>`;
const askForm =
  '<form class="ask-panel" data-ask-form hidden><label class="ask-label" for="site__ask-input">Ask a question about the docs. The answer is written from the pages it cites.</label>' +
  '<div class="ask-row"><input id="site__ask-input" name="query" type="text" required maxlength="500" autocomplete="off" placeholder="How do I deploy behind nginx?"><button type="submit">Ask</button></div>' +
  '<p class="sr-only" role="status" data-ask-status></p><div class="ask-answer" data-ask-output aria-label="Answer" role="region" tabindex="-1"></div></form>';

type DialogMode = 'search' | 'ask';

/** Adds the title, modes, close button and Ask form to `dialog` (once). */
export function completeDialog(dialog: HTMLDialogElement): void {
  const panel = dialog.querySelector<HTMLElement>('.search-panel');
  const searchTarget = dialog.querySelector<HTMLElement>('[data-search-target]');
  if (!panel || !searchTarget || dialog.querySelector('[data-ask-form]')) return;
  panel.insertAdjacentHTML('afterbegin', head);
  panel.insertAdjacentHTML('beforeend', askForm);
  dialog.removeAttribute('aria-label');
  dialog.setAttribute('aria-labelledby', 'site__search-title');
  const form = panel.querySelector<HTMLFormElement>('[data-ask-form]')!;
  const title = panel.querySelector<HTMLElement>('#site__search-title')!;
  const modeButtons = [...panel.querySelectorAll<HTMLButtonElement>('[data-dialog-mode]')];
  panel.querySelector('[data-search-close]')!.addEventListener('click', () => dialog.close());

  const setMode = (mode: DialogMode) => {
    dialog.dataset.mode = mode;
    form.hidden = mode !== 'ask';
    searchTarget.hidden = mode === 'ask';
    for (const b of modeButtons) b.setAttribute('aria-pressed', String(b.dataset.dialogMode === mode));
    title.textContent = mode === 'ask' ? 'Ask the docs' : 'Search the docs';
    const input = mode === 'ask' ? form.querySelector<HTMLInputElement>('input') : searchTarget.querySelector<HTMLInputElement>('input:not([hidden])');
    input?.focus();
  };
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
