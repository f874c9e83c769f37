// The ids other tools give a heading, which links written for them use: shared by the
// reading plugin (which adds them to the HTML as anchors) and the docs model (which checks
// links to sections against them).

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
