// Reading aids that need a script, added to the HTML the build wrote: copy buttons
// on code blocks, heading anchor links, column labels for tables stacked on a phone,
// and the copy actions of the page-actions menu. Code-group tabs have a script of
// their own (code-groups.ts), loaded only by the pages that have one.
// Every result is announced through one polite live region.

let announcer: HTMLElement | undefined;

/** Says `message` to screen readers (once; repeated messages are re-announced). */
export function announce(message: string): void {
  if (!announcer) {
    announcer = document.createElement('div');
    announcer.className = 'sr-only';
    announcer.setAttribute('role', 'status');
    announcer.dataset.announcer = '';
    // Inside a landmark: content outside one is invisible to landmark navigation.
    (document.querySelector('main') ?? document.body).append(announcer);
  }
  announcer.textContent = '';
  const target = announcer;
  setTimeout(() => (target.textContent = message), 50);
}

/** Copies text: the async clipboard where allowed, else a selected textarea. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.cssText = 'position:fixed;opacity:0;top:0;left:0';
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/** Shows `done` on the button for a moment and announces it. */
function flash(button: HTMLElement, ok: boolean, done = 'Copied'): void {
  const original = [...button.childNodes];
  button.textContent = ok ? 'Copied' : 'Copy failed';
  announce(ok ? done : 'Copy failed: select the text and copy it yourself');
  setTimeout(() => button.replaceChildren(...original), 2000);
}

// ── Copy buttons on code blocks ─────────────────────────────────────────────
for (const block of document.querySelectorAll<HTMLElement>('.code-block')) {
  const pre = block.querySelector('pre');
  if (!pre) continue;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'code-copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', 'Copy code');
  button.addEventListener('click', async () => flash(button, await copyText(pre.innerText.replace(/\n$/, ''))));
  block.append(button);
}

// ── Heading anchors: a link to each h2–h4 that also copies the section URL ──
for (const heading of document.querySelectorAll<HTMLHeadingElement>('.prose :is(h2, h3, h4)[id]')) {
  const link = document.createElement('a');
  link.className = 'heading-anchor';
  link.href = `#${encodeURIComponent(heading.id)}`;
  link.innerHTML = '<span aria-hidden="true">#</span><span class="sr-only"></span>';
  link.lastElementChild!.textContent = `Link to section: ${heading.textContent?.trim() ?? ''}`;
  link.addEventListener('click', async () => {
    const url = `${location.origin}${location.pathname}#${encodeURIComponent(heading.id)}`;
    if (await copyText(url)) announce('Link to section copied');
  });
  heading.append(link);
}

// ── Stacked tables: each cell names its column (shown on a phone, see reading.css) ──
for (const table of document.querySelectorAll<HTMLTableElement>('.prose table.stack')) {
  const headers = [...(table.tHead?.rows[0]?.cells ?? [])].map((th) => th.textContent?.trim() ?? '');
  for (const body of table.tBodies) for (const row of body.rows) [...row.cells].forEach((td, i) => headers[i] && (td.dataset.label = headers[i]));
  table.dataset.labelled = '';
}

// ── Page actions: copy buttons (the links work without a script) ───────────
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-copy-text], [data-copy-from]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    let text = button.dataset.copyText;
    if (text === undefined) {
      try {
        const res = await fetch(button.dataset.copyFrom!, { headers: { accept: 'text/markdown' } });
        text = res.ok ? await res.text() : undefined;
      } catch {
        text = undefined;
      }
    }
    flash(button, text !== undefined && (await copyText(text)), button.dataset.done ?? 'Copied');
  });
}

// The actions menu closes on Escape (focus back on its summary) and on a click elsewhere.
for (const menu of document.querySelectorAll<HTMLDetailsElement>('[data-actions-menu]')) {
  menu.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !menu.open) return;
    menu.open = false;
    menu.querySelector('summary')?.focus();
  });
  document.addEventListener('click', (e) => {
    if (menu.open && !menu.contains(e.target as Node)) menu.open = false;
  });
}
