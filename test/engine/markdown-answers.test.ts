// The pieces the Markdown answers are built from: a twin cut into sections and blocks, the sections an extractive
// answer quotes (related words and title identifiers count; the search ranking's first page leads), and the filter
// that drops citations a model made up from its stream.
import { describe, expect, it } from 'vitest';
import { pageTwin } from '../../src/lib/markdown-twin.ts';
import { answer, type AnswerSource } from '../../gateway/engine/answer.ts';
import { citationFilter } from '../../gateway/engine/citations.ts';
import { TWIN_INDEX_POINTER, atxHeading, markdownSections, missingCodeNote } from '../../gateway/engine/markdown-sections.ts';
import { COVERED_THRESHOLD, fitBlockToQuestion, rankSections, sectionPassage } from '../../gateway/engine/passages.ts';

describe('atxHeading', () => {
  it('reads depth and text as CommonMark does: closing hashes after a space go, a last word keeps its own', () => {
    expect(atxHeading('## Set up ##')).toEqual({ depth: 2, text: 'Set up' });
    expect(atxHeading('   ### Using C#')).toEqual({ depth: 3, text: 'Using C#' });
    expect(atxHeading('# #')).toEqual({ depth: 1, text: '#' });
    expect(atxHeading('#\tTitle \r')).toEqual({ depth: 1, text: 'Title' });
    for (const line of ['#Title', '####### seven', '    # indented code', '##', '## ', 'text # not a heading']) expect(atxHeading(line)).toBeUndefined();
  });

  it('reads a heading line with a long run of spaces inside it', () => {
    expect(atxHeading(`## a${' '.repeat(200_000)}b`)?.text).toHaveLength(200_002);
  });
});

describe('a heading’s anchor: the gateway reads it as the site renders it', () => {
  // each heading with the id the built HTML page gave it (a page of these headings built once, ids read from its HTML)
  const cases: [heading: string, id: string][] = [
    ['fastify.RawRequestDefaultExpression\\<[RawServer][RawServerGeneric]\\>', 'fastifyrawrequestdefaultexpressionrawserver'],
    ['`Map<K, V>` and `Set<T>`', 'mapk-v-and-sett'],
    ['Use [`defineConfig`](/guide/page) here', 'use-defineconfig-here'],
    ['Ref [`RawServer`][ref] type', 'ref-rawserver-type'],
    ['Bold __`vi.fn`__ call', 'bold-vifn-call'],
    ['Heading <a name="heading-anchor"></a>', 'heading-'],
    ['<img src="x.png" alt=""> Intro image', '-intro-image'],
    ['headers[name][value]', 'headersnamevalue'],
    ['Foo &amp; bar &lt;T&gt;', 'foo--bar-t'],
    ['Generic <T> in prose', 'generic--in-prose'],
    ['Autolink <https://vitest.dev> and \\*stars\\*', 'autolink-httpsvitestdev-and-stars'],
    ['snake_case and __init__ and *emphasis*', 'snake_case-and-init-and-emphasis'],
    ['Code [a][notdef] ref', 'code-anotdef-ref'],
    // smart punctuation: hyphens in text are dashes, which the slug drops
    ['The --update flag', 'the-update-flag'],
    ['--watch', 'watch'],
    ['a---b and c--d ----e', 'ab-and-cd-e'],
    // every HTML entity, a no-break space, a private-use character by reference
    ['Request &rarr; Response', 'request--response'],
    ['Step&nbsp;1', 'step1'],
    ['Private &#xE100;0&#xE101; x', 'private-0-x'],
    // labels defined in a block quote, with an escape, with code
    ['Use the [api][qdef] now', 'use-the-api-now'],
    ['Use [x][a\\_b] and [y][`c`]', 'use-x-and-y'],
    // a link whose URL holds parentheses, a badge's image inside a link
    ['[`data:`](https://developer.mozilla.org/en-US/docs/Web#scheme-source:~:text=schemes%20(not%20recommended).-,data%3A) scheme', 'data-scheme'],
    ['Badge [![npm](https://img.shields.io/npm/v/x.svg)](https://npm.im/x) here', 'badge--here'],
  ];
  // `notdef` is defined only inside a code fence, which defines nothing
  const twin = ['# Title', '', ...cases.flatMap(([h]) => [`## ${h}`, '', 'Text.', '']), '```md', '[notdef]: #x', '```', '', '> [qdef]: /x', '', '[ref]: #top', '[RawServerGeneric]:', '    #rawserver', '[a\\_b]: /x', '[`c`]: /y'].join('\n');

  it('gives every section the id its heading has in the HTML, as the build’s manifest does', () => {
    expect(markdownSections(twin).filter((s) => s.anchor).map((s) => s.anchor)).toEqual(cases.map(([, id]) => id));
    expect(pageTwin({ title: 'Title', body: twin.slice('# Title\n'.length), isMdx: false }).headings.map((h) => h.slug)).toEqual(cases.map(([, id]) => id));
  });

  it('lists a heading that opens a list item in the manifest, as the HTML gives it an id (no section of the gateway: the list is one block)', () => {
    const twin = pageTwin({ title: 'Reply', body: '## Headers\n\n- ###### set-cookie\n  Sets a cookie.\n\n1. ### Step one\n   Do it.\n', isMdx: false });
    expect(twin.headings.map((h) => [h.depth, h.slug])).toEqual([[2, 'headers'], [6, 'set-cookie'], [3, 'step-one']]);
  });

  it('shows a heading without the space a trailing tag leaves', () => {
    expect(markdownSections(twin).find((s) => s.anchor === 'heading-')!.heading).toBe('Heading');
  });
});

