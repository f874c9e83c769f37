// The ids other tools give a heading, which links written for them use: VitePress's slugs
// and the ids authors write themselves (`## Options {#options}`, `{#options}` alone on a
// line). Shared by the docs loader (which keeps authored ids in the HTML page's text), the
// reading plugin (which turns them into anchors) and the docs model (which checks links to
// sections against them).

const vitepressSpecial = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g;

/** The id VitePress gives a heading (its default slugify): `userEvent.type` → `userevent-type`. */
export function vitepressSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\u0000-\u001f]/g, '')
    .replace(vitepressSpecial, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/**
 * An id the author wrote at the end of a line (a heading, a container's title): `{#options}`. The space before it is
 * not part of the pattern (callers trim it): `\s*` there would rescan a long run of spaces from each of its positions.
 */
export const authoredId = /\{#([\w-]+)\}\s*$/;
/** A line that is only an authored id. */
export const authoredIdLine = /^\s*\{#([\w-]+)\}\s*$/;

/** A line's text without the id its author wrote at its end. */
export function withoutAuthoredId(text: string): string {
  const id = text.includes('{#') ? authoredId.exec(text) : null;
  return id ? text.slice(0, id.index).trimEnd() : text;
}
