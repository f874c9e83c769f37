// Links written as a Docusaurus site's URLs: a page's `slug:` (absolute or relative to its folder), its `id:`, and
// file and folder names with number prefixes, which Docusaurus leaves out of URLs. Resolved only when no page path
// finds the link, so every other tree resolves exactly as before. And partials: files and folders starting with `_`
// are included by pages, not pages themselves.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentFiles, forgetLinkTable, linkTable, resolveLink, treeKey } from '../../src/lib/content-links.ts';
import { removeDir, writeTree } from '../helpers/fixture.ts';

const page = (front: string, body = 'Text.') => `---\ntitle: A page\n${front}---\n\n${body}\n`;
const tree = writeTree({
  'guides/intro.md': page('slug: /getting-started\n'),
  'guides/setup.md': page("slug: 'install'\n"),
  'guides/02-deploy.md': page(''),
  '03-reference/03-reference.md': page(''),
  '03-reference/01-cli.md': page(''),
  'other/page.md': page('id: custom-id\n'),
  'index.md': page(''),
});
afterAll(() => {
  forgetLinkTable(tree);
  removeDir(tree);
});

describe('links written as Docusaurus URLs', () => {
  const table = linkTable(tree);
  const url = (target: string) => {
    const r = resolveLink(table, 'index.md', target);
    return r.kind === 'page' ? r.url : r.kind;
  };
  const own = (file: string) => table.pages.get(file)!;

  it('find a page by its slug, under /docs or without it, an anchor kept', () => {
    expect(url('/docs/getting-started')).toBe(own('guides/intro'));
    expect(url('/getting-started/#first-steps')).toBe(`${own('guides/intro')}#first-steps`);
    expect(url('/docs/guides/install')).toBe(own('guides/setup'));
  });

  it('find a page by its id, and by its path without number prefixes; a same-named page is its folder', () => {
    expect(url('/docs/other/custom-id')).toBe(own('other/page'));
    expect(url('/docs/guides/deploy')).toBe(own('guides/02-deploy'));
    expect(url('/docs/reference/cli')).toBe(own('03-reference/01-cli'));
    expect(url('/docs/reference')).toBe(own('03-reference/03-reference'));
  });

  it('leave file-path links as they were, and a link to nothing broken', () => {
    expect(url('/guides/intro')).toBe(own('guides/intro'));
    expect(url('./guides/02-deploy.md')).toBe(own('guides/02-deploy'));
    expect(url('/docs/nope')).toBe('broken');
    expect(url('getting-started')).toBe('broken'); // relative: a file path, and there is none
  });

  it('key the render cache on slugs and ids, so a link to a slug is resolved again when it moves', () => {
    const other = writeTree({ 'a.md': page(''), 'b.md': page('slug: /start\n') });
    try {
      const before = treeKey(other);
      writeFileSync(join(other, 'a.md'), page('', 'Other text.'));
      expect(treeKey(other)).toBe(before); // a page's own text is its own digest's business
      writeFileSync(join(other, 'b.md'), page('slug: /begin\n'));
      const moved = treeKey(other);
      expect(moved).not.toBe(before);
      // a partial, which pages include, is keyed by its size and time like any other file they read
      writeFileSync(join(other, '_part.md'), 'Shared.');
      const withPart = treeKey(other);
      expect(withPart).not.toBe(moved);
      writeFileSync(join(other, '_part.md'), 'Shared, edited.');
      expect(treeKey(other)).not.toBe(withPart);
    } finally {
      removeDir(other);
    }
  });

  it('find a slug after front matter longer than the first 4 KB of the page', () => {
    const long = writeTree({ 'guide/a.md': page(`description: ${'word '.repeat(1500)}\nslug: /far-down\n`), 'index.md': page('') });
    try {
      const t = linkTable(long);
      expect(resolveLink(t, 'index.md', '/docs/far-down')).toEqual({ kind: 'page', url: t.pages.get('guide/a') });
    } finally {
      forgetLinkTable(long);
      removeDir(long);
    }
  });

  it('take files and folders starting with _ for partials, not pages, and Hugo\'s _index.md for its folder\'s page', () => {
    const partials = writeTree({ 'guide/a.md': page(''), 'guide/_shared.md': 'Shared.', 'guide/_parts/x.md': 'X.', 'hugo/_index.md': page(''), '_drafts/b.md': page('') });
    try {
      expect(contentFiles(partials)).toEqual(['guide/a.md', 'hugo/_index.md']);
      const t = linkTable(partials);
      expect(resolveLink(t, 'guide/a.md', './_shared.md').kind).toBe('broken');
      expect(resolveLink(t, 'guide/a.md', '../hugo/_index.md').kind).toBe('page');
    } finally {
      forgetLinkTable(partials);
      removeDir(partials);
    }
  });
});