describe('markdownSections', () => {
  const twin = [
    '# Page title',
    '',
    '> The description.',
    '',
    'Intro paragraph.',
    '',
    '## Set up `vi.mock` <Badge>3.0</Badge>',
    '',
    'Steps:',
    '1. first',
    '',
    '2. second',
    '   continued',
    '',
    '```ts [vitest.config.ts]',
    '# not a heading',
    '',
    'const a = 1',
    '```',
    '',
    '## Set up `vi.mock` <Badge>3.0</Badge>',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
  ].join('\n');

  it('cuts sections at headings outside code, with the anchors the site gives them', () => {
    const sections = markdownSections(twin);
    expect(sections.map((s) => [s.heading, s.anchor, s.depth])).toEqual([
      ['', '', 1],
      ['Set up vi.mock 3.0', 'set-up-vimock-30', 2],
      ['Set up vi.mock 3.0', 'set-up-vimock-30-1', 2],
    ]);
  });

  it('keeps blocks whole: a list across blank lines, a fence with its language and blank lines, a table', () => {
    const [intro, setUp, again] = markdownSections(twin);
    expect(intro!.blocks.map((b) => b.kind)).toEqual(['quote', 'paragraph']);
    expect(setUp!.blocks.map((b) => b.kind)).toEqual(['paragraph', 'list', 'code']);
    expect(setUp!.blocks[1]!.markdown).toBe('1. first\n\n2. second\n   continued');
    expect(setUp!.blocks[2]).toEqual({ kind: 'code', lang: 'ts', markdown: '```ts [vitest.config.ts]\n# not a heading\n\nconst a = 1\n```' });
    expect(again!.blocks).toEqual([{ kind: 'table', markdown: '| a | b |\n|---|---|\n| 1 | 2 |' }]);
  });

  it('leaves out the pointer to llms.txt a twin carries: it is not content of the page', () => {
    const [intro] = markdownSections(`# Title\n\n> The description.\n\n${TWIN_INDEX_POINTER}https://docs.example.com/llms.txt\n\nIntro paragraph.\n`);
    expect(intro!.blocks.map((b) => b.markdown)).toEqual(['> The description.', 'Intro paragraph.']);
  });

  it("does not count the description in its intro's length: a page's opening is not outweighed by a short section below it", () => {
    // the portfolio's Writing page: "I write …" opens it, the Talks section names "Write the Docs"
    const twin = pageTwin({
      title: 'Writing',
      description: 'Articles and conference talks on search relevance, documentation for people and AI agents, and HTTP API design.',
      body: 'I write a few long pieces a year, usually after a project taught me something.\n\n## Talks\n\n- DocsConf Lisbon 2025: Agents are readers too.\n- Write the Docs Portland 2023: Search logs are user research.\n',
      isMdx: false,
      llmsUrl: 'https://example.com/llms.txt',
    }).markdown;
    expect(rankSections('what does she write about', [{ url: 'http://localhost/writing', title: 'Writing', content: twin }])[0]!.section.heading).toBe('');
  });

  it('marks the description a twin quotes under its title: it counts for its section, quoted only when the section holds nothing else', async () => {
    const twin = pageTwin({ title: 'Scopes and registries', description: 'Configure private registries and scoped packages', body: 'To configure a registry for a scope:\n\n```toml\n[install.scopes]\n```\n\n## Tokens\n\n> A quote of the page.\n', isMdx: false, llmsUrl: 'https://docs.example.com/llms.txt' }).markdown;
    const [intro, tokens] = markdownSections(twin);
    expect(intro!.blocks.map((b) => Boolean(b.description))).toEqual([true, false, false]);
    expect(tokens!.blocks.map((b) => Boolean(b.description))).toEqual([false]);
    expect(rankSections('configure private registries', [{ url: 'http://localhost/docs/scopes', title: 'Scopes and registries', content: twin }])[0]!.section.heading).toBe('');
    expect(sectionPassage(intro!, 'configure private registries').map((b) => b.markdown)).toEqual(['To configure a registry for a scope:', '```toml\n[install.scopes]\n```']);
    // a section holding nothing but the description is quoted as it (npm's command pages: "List installed packages")
    const [alone] = markdownSections(pageTwin({ title: 'npm-ls', description: 'List installed packages', body: '### Synopsis\n\nnpm ls\n', isMdx: false, llmsUrl: 'https://docs.example.com/llms.txt' }).markdown);
    expect(sectionPassage(alone!, 'list installed packages').map((b) => b.markdown)).toEqual(['> List installed packages']);
    // and an answer says it as what the page does
    const ls = pageTwin({ title: 'npm-ls', description: 'List installed packages', body: '### Synopsis\n\nnpm ls\n', isMdx: false, llmsUrl: 'https://docs.example.com/llms.txt' }).markdown;
    let text = '';
    await answer({ query: 'list installed packages', mode: 'generate', sources: [{ url: 'http://localhost/docs/npm-ls', title: 'npm-ls', content: ls }], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text).toMatch(/^`npm-ls`: List installed packages \[1\]\n/);
    // a quote the page itself opens with, where the twin has no description, is content
    const [plain] = markdownSections(pageTwin({ title: 'Quote', body: '> Configure private registries.\n', isMdx: false, llmsUrl: 'https://docs.example.com/llms.txt' }).markdown);
    expect(plain!.blocks.map((b) => Boolean(b.description))).toEqual([false]);
  });

  it('closes a fence the page left open', () => {
    const [intro] = markdownSections('Text\n\n~~~sh\nnpm test');
    expect(intro!.blocks[1]).toEqual({ kind: 'code', lang: 'sh', markdown: '~~~sh\nnpm test\n~~~' });
  });
});

describe('sections an extractive answer quotes', () => {
  const page = (path: string, title: string, body: string): AnswerSource => ({ url: `http://localhost/docs/${path}`, title, content: `# ${title}\n\n${body}\n` });

  it('count a related word of the question (silence ~ silent) and the words of a camelCase title', () => {
    const silent = page('silent', 'silent', 'Hide the console output of tests: only errors are printed.');
    expect(rankSections('how do I silence console output', [silent])[0]!.coverage).toBeGreaterThanOrEqual(COVERED_THRESHOLD);
    const workers = page('max-workers', 'maxWorkers', 'How many processes run at once. Defaults to the number of CPUs.');
    const [best] = rankSections('limit the number of workers', [workers]);
    expect(best!.coverage).toBe(1); // "limit" ~ "max", "workers" in `maxWorkers`, "number" in the body
  });

  it('split the words of a question at the punctuation the words of a section are split at (`--reporter=json`)', () => {
    const output = page('output-file', 'outputFile', 'Write test results to a file when the `--reporter=json` option is also specified.');
    expect(rankSections('--reporter=json', [output])[0]!.coverage).toBeGreaterThanOrEqual(COVERED_THRESHOLD);
  });

  it('read a link by its text: its destination holds no words of the section (`https://` is not "https")', () => {
    const options = page('server', 'Server Options', '## server.watch\n\nEnable watching in dev, see [the options](https://rolldown.rs/watch "Watch") and <https://github.com/x>.\n\n[watch]: https://example.com/\n\n## server.https\n\nEnable TLS and HTTP/2.');
    expect(rankSections('how do I enable https in dev', [options])[0]!.label).toBe('Server Options › server.https');
    // nor does a URL written out, in code or in prose
    const annotate = page('context', 'Test Context', "## annotate\n\nAdd an annotation to the test, see https://example.com/docs/issues.\n\n```ts\nawait annotate('https://github.com/org/repo/pull/7953', 'issues')\n```");
    expect(rankSections('github pull request', [annotate])).toEqual([]); // no word of it is in the section
    // a reference definition is one line: what follows it is read
    const defined = page('refs', 'Refs', '## Animals\n\nSee [the guide][zebra].\n\n[zebra]: https://example.com/x\n\nQuokka husbandry explained.');
    const plain = page('refs', 'Refs', '## Animals\n\nSee [the guide][zebra].\n\nQuokka husbandry explained.');
    expect(rankSections('quokka husbandry', [defined])[0]!.coverage).toBe(rankSections('quokka husbandry', [plain])[0]!.coverage);
    expect(rankSections('how do I add an annotation to a test', [annotate])[0]!.coverage).toBeGreaterThanOrEqual(COVERED_THRESHOLD);
  });

  it('quote an option with what it does, not its Type and Default alone', () => {
    const [section] = markdownSections('# Server\n\n## server.hmr\n\n- **Type:** `boolean`\n- **Default:** `true`\n\nDisable or configure HMR.\n\nSet `server.hmr.overlay` to `false` to hide the overlay.\n\n## server.port\n\nThe port.\n').filter((x) => x.heading === 'server.hmr');
    expect(sectionPassage(section!, 'hmr overlay').map((b) => b.markdown)).toEqual([
      '- **Type:** `boolean`\n- **Default:** `true`',
      'Disable or configure HMR.',
      'Set `server.hmr.overlay` to `false` to hide the overlay.',
    ]);
    // npm's docs write the fields plain: `* Default: null`
    const [proxy] = markdownSections('# Config\n\n#### `proxy`\n\n* Default: null\n* Type: null, false, or URL\n\nA proxy to use for outgoing http requests.\n\n#### `registry`\n\nThe registry.\n').filter((x) => x.heading === 'proxy');
    expect(sectionPassage(proxy!, 'configure a proxy').map((b) => b.markdown)).toEqual(['* Default: null\n* Type: null, false, or URL', 'A proxy to use for outgoing http requests.']);
  });

  it('quote what a label labels, with the label: a field of a reference, a tab of a code group', () => {
    // reference fields as the build writes Mintlify's <ParamField>: a section whose heading names the question still
    // picks the field the question names, not the first one
    const flags = '# publish\n\n## Publishing Options\n\n**`--access`** `string`\n\nSet the access level of the package.\n\n**`--tag`** `string` (default `latest`)\n\nSet the tag of the version being published.\n\n```sh\nbun publish --tag alpha\n```\n\n**`--dry-run`** `boolean`\n\nDo everything but publish.\n';
    const [options] = markdownSections(flags).filter((x) => x.heading === 'Publishing Options');
    expect(sectionPassage(options!, 'publish with a tag').map((b) => b.markdown)).toEqual([
      '**`--tag`** `string` (default `latest`)',
      'Set the tag of the version being published.',
      '```sh\nbun publish --tag alpha\n```',
    ]);
    // tabs as the build writes them (Starlight's, Mintlify's): the tab the question names, its label first
    const tabs = '# Install\n\n## Installation\n\n**macOS & Linux**\n\n```bash\ncurl -fsSL https://example.com/install | bash\n```\n\n**Windows**\n\n```powershell\nirm example.com/install.ps1 | iex\n```\n\n**Note**\n\nRestart your shell.\n';
    const [install] = markdownSections(tabs).filter((x) => x.heading === 'Installation');
    expect(sectionPassage(install!, 'installation on windows').map((b) => b.markdown)).toEqual(['**Windows**', '```powershell\nirm example.com/install.ps1 | iex\n```']);
  });

  it('start a section that opens with code with it: the first way, then "Or `async/await`:" and the second', () => {
    const hooks = '# Hooks\n\n### onRequest\n```js\nfastify.addHook(\'onRequest\', (request, reply, done) => {\n  done()\n})\n```\nOr `async/await`:\n```js\nfastify.addHook(\'onRequest\', async (request, reply) => {})\n```\n';
    const [section] = markdownSections(hooks).filter((x) => x.heading === 'onRequest');
    expect(sectionPassage(section!, 'onRequest hook').map((b) => b.kind)).toEqual(['code', 'paragraph', 'code']);
    // and when a lead-in announces the list after the code: `signature`, "Options:", the list
    const [signature] = markdownSections('# API\n\n## listen\n```ts\nlisten(options)\n```\nOptions:\n- `port` the port\n- `host` the host\n').filter((x) => x.heading === 'listen');
    expect(sectionPassage(signature!, 'listen port').map((b) => b.kind)).toEqual(['code', 'paragraph', 'list']);
  });

  it('cut a long list of plugins to the items that match best, a numbered list to the steps around the one that does', () => {
    const plugin = (name: string, what: string) => `- [\`${name}\`](https://github.com/x/${name}) ${what} ${'Maintained by the community. '.repeat(3)}`;
    const names = Array.from({ length: 40 }, (_, i) => plugin(`fastify-${i}`, 'Adds a feature.'));
    names[20] = plugin('fastify-traps', 'Closes the server gracefully on SIGINT and SIGTERM signals.');
    names[21] = plugin('fastify-graceful', 'Shuts the server down gracefully.');
    const catalogue = fitBlockToQuestion({ kind: 'list', markdown: names.join('\n') }, 900, 'how do I close the server gracefully');
    expect(catalogue.markdown.split('\n').map((item) => /`([^`]+)`/.exec(item)![1])).toEqual(['fastify-traps', 'fastify-graceful']);
    const steps = Array.from({ length: 40 }, (_, i) => `${i + 1}. Step ${i + 1} ${i === 20 ? 'closes the server gracefully' : 'does something else'}.`).join('\n');
    const cut = fitBlockToQuestion({ kind: 'list', markdown: steps }, 300, 'how do I close the server gracefully').markdown;
    expect(cut).toContain('21. Step 21 closes');
    expect(cut.split('\n').length).toBeGreaterThan(2);
    // a word every item holds ("fastify") tells none apart: the item that says GraphQL is the one kept
    names[30] = plugin('mercurius', 'A GraphQL adapter for Fastify.');
    const graphql = fitBlockToQuestion({ kind: 'list', markdown: names.join('\n') }, 900, 'does fastify support graphql');
    expect(graphql.markdown.split('\n').map((item) => /`([^`]+)`/.exec(item)![1])).toEqual(['mercurius']);
    // no item matches (a list a lead-in announces): the cut fills its budget as before
    expect(fitBlockToQuestion({ kind: 'list', markdown: names.join('\n') }, 900, 'what does it cost').markdown.split('\n').length).toBeGreaterThan(3);
  });

  it('leave one blank line after a list whose last item ends in a fence', async () => {
    // a list longer than a passage, cut to its item that matches
    const item = (name: string, what: string) => `- \`${name}: boolean\`\n\n  ${what} ${'More words about this option follow here. '.repeat(4)}\n\n  \`\`\`ts\n  getByRole('checkbox', { ${name}: true })\n  \`\`\`\n`;
    const list = [item('checked', 'Whether checked elements count.'), ...['pressed', 'expanded', 'selected', 'disabled'].map((n) => item(n, 'Another state.'))].join('\n');
    const options = page('locators', 'Locators', `## Options\n\n${list}\n## Other\n\nUnrelated.`);
    const guide = page('guide', 'Guide', 'Checked elements count when the checked option is set on the locator.');
    let text = '';
    await answer({ query: 'checked elements option', mode: 'generate', sources: [guide, options], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text).toContain('```\n\n');
    expect(text).not.toMatch(/\n\s*\n\s*\n/);
  });

  it('never quote the build\'s note of a missing code include', () => {
    const [section] = markdownSections(`# Bench\n\n## Compare\n\nVitest prints a comparison table.\n\n${missingCodeNote('./snippets/table.ansi')}\n\nThe table compares runs.\n`).filter((x) => x.heading === 'Compare');
    expect(section!.blocks.map((b) => b.markdown)).toEqual(['Vitest prints a comparison table.', 'The table compares runs.']);
    // in a callout, in a list item, two in a row, a path with a backtick
    const note = missingCodeNote;
    const [more] = markdownSections(`# Bench\n\n## More\n\n> **Tip**\n>\n> ${note('./a.ts')}\n\n- Step one\n\n  ${note('./b.ts')}\n\n${note('./c.ts')}\n${note('./we`ird.ts')}\n\nDone.\n`).filter((x) => x.heading === 'More');
    expect(more!.blocks.map((b) => b.markdown)).toEqual(['> **Tip**', '- Step one', 'Done.']);
  });

  it('leave out a lead-in whose announced block is left out: a component the twin cannot show', () => {
    const [section] = markdownSections('# Releases\n\n## Supported Versions\n\nIn summary, the supported versions are:\n\n<SupportedVersions />\n\nThe supported ranges are determined by:\n\n- **Current Minor** gets regular fixes.\n- **Previous Major** gets security patches.\n').filter((x) => x.heading === 'Supported Versions');
    expect(section!.blocks.map((b) => b.kind)).toEqual(['paragraph', 'html', 'paragraph', 'list']);
    expect(sectionPassage(section!, 'which versions are supported').map((b) => b.markdown)).toEqual([
      'The supported ranges are determined by:',
      '- **Current Minor** gets regular fixes.\n- **Previous Major** gets security patches.',
    ]);
  });

  it('quote a deprecated option with what replaces it: a bold flag among its fields is a field too', () => {
    const [section] = markdownSections('# Build\n\n## build.rollupOptions\n\n- **Type:** `RolldownOptions`\n- **Deprecated**\n\nThis option is an alias of `build.rolldownOptions`. Use that instead.\n\n## build.other\n\nOther.\n').filter((x) => x.heading === 'build.rollupOptions');
    expect(sectionPassage(section!, 'build.rollupOptions vs build.rolldownOptions').map((b) => b.markdown)).toEqual([
      '- **Type:** `RolldownOptions`\n- **Deprecated**',
      'This option is an alias of `build.rolldownOptions`. Use that instead.',
    ]);
  });

  it('quote the list a lead-in announces even when it is longer than a passage of prose', () => {
    const steps = Array.from({ length: 12 }, (_, i) => `${i + 1}. **Step ${i + 1}:** the hooks of this stage run, in the order they were defined in the file`).join('\n');
    expect(steps.length).toBeGreaterThan(900);
    const [section] = markdownSections(`# Lifecycle\n\n## Order\n\nThe execution follows this order:\n\n${steps}\n`).filter((x) => x.heading === 'Order');
    expect(sectionPassage(section!, 'execution order').map((b) => b.kind)).toEqual(['paragraph', 'list']);
    // longer than a code block may be: its first items, not a lead-in left announcing nothing
    const many = Array.from({ length: 40 }, (_, i) => `${i + 1}. **Step ${i + 1}:** the hooks of this stage run, in the order they were defined in the file`).join('\n');
    const [long] = markdownSections(`# Lifecycle\n\n## Order\n\nThe execution follows this order:\n\n${many}\n`).filter((x) => x.heading === 'Order');
    const passage = sectionPassage(long!, 'execution order');
    expect(passage.map((b) => b.kind)).toEqual(['paragraph', 'list']);
    expect(passage[1]!.markdown.startsWith('1. **Step 1:**')).toBe(true);
    expect(passage[1]!.markdown.length).toBeLessThanOrEqual(1600);
  });

  it('cut a block longer than a passage to its part that matches: sentences, words, items, rows, a quote\'s paragraphs', () => {
    const quoted = (markdown: string, query: string) => {
      const [section] = markdownSections(`# Long\n\n## Part\n\n${markdown}\n`).filter((x) => x.heading === 'Part');
      return sectionPassage(section!, query);
    };
    const filler = (i: number) => `Sentence ${i} talks about widgets and gadgets at some length, nothing more.`;
    // a paragraph of sentences: whole sentences around the one that matches, … where text was left out
    const sentences = Array.from({ length: 200 }, (_, i) => (i === 120 ? 'Set `server.port` to change the port of the dev server.' : filler(i))).join(' ');
    const [paragraph] = quoted(sentences, 'change the dev server port');
    expect(paragraph!.kind).toBe('paragraph');
    expect(paragraph!.markdown.length).toBeLessThanOrEqual(900);
    expect(paragraph!.markdown).toMatch(/^… Sentence \d+ .*Set `server\.port` to change the port of the dev server\..* …$/);
    // one line of words without a sentence end: the run of whole words that matches, never an open code span
    const words = Array.from({ length: 20_000 }, (_, i) => (i === 15_000 ? '`needle`' : `word${i % 97}`)).join(' ');
    const [run] = quoted(words, 'needle');
    expect(run!.markdown.length).toBeLessThanOrEqual(900);
    expect(run!.markdown).toContain('`needle`');
    expect((run!.markdown.match(/`/g) ?? []).length % 2).toBe(0);
    // links between the words are kept whole wherever the cut falls, so each still links: badges, brackets in the
    // text, <destinations with spaces>, every kind of title
    const links = [
      (i: number) => `[see the guide on topic ${i}](/docs/topic-${i} "Topic (${i})")`,
      (i: number) => `[![Build status ${i}](https://ci.example/badge-${i}.svg)](https://ci.example/job/${i})`,
      (i: number) => `[the [beta] guide to ${i}](</docs/the guide ${i}> 'Guide ${i}')`,
      (i: number) => `[one more link ${i}](/docs/x-${i} (title ${i}))`,
    ];
    for (const link of links) {
      for (let shift = 0; shift < 12; shift++) {
        const linked = Array.from({ length: 3_000 }, (_, i) => (i === 2_000 ? 'needle' : i % 7 === shift % 7 ? link(i) : `word${i % 97}`)).join(' ');
        const [cut] = quoted(linked, 'needle');
        expect(cut!.markdown).toContain('needle');
        expect(cut!.markdown.length).toBeLessThanOrEqual(900);
        let rest = cut!.markdown;
        for (let i = 0; i < 3_000; i++) rest = rest.split(link(i)).join('');
        expect(rest).not.toMatch(/[[\]()<>]/);
      }
    }
    // a list: whole items around the one that matches; a table: its header and whole rows
    const list = Array.from({ length: 300 }, (_, i) => `- **option${i}**: ${i === 200 ? 'sets the retry count' : 'does something else entirely'}`).join('\n');
    const [items] = quoted(list, 'retry count');
    expect(items!.kind).toBe('list');
    expect(items!.markdown.length).toBeLessThanOrEqual(900);
    expect(items!.markdown.split('\n').every((line) => /^- \*\*option\d+\*\*: /.test(line))).toBe(true);
    expect(items!.markdown).toContain('option200**: sets the retry count');
    // a list nested hundreds of levels deep is one item: its lines around the match, indented no more than needed
    const nested = Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}- level ${i}${i === 150 ? ' holds the needle' : ''}`).join('\n');
    const [deep] = quoted(nested, 'needle');
    expect(deep!.kind).toBe('list');
    expect(deep!.markdown.length).toBeLessThanOrEqual(900);
    expect(deep!.markdown).toContain('- level 150 holds the needle');
    expect(deep!.markdown.split('\n')[0]).toMatch(/^- level \d+/); // the least indented line starts at the margin
    const table = `| Flag | Meaning |\n| --- | --- |\n${Array.from({ length: 300 }, (_, i) => `| --flag${i} | ${i === 250 ? 'shard the run' : 'another flag'} |`).join('\n')}`;
    const [rows] = quoted(`Flags:\n\n${table}`, 'shard the run').filter((b) => b.kind === 'table');
    expect(rows!.markdown.startsWith('| Flag | Meaning |\n| --- | --- |\n')).toBe(true);
    expect(rows!.markdown).toContain('| --flag250 | shard the run |');
    expect(rows!.markdown.length).toBeLessThanOrEqual(1600);
    // a quote: whole paragraphs of it, each line still quoted
    const quote = Array.from({ length: 60 }, (_, i) => `> ${i === 40 ? 'Watch mode reruns the affected tests.' : filler(i)}`).join('\n>\n');
    const [kept] = quoted(quote, 'watch mode reruns');
    expect(kept!.kind).toBe('quote');
    expect(kept!.markdown).toContain('> Watch mode reruns the affected tests.');
    expect(kept!.markdown.split('\n').every((line) => line.startsWith('>'))).toBe(true);
    expect(kept!.markdown.length).toBeLessThanOrEqual(1000);
  });

  it('cut blocks made of long runs of spaces in time proportional to their length', () => {
    const spaces = ' '.repeat(200_000);
    for (const markdown of [`| a |\n${spaces}x\n| b |`, `- a\n${spaces}x`, `> a\n>${spaces}x`, `a${spaces}b`]) {
      const [section] = markdownSections(`# Spaces\n\n## Part\n\n${markdown}\n`).filter((x) => x.heading === 'Part');
      for (const block of sectionPassage(section!, 'needle')) expect(block.markdown.length).toBeLessThanOrEqual(1600);
    }
  });

  it('follow a lead-in that ends its section with links to the subsections it announces', async () => {
    const guide = page('speed', 'Performance', 'Intro.\n\n## Faster imports\n\nThere are several strategies to speed up imports:\n\n### Entry points\n\nImport from `date-fns/format`.\n\n#### A detail\n\nMore.\n\n### Aliases\n\nRedirect with `resolve.alias`.\n\n## Other things\n\nUnrelated.');
    let text = '';
    await answer({ query: 'strategies to speed up imports', mode: 'generate', sources: [guide], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text).toMatch(/^There are several strategies to speed up imports:\n\n- \[Entry points\]\(http:\/\/localhost\/docs\/speed#entry-points\)\n- \[Aliases\]\(http:\/\/localhost\/docs\/speed#aliases\) \[1\]/);
    expect(text).not.toContain('#a-detail');
    expect(text).not.toContain('#other-things');
  });

  it('cut hostile blocks in one pass and to the budget: a marker with a long run of spaces, text with no space, split characters, fences', () => {
    const quoted = (markdown: string, query: string) => {
      const [section] = markdownSections(`# Long\n\n## Part\n\n${markdown}\n`).filter((x) => x.heading === 'Part');
      return sectionPassage(section!, query);
    };
    for (const gap of [' '.repeat(1000), '\t'.repeat(900)]) {
      const [item] = quoted(`-${gap}needle ${'word '.repeat(400)}`, 'needle');
      expect(item!.markdown.length).toBeLessThanOrEqual(900);
      expect(item!.markdown).toMatch(/^- needle word/);
      expect(quoted(`-${gap}`, 'needle').every((b) => b.markdown.length <= 1000)).toBe(true);
    }
    // 5 MB without a space: every run of it looked at once
    const [blob] = quoted(`${'x'.repeat(5_000_000)} needle`, 'needle');
    expect(blob!.markdown.length).toBeLessThanOrEqual(900);
    // a word of emoji longer than the budget is cut between characters, not inside one
    const [emoji] = quoted('😀'.repeat(2000), 'needle');
    expect(emoji!.markdown).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    // a quote around a fence that cannot be cut to a passage is left out, not quoted whole
    const fencedQuote = `> **Note** needle\n>\n> \`\`\`js\n${'> const x = 1\n'.repeat(400)}> \`\`\``;
    expect(quoted(`Intro.\n\n${fencedQuote}`, 'needle').map((b) => b.markdown).join('\n')).not.toContain('const x = 1');
    // a diff's `- old` lines at the margin inside an item's fence are code, not items: what is kept closes its fences
    const diffItems = Array.from({ length: 30 }, (_, i) => `- step ${i} ${i === 20 ? 'needle' : 'other'}\n\n  \`\`\`diff\n- old ${i}\n+ new ${i}\n  \`\`\``).join('\n');
    const [list] = quoted(diffItems, 'needle');
    expect(list!.markdown).toContain('step 20 needle');
    expect((list!.markdown.match(/```/g) ?? []).length % 2).toBe(0);
  });

  it('list the subsections a lead-in announces at the level below it, a label never escaping its bracket', async () => {
    const guide = page('ways', 'Ways', '## Options\n\nThere are several ways to configure it:\n\n#### An aside\n\nx\n\n### With a file \\\n\ny\n\n### With flags\n\nz\n');
    let text = '';
    await answer({ query: 'several ways to configure it', mode: 'generate', sources: [guide], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text).toContain('- [With a file](http://localhost/docs/ways#with-a-file-)');
    expect(text).toContain('- [With flags](http://localhost/docs/ways#with-flags)');
    expect(text).not.toContain('#an-aside');
  });

  it('answer from a page of one enormous line with a passage, not the page', async () => {
    const huge = page('huge', 'Huge', Array.from({ length: 40_000 }, (_, i) => `config${i % 13} port${i % 7}`).join(' '));
    let text = '';
    const outcome = await answer({ query: 'config3 port5', mode: 'generate', sources: [huge], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(outcome.status).toBe('answered');
    expect(text.length).toBeLessThan(2000);
    expect(text).toMatch(/\bconfig3\b[^]*\bport5\b|\bport5\b[^]*\bconfig3\b/);
  });

  it('do not look for the single letters of code in a question (`x`, `y` of `toBe(y)`)', () => {
    const matchers = page('matchers', 'Using Matchers', 'Use `expect(value).toBe(expected)` for primitives and `toEqual` for objects: toBe vs toEqual is identity vs shape.');
    const [withLetters] = rankSections('expect(x).toBe(y) vs toEqual', [matchers]);
    expect(withLetters!.coverage).toBe(rankSections('expect toBe vs toEqual', [matchers])[0]!.coverage);
    expect(withLetters!.coverage).toBeGreaterThanOrEqual(COVERED_THRESHOLD);
  });

  it('read a misspelt word as its correction when it looks like a slip of the fingers, not when it is another word', () => {
    const fs = page('mocking-file-system', 'Mocking the File System', 'Mock the file system so that tests do not touch the disk.');
    const slip = new Map([['sytem', [{ term: 'system', similarity: 0.5 }]]]);
    expect(rankSections('how do I mock the sytem', [fs])[0]!.coverage).toBeLessThan(COVERED_THRESHOLD);
    expect(rankSections('how do I mock the sytem', [fs], slip)[0]!.coverage).toBe(1);
    // "bake" is a word of its own one letter from "make": reading it as "make" would answer a question the docs do not cover
    const make = page('make', 'Make a test', 'Make a test file and make it pass.');
    const another = new Map([['bake', [{ term: 'make', similarity: 0.5 }]]]);
    expect(rankSections('how to bake bread', [make], another)[0]?.coverage ?? 0).toBeLessThan(COVERED_THRESHOLD);
  });

  it("weigh a question's words by how many of the site's pages hold them, not by the sources", async () => {
    const exists = page('exists', 'Check if a file exists', 'Use the `.exists()` method to check if a file exists at the given path.');
    const create = page('create', 'Create a project', 'The command will tell you whether a template file exists in the folder.');
    const remove = page('delete', 'Delete a file', 'Delete a file with `unlink()`: the file must exist.');
    const write = page('write', 'Write a file', 'Write a string to a file; the file is created when it does not exist.');
    const read = page('read', 'Read a file', 'Read a file that exists as a string with `.text()`.');
    // among the sources, "file" and "exists" are everywhere and the question's phrasing ("tell whether") is rare; in the
    // site, "exists" is rare and the phrasing common
    const termPages = { pageCount: 200, byTerm: new Map([['tell', 40], ['whether', 60], ['file', 150], ['exist', 8]]) };
    const lead = async (pages?: typeof termPages) => {
      const outcome = await answer({ query: 'how can I tell whether a file exists', mode: 'generate', sources: [exists, create, remove, write, read], termPages: pages, onModelFailure: 'extractive', onText: () => {} });
      return outcome.citations[0];
    };
    expect(await lead()).toBe(create.url);
    expect(await lead(termPages)).toBe(exists.url);
    // a word the site never uses weighs as the rarest, so a question about it stays "not covered"
    const knit = rankSections('how do I knit a file', [exists], undefined, { pageCount: 200, byTerm: new Map([['knit', 0], ['file', 150]]) });
    expect(knit[0]!.coverage).toBeLessThan(COVERED_THRESHOLD);
  });

  it('lead with the first-ranked page when one of its sections covers the question, further pages next', async () => {
    const first = page('first', 'Retry', 'Retry a failed test a number of times before reporting it as failed.');
    const second = page('second', 'Flaky tests', 'A flaky test fails now and then. Retry a failed test with the `retry` option, a number of times.\n\n## Retry failed tests\n\nRetry a failed test: set `retry` to the number of times.');
    let text = '';
    const outcome = await answer({ query: 'how do I retry a failed test a number of times', mode: 'generate', sources: [first, second], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(outcome.citations).toEqual([first.url, second.url]);
    expect(text.indexOf('[1]')).toBeLessThan(text.indexOf('[2]'));
  });

  it('take further pages in the search order, one section each, before a better-scoring section of a later page', async () => {
    const first = page('first', 'Retry', 'Retry a failed test a number of times before reporting it as failed.');
    const second = page('second', 'Retries in reporters', 'Retry a failed test a number of times and the reporter shows it once, with the times it failed.');
    const third = page('third', 'Retry failed tests', 'Retry a failed test a number of times: set `retry`.\n\n## Retry a failed test\n\nRetry a failed test a number of times with `retry`.');
    let text = '';
    const outcome = await answer({ query: 'how do I retry a failed test a number of times', mode: 'generate', sources: [first, second, third], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(outcome.citations).toEqual([first.url, second.url, third.url]);
  });

  it("name the option whose fields (Type, Default) open a passage, as its heading or page title does", async () => {
    const fields = (type: string, value: string) => `- **Type:** \`${type}\`\n- **Default:** \`${value}\``;
    const testTimeout = page('test-timeout', 'testTimeout', `${fields('number', '5_000')}\n- **CLI:** \`--test-timeout=5000\`\n\nDefault timeout of a test in milliseconds.`);
    const server = page('server', 'Server Options', `## server.port (5.1)\n\n${fields('number', '5173')}\n\nThe default port of the dev server.\n\n## Proxy rules & more\n\n${fields('object', '{}')}\n\nThe default rules of the proxy of the dev server.`);
    let text = '';
    await answer({ query: 'what is the default timeout of a test', mode: 'generate', sources: [testTimeout], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text).toMatch(/^`testTimeout`:\n\n- \*\*Type:\*\*/);
    text = '';
    await answer({ query: 'default port and proxy rules of the dev server', mode: 'generate', sources: [server], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text).toContain('`server.port` (5.1):\n\n- **Type:** `number`');
    // a name that is not an identifier is bold text, its Markdown characters escaped: it never starts a list
    expect(text).toContain('**Proxy rules & more**:\n\n- **Type:** `object`');
    const named = async (heading: string) => {
      let out = '';
      await answer({ query: 'default retries', mode: 'generate', sources: [page('r', 'Retries', `## ${heading}\n\n${fields('number', '3')}\n- **CLI:** \`--retries\`\n\nThe default retries.`)], onModelFailure: 'extractive', onText: (t) => (out += t) });
      return out.split('\n')[0];
    };
    expect(await named('1. Install retries')).toBe('**1. Install retries**:');
    expect(await named('Usage of \\*retries\\*')).toBe('**Usage of \\*retries\\***:');
    expect(await named('Retries')).toBe('**Retries**:');
    expect(await named('`--retries`')).toBe('`--retries`:');
    expect(await named(`retries${'x'.repeat(300)}`)).toBe(`**retries${'x'.repeat(113)}…**:`);
    // two options with the same fields are two answers: each is named
    const watch = page('watch', 'watch', fields('boolean', 'false'));
    const silent = page('silent', 'silent', fields('boolean', 'false'));
    text = '';
    const both = await answer({ query: 'boolean default false', mode: 'generate', sources: [watch, silent], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(both.citations).toEqual([watch.url, silent.url]);
    expect(text).toMatch(/^\*\*watch\*\*:\n\n- \*\*Type:\*\*[\s\S]*\n\n\*\*silent\*\*:\n\n- \*\*Type:\*\*/);
    // a passage that does not open with fields is not introduced
    text = '';
    await answer({ query: 'what is the default timeout of a test', mode: 'generate', sources: [page('t', 'testTimeout', 'Default timeout of a test in milliseconds: 5 seconds.')], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text).toMatch(/^Default timeout/);
  });

  it("quote a code group's first tab after the paragraph it follows, the marker on the paragraph, never on a label", async () => {
    // a code group as the build writes it: each tab's label, then its code
    const install = page('install', 'Getting Started', '## Adding Vitest to Your Project\n\nLearn how to install by Video\n\n**npm**\n\n```bash\nnpm install -D vitest\n```\n\n**yarn**\n\n```bash\nyarn add -D vitest\n```\n');
    let text = '';
    await answer({ query: 'install vitest in a project', mode: 'generate', sources: [install], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text.split('\n\nSources:')[0]).toBe('Learn how to install by Video [1]\n\n**npm**\n\n```bash\nnpm install -D vitest\n```');
    // a label alone with its code: the marker goes before it
    const config = page('config', 'Reporters', '## JUnit\n\n**vitest.config.js**\n\n```js\nexport default { reporters: ["junit"] }\n```\n');
    text = '';
    await answer({ query: 'junit reporters config', mode: 'generate', sources: [config], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text).toMatch(/^From \[1\]:\n\n\*\*vitest\.config\.js\*\*\n\n```js\n/);
  });

  it('pass over a section with nothing to quote (only code too long to quote) to the next one', async () => {
    const long = page('long', 'Import JSON', `## Importing JSON\n\n\`\`\`js\n${'import json from "./example.json"\n'.repeat(100)}\`\`\``);
    const short = page('short', 'JSON', 'Import a JSON file with a default import: its fields come as an object.');
    let text = '';
    const outcome = await answer({ query: 'import a json file', mode: 'generate', sources: [long, short], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(outcome.citations).toEqual([short.url]);
    expect(text).toMatch(/^Import a JSON file/);
  });

  it('summarize: mark a passage of code under its label, not after a "From [n]:", and escape the label', async () => {
    const code = page('code', 'Mocking', '## Mock part of a `module_name`\n\n```ts\nvi.mock(import("./path.js"), async (importOriginal) => ({ ...(await importOriginal()) }))\n```');
    let text = '';
    await answer({ query: 'mock part of a module', mode: 'summarize', sources: [code], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text).toMatch(/^\*\*Mocking › Mock part of a module\\_name\*\* \[1\]\n\n```ts\n/);
    expect(text).not.toContain('From [1]');
  });

  it('quote at most three passages in generate, however many sections cover the question', async () => {
    const pages = ['one', 'two', 'three', 'four', 'five'].map((name) => page(name, `Retry ${name}`, `Retry a failed test a number of times, the ${name} way.`));
    let text = '';
    const outcome = await answer({ query: 'retry a failed test a number of times', mode: 'generate', sources: pages, onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(outcome.citations).toHaveLength(3);
    expect(text).not.toContain('[4]');
  });

  it('quote a text or a code block two pages hold once (a CLI reference generated from the options, a repeated example)', async () => {
    const option = 'Check thresholds per file. See the thresholds for lines, functions and branches.';
    const config = page('config', 'coverage', `## coverage.thresholds.perFile\n\n${option}`);
    const cli = page('cli', 'CLI', `## --coverage.thresholds.perFile\n\n${option}`);
    const guide = page('guide', 'Coverage', 'To check coverage thresholds per file, set `perFile` in the config: the run fails when a file is below its thresholds.');
    let text = '';
    const outcome = await answer({ query: 'check coverage thresholds per file', mode: 'generate', sources: [config, cli, guide], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text.split(option)).toHaveLength(2);
    expect(outcome.citations).toEqual([config.url, guide.url]);
    // the same example under another fence title is quoted once, the prose around it is not lost
    const code = 'const proc = Bun.spawn(["echo", "hello"]);\nconst output = await proc.stdout.text();';
    const stdout = page('stdout', 'Read stdout', `Read the stdout of a child process as text:\n\n\`\`\`ts\n${code}\n\`\`\``);
    const spawn = page('spawn', 'Spawn a process', `The stdout of a child process is a stream you read as text.\n\n\`\`\`ts index.ts\n${code}\n\`\`\``);
    text = '';
    const read = await answer({ query: 'read the stdout of a child process as text', mode: 'generate', sources: [stdout, spawn], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text.split(code)).toHaveLength(2);
    expect(text).toContain('The stdout of a child process is a stream you read as text. [2]');
    expect(read.citations).toEqual([stdout.url, spawn.url]);
    // two guides opening with the same sentence: the second keeps only its own code
    const sentence = 'Use the official setup-bun action to install bun in your GitHub Actions runner.';
    const run = page('run', 'Run Bun in GitHub Actions', `${sentence}\n\n\`\`\`yaml\n- run: bun index.ts\n\`\`\``);
    const deps = page('deps', 'Install dependencies in GitHub Actions', `${sentence}\n\n\`\`\`yaml\n- run: bun install\n\`\`\``);
    text = '';
    await answer({ query: 'install bun in github actions', mode: 'generate', sources: [run, deps], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text.split(sentence)).toHaveLength(2);
    expect(text).toContain('From [2]:\n\n```yaml\n- run: bun install\n```');
    // under ~~~ too, and its lead-in goes with it: the list after it is not announced by it
    const tilde = page('tilde', 'Spawn and read', `To read the stdout of a child process as text, run:\n\n~~~ts\n${code}\n~~~\n\n- the stdout of a child process is a stream\n- read it as text`);
    text = '';
    await answer({ query: 'read the stdout of a child process as text', mode: 'generate', sources: [stdout, tilde], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text.split(code)).toHaveLength(2);
    expect(text).not.toContain('run:');
    expect(text).toContain('- the stdout of a child process is a stream');
  });
});

describe('citationFilter', () => {
  const run = (pieces: string[], sources: number) => {
    const filter = citationFilter(sources);
    const out = pieces.map((p) => filter.push(p)).join('') + filter.end();
    return { out, cited: filter.cited, dropped: filter.dropped };
  };

  it('drops markers naming no source, wherever the stream splits them', () => {
    const text = 'Use vi.mock [2][7]. Then [0] see [1].';
    for (const pieces of [[text], text.split(''), ['Use vi.mock [', '2][', '7', ']. Then [0] see [1', '].']]) {
      expect(run(pieces, 3)).toEqual({ out: 'Use vi.mock [2]. Then see [1].', cited: [2, 1], dropped: 2 });
    }
  });

  it('leaves code alone: indexes in fences, inline code and identifiers are not citations', () => {
    const text = 'Read `list[9]` and arr[5] [1]:\n```ts\nconst x = [9]\n```\nDone [9].';
    expect(run(text.split(/(?<=\n)/), 2)).toEqual({ out: 'Read `list[9]` and arr[5] [1]:\n```ts\nconst x = [9]\n```\nDone.', cited: [1], dropped: 1 });
  });
});
