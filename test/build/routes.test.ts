// The URL rule (src/lib/routes.ts): every content file maps to /docs/<section>/<page> in ASCII, and a file whose
// name has nothing to form a segment from stops the build naming the file and what to do.
import { describe, expect, it } from 'vitest';
import { addressOf, slugify, titleFromName } from '../../src/lib/routes.ts';
import { fileTitle } from '../../src/lib/source-pages.ts';
import { docPathPattern } from '../../gateway/contract/docs-api.ts';

describe('the URL rule', () => {
  it('maps nested folders, index files, root pages and accented names to doc paths the API accepts', () => {
    const cases: [string, string][] = [
      ['guide/mocking/classes', '/docs/guide/mocking-classes'],
      ['guide/advanced/index', '/docs/guide/advanced'],
      ['docs/getting-started/quickstart', '/docs/getting-started/quickstart'],
      ['index', '/docs/overview/index'],
      ['Weird Dir/Ünïcode Fïle', '/docs/weird-dir/unicode-file'],
      ['config/browser/Headless_Mode', '/docs/config/browser-headless-mode'],
    ];
    for (const [id, path] of cases) {
      expect(addressOf(id).path).toBe(path);
      expect(docPathPattern.test(path)).toBe(true);
    }
    expect(slugify('Ça va — déjà?')).toBe('ca-va-deja');
  });

  it('names the file and says to rename it when a part has no letters a-z or digits', () => {
    expect(() => addressOf('guide/日本語', 'guide/日本語.md')).toThrow('guide/日本語.md: "日本語" has no letters a-z or digits 0-9');
    expect(() => addressOf('guide/---', 'guide/---.md')).toThrow(/rename it$/);
    expect(() => addressOf('指南/intro', '指南/intro.md')).toThrow('"指南" has no letters a-z');
  });

  it('names the file when its URL segment would be longer than a file name can be', () => {
    const deep = `guide/${Array.from({ length: 30 }, (_, k) => `folder-number-${k + 1}`).join('/')}/page`;
    expect(() => addressOf(deep, `${deep}.md`)).toThrow(/would be 505 characters, at most 200: each page is a file named after it/);
    expect(addressOf(`guide/${'a'.repeat(200)}`).page).toHaveLength(200);
  });
});

describe('titles from folder and file names', () => {
  it('keeps words apart, capitalizes the first, and writes the abbreviations of software docs in capitals', () => {
    expect(['getting-started', 'api', 'cli-options', 'import_example', 'ssr-and-ui', 'rapid-builds', 'rest-apis', 'urls-and-ids'].map(titleFromName)).toEqual([
      'Getting started',
      'API',
      'CLI options',
      'Import example',
      'SSR and UI',
      'Rapid builds',
      'Rest APIs',
      'URLs and IDs',
    ]);
  });

  it('names a folder’s own page without a title after its folder, and the tree’s root page after its section', () => {
    expect(['lts.md', 'guide/cli-options.md', 'Guides/Index.md', 'Reference/README.md', 'api/_index.md', 'guide/advanced/index.mdx'].map(fileTitle)).toEqual(['LTS', 'CLI options', 'Guides', 'Reference', 'API', 'Advanced']);
    expect(['index.md', 'README.md', 'docs/index.md'].map(fileTitle)).toEqual(['Overview', 'Overview', 'Overview']);
    expect(fileTitle('docs/guide/index.md')).toBe('Guide');
  });
});
