// The converter of other tools' Markdown (src/lib/source-markdown.ts) on what a docs tree can hold: very long
// lines of the characters its patterns look for convert in time proportional to the line, and odd input converts
// instead of failing the build.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SourceConverter, takeLeadingHeading, withoutBadges, type SourceMode } from '../../src/lib/source-markdown.ts';
import { componentLinesAsMdx } from '../../src/lib/foreign-mdx.ts';
import { atxFromSetext, containersFromAdmonitions } from '../../src/lib/markdown-lines.ts';

const contentDir = mkdtempSync(join(tmpdir(), 'source-markdown-'));
writeFileSync(join(contentDir, 'sample.ts'), ['// #region setup', 'const a = 1;', '// #endregion setup', 'const b = 2;'].join('\n'));
afterAll(() => rmSync(contentDir, { recursive: true, force: true }));

function converter(mode: SourceMode) {
  const notes = new Set<string>();
  const links: string[] = [];
  const c = new SourceConverter({
    mode,
    contentDir,
    note: (kind) => notes.add(kind),
    link: (target) => {
      links.push(target);
      return target.startsWith('./') ? `/docs/${target.slice(2)}` : target;
    },
  });
  return { convert: (body: string, file = 'page.md') => c.convert(body, file), notes, links };
}

describe('the source converter on long lines', () => {
  // Lines on which a pattern that rescans the rest of the line from every position it can start at takes tens of
  // seconds at 200 KB (scripts/lib/fuzz/long-lines.ts measures the growth).
  const lines: Record<string, string> = {
    'braces (template expressions)': '{{'.repeat(100_000),
    'link openings': '](' .repeat(100_000),
    'angle-bracket link targets': '](<'.repeat(60_000),
    'parentheses in link targets': `](a${'(b'.repeat(60_000)}`,
    'balanced parentheses in link targets': `](${'a(b)'.repeat(60_000)}`,
    'lower-case tags (Vue directives)': '<a '.repeat(60_000),
    'component tags': '<Badge '.repeat(30_000),
    'a code include': `<<< ./sample.ts${'{#'.repeat(100_000)}x`,
    'a container title with badges': `::: tip ${'<Badge '.repeat(30_000)}`,
  };
  for (const mode of ['html', 'twin'] as const) {
    for (const [name, line] of Object.entries(lines)) {
      it(`converts ${name} (${mode})`, () => {
        expect(converter(mode).convert(line)).toBeTypeOf('string');
      });
    }
  }

  it('writes setext headings as ATX ones, line numbers kept, and leaves every other underline alone', () => {
    expect(atxFromSetext('Title\n=====\n\ntext')).toBe('# Title\n\n\ntext');
    expect(atxFromSetext('Two\nlines\n---\nafter')).toBe('## Two lines\n\n\nafter');
    expect(atxFromSetext('Usage ##\n--')).toBe('## Usage \\#\\#\n'); // text, not a closing sequence
    expect(atxFromSetext('# H\nText\n---')).toBe('# H\n## Text\n');
    expect(atxFromSetext('::: tip\nTitle\n---\n:::')).toBe('::: tip\n## Title\n\n:::');
    // lines that continue a list item, a quote or HTML are no paragraph of the page: the `---` under them is a rule
    for (const kept of ['- item\n---', '- item\n  more\n---', '- item\nlazy\n---', '> quote\nlazy\n---', '<div>\ntext\n---', '\n---\n', 'a | b\n--- | ---', '```\ncode\n---\n```', 'text\n- - -', '    code\n---', '###\n===']) {
      expect(atxFromSetext(kept)).toBe(kept);
    }
    expect(takeLeadingHeading(atxFromSetext('Page Title\n==========\n\nIntro.')).heading).toBe('Page Title');
  });

  it('writes MkDocs admonitions as containers: nested ones with more colons, a blank line after taking the closer', () => {
    expect(containersFromAdmonitions('!!! note "Heads up"\n    Body.\n\n    More.\n\nAfter.')).toBe('::: note Heads up\nBody.\n\nMore.\n:::\nAfter.');
    expect(containersFromAdmonitions('??? tip\n    Hidden.\nNext')).toBe('::: details Tip\nHidden.\n:::\nNext');
    expect(containersFromAdmonitions('!!! bug\n    x')).toBe('::: danger\nx\n:::');
    expect(containersFromAdmonitions('!!! warning\n    Outer.\n\n    !!! danger "Inner"\n        Deep.\n\n    Back.\n\nEnd.')).toBe(
      ':::: warning\nOuter.\n\n::: danger Inner\nDeep.\n:::\nBack.\n::::\nEnd.',
    );
    for (const kept of ['```\n!!! note\n    code\n```', 'text !!! note', '!!!note']) expect(containersFromAdmonitions(kept)).toBe(kept);
  });

  it('writes MkDocs content tabs as a tabs container, a label line before each tab, blank lines around taken', () => {
    const tabs = 'Intro\n\n=== "npm"\n\n    ```sh\n    npm i x\n    ```\n\n=== "pnpm"\n    pnpm add x\n\nAfter.';
    expect(containersFromAdmonitions(tabs)).toBe('Intro\n::: tabs\n== npm\n\n```sh\nnpm i x\n```\n\n== pnpm\npnpm add x\n:::\nAfter.');
    expect(containersFromAdmonitions(tabs).split('\n')).toHaveLength(tabs.split('\n').length);
    expect(containersFromAdmonitions('=== "A"\n    !!! note\n        inner\n\nEnd')).toBe(':::: tabs\n== A\n::: note\ninner\n:::\n::::\nEnd');
  });

  it('writes tabs that each hold one code block as a code group with labelled fences, blank lines inside kept', () => {
    const tabs = 'Intro\n\n=== "npm"\n\n    ```sh\n    npm i x\n\n    npm run y\n    ```\n\n=== "pnpm"\n    ```sh\n    pnpm add x\n    ```\n\nAfter.';
    const group = containersFromAdmonitions(tabs);
    expect(group).toBe('Intro\n\n::: code-group\n\n```sh [npm]\nnpm i x\n\nnpm run y\n```\n\n```sh [pnpm]\npnpm add x\n```\n\n:::\nAfter.');
    expect(group.split('\n')).toHaveLength(tabs.split('\n').length);
  });

  it('gives a tab label a paragraph of its own, even right after an HTML block', () => {
    const { convert } = converter('html');
    expect(convert('::: tabs\n== bottom\n<center>x</center>\n== right\n<center>y</center>\n:::')).toMatch(/<\/center>\n\n\*\*right\*\*\n/);
  });

  it('reads a link target with balanced parentheses, one level deep, as CommonMark does', () => {
    const { convert, links } = converter('twin');
    expect(convert('![shot](./img/diagram (1).png) and [wiki](https://en.wikipedia.org/wiki/Foo_(bar)) [no](./a(b.md)')).toBe(
      '![shot](./img/diagram (1).png) and [wiki](https://en.wikipedia.org/wiki/Foo_(bar)) [no](./a(b.md)',
    );
    expect(convert('[page](./my(1).md "Title")')).toBe('[page](/docs/my(1).md "Title")');
    expect(links).toEqual(['https://en.wikipedia.org/wiki/Foo_(bar)', './my(1).md']);
  });

  it('reads a long line of an MDX page of another tool: comments and export statements', () => {
    const { convert } = converter('html');
    expect(convert(`text {/* a comment */} more ${'{/*'.repeat(100_000)}`, 'page.mdx')).toBe('text  more ');
    expect(convert(`export const a${' '.repeat(200_000)}{\n  b: 1,\n}\n\nText`, 'page.mdx').trim()).toBe('Text');
  });

  it('keeps containers nested more than 32 deep as text', () => {
    for (const mode of ['html', 'twin'] as const) {
      const { convert, notes } = converter(mode);
      expect(convert(`${'::: tip\n'.repeat(20_000)}text`)).toContain('::: tip');
      expect(convert(`${'::: code-group\n'.repeat(20_000)}\`\`\`js\na\n\`\`\``)).toContain('::: code-group');
      expect(convert(Array.from({ length: 3_000 }, (_, k) => `${'> '.repeat(k)}> [!NOTE]`).join('\n'))).toContain('[!NOTE]');
      expect(notes).toContain('containers nested more than 32 deep kept as text');
    }
  });

  it('takes a page title from a long heading line, and badges out of a long title', () => {
    expect(takeLeadingHeading(`# a${' '.repeat(200_000)}b\n\ntext`).heading).toBe(`a${' '.repeat(200_000)}b`);
    expect(takeLeadingHeading(`# ${'#'.repeat(200_000)}x`).heading).toBe(`${'#'.repeat(200_000)}x`);
    expect(withoutBadges(`Title ${'<Badge '.repeat(30_000)}`)).toContain('Title');
  });
});

