// Stylesheets that load with the code that needs them (the Pagefind UI, the Ask answer),
// so a page carries only the rules it shows on load. Each file is linked once; the
// promise settles when it applies or fails (a missing sheet leaves the feature unstyled,
// never broken).

const loaded = new Map<string, Promise<void>>();

/** Links `href` once, before `before` when given (else last in <head>). */
export function loadStylesheet(href: string, before?: Element | null): Promise<void> {
  let done = loaded.get(href);
  if (!done) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    done = new Promise((resolve) => {
      link.onload = link.onerror = () => resolve();
    });
    if (before) document.head.insertBefore(link, before);
    else document.head.append(link);
    loaded.set(href, done);
  }
  return done;
}