describe('the source converter keeps what it converts', () => {
  it('notes template expressions, and only whole ones', () => {
    const expression = converter('html');
    expression.convert('Hello {{ name }} and {{ other }}');
    expect(expression.notes).toContain('template expressions {{ … }} kept as text');
    const braces = converter('html');
    braces.convert('an object { a: { b } } and {{ a } b }');
    expect(braces.notes).not.toContain('template expressions {{ … }} kept as text');
  });

  it('rewrites inline links and leaves a target holding a bracket as written', () => {
    const { convert, links } = converter('twin');
    expect(convert('See [the guide](./guide "Guide") and [spec](<./a b>).')).toBe('See [the guide](/docs/guide "Guide") and [spec](</docs/a b>).');
    expect(links).toEqual(['./guide', './a b']);
    expect(convert('[x](./odd]name)')).toBe('[x](./odd]name)');
  });

  it('rewrites a reference definition whose destination is on the next line, as one line', () => {
    const { convert, links } = converter('twin');
    expect(convert('See [Fastify][].\n\n[Fastify]:\n    ./server#factory\n[Other]: ./other\n\n    indented code')).toBe('See [Fastify][].\n\n[Fastify]: /docs/server#factory\n[Other]: /docs/other\n\n    indented code');
    expect(links).toEqual(['./server#factory', './other']);
  });

  it('reads a code region by its name as written, and leaves out a name that is no region', () => {
    const { convert, notes } = converter('twin');
    expect(convert('<<< ./sample.ts#setup{1}')).toBe(['```ts', 'const a = 1;', '```'].join('\n'));
    expect(convert('<<< ./sample.ts#setup(')).toContain('is not in the content folder');
    expect(notes).toContain('code includes not found (left out)');
  });

  it('drops a heading\'s closing hashes, not a hash that ends its last word', () => {
    expect(takeLeadingHeading('# Title ##').heading).toBe('Title');
    expect(takeLeadingHeading('# Using C#').heading).toBe('Using C#');
    expect(takeLeadingHeading('# Options {#options}\r').heading).toBe('Options');
    expect(takeLeadingHeading('# #').heading).toBe('#');
  });
});

describe('an MDX page of another tool read as Markdown', () => {
  it('brings what a component holds to the margin, as MDX reads it: relative indentation and code indentation kept', () => {
    const page = [
      'Intro, not in a component.',
      '',
      '    indented at the top: Markdown code, left as it is',
      '<Tabs>',
      '  <Tab title="npm">',
      '    - a list',
      '      - nested under it',
      '',
      '    ```js',
      '    if (x) {',
      '      y();',
      '    }',
      '    ```',
      '  </Tab>',
      '</Tabs>',
      '    after the component: Markdown code again',
    ].join('\n');
    expect(componentLinesAsMdx(page).split('\n')).toEqual([
      'Intro, not in a component.',
      '',
      '    indented at the top: Markdown code, left as it is',
      '<Tabs>',
      '<Tab title="npm">',
      '- a list',
      '  - nested under it',
      '',
      '```js',
      'if (x) {',
      '  y();',
      '}',
      '```',
      '</Tab>',
      '</Tabs>',
      '    after the component: Markdown code again',
    ]);
  });

  it('counts indentation in columns, tabs and spaces mixed as in Bun’s pages', () => {
    const page = ['<Steps>', '\t<Step title="Upgrade">', '\t\tUpgrade first.', '', '    \t```bash', '    \tbun upgrade', '    \t```', '\t</Step>', '</Steps>'].join('\n');
    expect(componentLinesAsMdx(page).split('\n')).toEqual(['<Steps>', '<Step title="Upgrade">', 'Upgrade first.', '', '```bash', 'bun upgrade', '```', '</Step>', '</Steps>']);
  });

  it('reads a component tag whose attribute holds backticks as one tag, not as code spans', () => {
    const html = converter('html').convert('<Accordion title="Why is this `Bun.sql`?">\nBecause.\n</Accordion>', 'page.mdx');
    expect(html).toContain('**Why is this `Bun.sql`?**');
    expect(html).not.toContain('<Accordion');
    // a code span that shows a tag in prose stays code
    expect(converter('html').convert('Write `<Accordion title="x">` around it.', 'page.mdx')).toContain('`<Accordion title="x">`');
  });

  it('reads a title written as a JSX expression as its text, and the tag as one opening line', () => {
    const page = ['<Accordion title={<span>How <code>bun create</code> works</span>}>', '  When you run it:', '', '  ```sh', '  bun create x', '  ```', '</Accordion>'].join('\n');
    expect(componentLinesAsMdx(page).split('\n').slice(1, 5)).toEqual(['When you run it:', '', '```sh', 'bun create x']);
    const html = converter('html').convert(page, 'page.mdx');
    expect(html).toContain('**How bun create works**');
    expect(html).not.toContain('<span>');
    expect(converter('html').convert('<Tab title={"Windows"}>\nRun it.\n</Tab>', 'page.mdx')).toContain('**Windows**');
  });

  it('leaves a fence that shows a component, a one-line component and an empty one as they are', () => {
    const page = ['```mdx', '<Note>', '    kept', '</Note>', '```', '<Note>One line.</Note>', '<Frame>', '</Frame>', '    code'].join('\n');
    expect(componentLinesAsMdx(page)).toBe(page);
  });

  it('inlines a partial imported from the tree, its own partial too, and leaves a component shown in code', () => {
    writeFileSync(join(contentDir, 'outer.mdx'), '---\ntitle: Outer\n---\nimport Inner from "./inner.md";\n\nOuter text.\n\n<Inner />\n');
    writeFileSync(join(contentDir, 'inner.md'), 'Inner text.\n');
    const c = new SourceConverter({ mode: 'html', contentDir, note: () => {}, link: (target) => target });
    const page = ['import Outer from "/outer.mdx";', 'import Gone from "/missing.mdx";', '', '<Outer />', '', '```mdx', '<Outer />', '```', '<Gone />'].join('\n');
    const inlined = c.withPartials(page, 'guide/page.mdx');
    expect(inlined).toContain('Outer text.\n\nInner text.\n');
    expect(inlined).toContain('```mdx\n<Outer />\n```');
    expect(inlined).not.toContain('title: Outer');
    expect(inlined).not.toContain('<Gone />');
    expect([...c.read.keys()].sort()).toEqual(['inner.md', 'outer.mdx']);
  });
});
