import { describe, expect, it } from 'vitest';
import type { AnswerOptions, AnswerSource } from '../../gateway/engine/answer.ts';
import { LlmUnavailableError, answer, citedSources, sourceText } from '../../gateway/engine/answer.ts';
import { createLlmClient } from '../../gateway/engine/llm.ts';
import { closedPort, useOpenAiServer } from '../helpers/openai-server.ts';

const sources: AnswerSource[] = [
  {
    url: 'http://localhost:4321/docs/getting-started/installation',
    title: 'Installation',
    content: `---
title: Installation
---
# Installation

Install the CLI with \`npm install -g widget-cli\`. The installer needs Node 24 or newer.

## Requirements

- Node 24
- npm 11

The CLI stores its cache in the home directory. See [configuration](/docs/getting-started/configuration) for options.

\`\`\`sh
npm install -g widget-cli
\`\`\`
`,
  },
  {
    url: 'http://localhost:4321/docs/getting-started/configuration',
    title: 'Configuration',
    content: 'The configuration file is named widget.config.json. Every option can be overridden with an environment variable. The cache directory is configurable with the cacheDir option.',
  },
  {
    url: 'http://localhost:4321/docs/skills/deploy',
    title: 'Deploy skill',
    content: 'The deploy skill uploads the built site to a server. It needs an SSH key configured for the target host.',
  },
];

async function run(opts: Partial<AnswerOptions>): Promise<{ text: string; pieces: string[]; outcome: Awaited<ReturnType<typeof answer>> }> {
  const pieces: string[] = [];
  const outcome = await answer({ query: 'How do I install the CLI?', mode: 'generate', sources, onModelFailure: 'extractive', onText: (t) => pieces.push(t), ...opts });
  return { text: pieces.join(''), pieces, outcome };
}

describe('extractive answerer', () => {
  it('turns Markdown sources into plain text', () => {
    const t = sourceText(sources[0]!.content);
    expect(t).not.toContain('---');
    expect(t).not.toContain('```');
    expect(t).not.toContain('](');
    expect(t).toContain('Install the CLI with npm install -g widget-cli.');
  });

  it('generate: quotes the best section in Markdown, cites it with [n] linking to its heading anchor', async () => {
    const { text, pieces, outcome } = await run({});
    expect(outcome).toEqual({ backend: 'extractive', citations: [sources[0]!.url], status: 'answered' });
    expect(text).toContain('Install the CLI with `npm install -g widget-cli`. The installer needs Node 24 or newer. [1]');
    expect(text).toContain('\n\nSources:\n\n- [1] [Installation](http://localhost:4321/docs/getting-started/installation)');
    expect(text).toMatch(/\n\[1\]: http:\/\/localhost:4321\/docs\/getting-started\/installation(\n|$)/);
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('is deterministic', async () => {
    const a = await run({ query: 'where is the cache directory configured' });
    const b = await run({ query: 'where is the cache directory configured' });
    expect(b).toEqual(a);
    expect(a.text).toContain('cacheDir option');
    expect(a.outcome.citations).toContain(sources[1]!.url);
  });

  it('summarize: the best section of each matching page, in search order, each cited', async () => {
    const { text, outcome } = await run({ mode: 'summarize', query: 'cache directory' });
    const body = text.split('\n\nSources:')[0]!;
    expect(body.indexOf('**Installation')).toBeLessThan(body.indexOf('**Configuration**'));
    expect(body).toContain('The cache directory is configurable with the cacheDir option. [2]');
    expect(outcome.citations).toEqual([sources[0]!.url, sources[1]!.url]);
  });

  it('chat: names the pages, no url list (the assistant appends its own)', async () => {
    const { text, outcome } = await run({ mode: 'chat', query: 'What does the deploy skill need?' });
    expect(text).toMatch(/^According to the "Deploy skill" page: .*SSH key/);
    expect(text).not.toContain('Sources:');
    expect(outcome.citations).toEqual([sources[2]!.url]);
  });

  it('says plainly that the docs do not cover a question nothing matches, and lists the closest pages', async () => {
    const { text, outcome } = await run({ query: 'how do I knit a scarf' });
    expect(outcome).toEqual({ backend: 'extractive', citations: [], status: 'not_covered' });
    expect(text).toBe(
      'The documentation does not cover this question. The closest pages are:\n\n' +
        sources.map((s) => `- [${s.title}](${s.url})`).join('\n'),
    );
    const none = await run({ sources: [] });
    expect(none.outcome).toEqual({ backend: 'extractive', citations: [], status: 'not_covered' });
  });

  it('keeps code blocks whole: a page with code in three languages gives three intact fences', async () => {
    const page: AnswerSource = {
      url: 'http://localhost:4321/docs/guide/clients',
      title: 'API clients',
      content: [
        '# API clients',
        '',
        '## Calling the search API',
        '',
        'Call the search API from any language; each example fetches the first page of results:',
        '',
        '```bash',
        "curl -s 'https://docs.example.com/api/search?query=deploy&limit=3'",
        '```',
        '',
        '```ts',
        "const res = await fetch('/api/search?query=deploy&limit=3');",
        '',
        'console.log(await res.json());',
        '```',
        '',
        '```python',
        'import requests',
        '',
        "print(requests.get('https://docs.example.com/api/search', params={'query': 'deploy'}).json())",
        '```',
        '',
        '## Other',
        '',
        'Unrelated text.',
      ].join('\n'),
    };
    const { text } = await run({ query: 'how do I call the search API', sources: [page] });
    for (const lang of ['bash', 'ts', 'python']) expect(text).toMatch(new RegExp('(^|\\n)```' + lang + '\\n[^`]+\\n```(\\n|$)'));
    expect(text).toContain("const res = await fetch('/api/search?query=deploy&limit=3');\n\nconsole.log(await res.json());\n```");
    expect(text.match(/^```/gm)).toHaveLength(6);
    // the citation follows the prose, never lands inside code (the ts block has a blank line in it)
    expect(text).toContain('each example fetches the first page of results: [1]\n\n```bash');
    for (const code of text.match(/^```[\s\S]*?^```$/gm)!) expect(code).not.toMatch(/\[\d\]/);
    expect(text).toContain('[1]: http://localhost:4321/docs/guide/clients#calling-the-search-api');
    expect(text).not.toContain('Unrelated');
  });

  it('keeps a list a list', async () => {
    const { text } = await run({ query: 'what are the requirements of the CLI' });
    expect(text).toContain('- Node 24\n- npm 11');
    expect(text).toContain('#requirements');
  });

  it('respects an aborted signal', async () => {
    const ac = new AbortController();
    ac.abort(new Error('gone'));
    await expect(run({ signal: ac.signal })).rejects.toThrow('gone');
  });

  it('finds cited sources by marker, url or title', () => {
    expect(citedSources('See [3] and [1][9].', sources)).toEqual([0, 2]);
    expect(citedSources('The Configuration page says so.', sources)).toEqual([1]);
    expect(citedSources(`Read ${sources[2]!.url}`, sources)).toEqual([2]);
  });
});

describe('model answers (loopback OpenAI-compatible server)', () => {
  const fake = useOpenAiServer();
  const llm = () => createLlmClient({ baseUrl: fake.url, model: 'm', connectTimeoutMs: 500, totalTimeoutMs: 3000, retries: 1 });

  it('streams the model text as it arrives, grounded in numbered Markdown sections, and cites them', async () => {
    fake.setMode('ok', { pieces: ['Run ', '`npm install -g widget-cli` ', '[1]. ', 'Needs Node 24 [2].'], delayMs: 10 });
    const { text, pieces, outcome } = await run({ llm: llm() });
    expect(outcome).toEqual({ backend: 'model', citations: [sources[0]!.url], status: 'answered' });
    expect(pieces.join('')).toMatch(/^Run `npm install -g widget-cli` \[1\]\. Needs Node 24 \[2\]\./);
    expect(pieces.length).toBeGreaterThan(2);
    const sent = fake.requests[0]!.body;
    expect(sent.stream).toBe(true);
    expect(sent.messages[0].role).toBe('system');
    expect(sent.messages[0].content).toMatch(/ONLY the numbered sources/);
    expect(sent.messages[0].content).toMatch(/Answer in Markdown/);
    expect(sent.messages[0].content).toContain('[1] Installation (http://localhost:4321/docs/getting-started/installation)\nInstall the CLI with `npm install -g widget-cli`.');
    expect(sent.messages[0].content).toContain('```sh\nnpm install -g widget-cli\n```');
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'How do I install the CLI?' });
    // the numbers cited, each linking to the section the prompt gave under that number
    const listed = [...sent.messages[0].content.matchAll(/^\[(\d)\] .* \((http[^)]+)\)$/gm)].map((m) => [m[1], m[2]]);
    for (const [n, url] of listed.filter(([n]) => n === '1' || n === '2')) expect(text).toContain(`[${n}]: ${url}`);
  });

  it('drops a citation the model made up (a number no source has), keeping the real ones', async () => {
    fake.setMode('ok', { pieces: ['Install it with npm [1][', '7]. See also [9', '].'] });
    const { text, outcome } = await run({ llm: llm() });
    expect(text.startsWith('Install it with npm [1]. See also.')).toBe(true);
    expect(text).not.toMatch(/\[[79]\]/);
    expect(outcome.citations).toEqual([sources[0]!.url]);
  });

  it('gives the model the part of a section\'s one long paragraph that matches, not nothing', async () => {
    fake.setMode('ok', { pieces: ['Set the port [1].'] });
    const filler = Array.from({ length: 1000 }, (_, i) => `Sentence ${i} is about something else.`);
    filler[700] = 'The dev server listens on port 5173 unless you set another.';
    const long: AnswerSource = { url: 'http://localhost:4321/docs/guide/server', title: 'Dev server', content: `# Dev server\n\n${filler.join(' ')}\n` };
    await run({ llm: llm(), query: 'which port does the dev server listen on', sources: [long] });
    const system: string = fake.requests.at(-1)!.body.messages[0].content;
    expect(system).toContain('[1] Dev server (http://localhost:4321/docs/guide/server)\n… ');
    expect(system).toContain('The dev server listens on port 5173 unless you set another.');
    expect(system.length).toBeLessThan(20_000); // the paragraph alone is ≈37,000 characters
  });

  it('gives the model the words that match of a first block that is one endless sentence', async () => {
    fake.setMode('ok', { pieces: ['It listens on 5173 [1].'] });
    const words = Array.from({ length: 8000 }, (_, i) => (i === 6000 ? 'listens on port 5173' : `word${i % 50}`));
    const long: AnswerSource = { url: 'http://localhost:4321/docs/guide/server', title: 'Dev server', content: `# Dev server\n\n${words.join(' ')}\n` };
    await run({ llm: llm(), query: 'which port does the dev server listen on 5173', sources: [long] });
    const system: string = fake.requests.at(-1)!.body.messages[0].content;
    expect(system).toContain('listens on port 5173');
  });

  it('does not call the model for a question the sources do not cover', async () => {
    const before = fake.requests.length;
    const { text, outcome } = await run({ llm: llm(), query: 'how do I knit a scarf' });
    expect(outcome.status).toBe('not_covered');
    expect(text).toMatch(/^The documentation does not cover this question/);
    expect(fake.requests.length).toBe(before);
  });

  it('chat: passes the history and a custom system prompt; sources still appended', async () => {
    fake.setMode('ok', { pieces: ['The Deploy skill page says you need an SSH key.'] });
    const history = [
      { role: 'user' as const, content: 'What is deploy?' },
      { role: 'assistant' as const, content: 'A skill.' },
    ];
    const { text, outcome } = await run({ llm: llm(), mode: 'chat', query: 'What does it need?', history, system: 'You are the portfolio assistant.' });
    expect(text).toBe('The Deploy skill page says you need an SSH key.');
    expect(outcome.citations).toEqual([sources[2]!.url]);
    const sent = fake.requests[0]!.body.messages;
    expect(sent[0].content.startsWith('You are the portfolio assistant.\n')).toBe(true);
    expect(sent[0].content).toContain('[3] Deploy skill');
    expect(sent.slice(1)).toEqual([...history, { role: 'user', content: 'What does it need?' }]);
  });

  it('a model that cites nothing cites the pages of every section it was given, and lists none', async () => {
    fake.setMode('ok', { pieces: ['Use npm.'] });
    const { text, outcome } = await run({ llm: llm(), query: 'where is the cache directory' });
    expect([...outcome.citations].sort()).toEqual([sources[1]!.url, sources[0]!.url]);
    expect(text).toBe('Use npm.');
  });

  it("model down + onModelFailure 'extractive' → extractive answer with a fallback reason", async () => {
    const port = await closedPort();
    const down = createLlmClient({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', connectTimeoutMs: 200, totalTimeoutMs: 1000, retries: 0 });
    const { text, outcome } = await run({ llm: down });
    expect(outcome.backend).toBe('extractive');
    expect(outcome.fallbackReason).toMatch(/^model unavailable: /);
    expect(text).toContain('[1]');
  });

  it("model down + onModelFailure 'throw' → LlmUnavailableError", async () => {
    const port = await closedPort();
    const down = createLlmClient({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', connectTimeoutMs: 200, totalTimeoutMs: 1000, retries: 0 });
    await expect(run({ llm: down, onModelFailure: 'throw' })).rejects.toBeInstanceOf(LlmUnavailableError);
  });

  it('a model that stops midway: extractive continuation (docs) or rethrow (assistant)', async () => {
    fake.setMode('midstream', { pieces: ['Partial'], delayMs: 20 });
    const a = await run({ llm: llm() });
    expect(a.outcome.backend).toBe('extractive');
    expect(a.outcome.fallbackReason).toMatch(/^model stream interrupted: /);
    expect(a.text.startsWith('Partial\n\n[The model stopped responding')).toBe(true);
    await expect(run({ llm: llm(), onModelFailure: 'throw' })).rejects.toBeInstanceOf(LlmUnavailableError);
  });

  it('an abort stops the model stream and rejects with the reason (no fallback)', async () => {
    fake.setMode('ok', { pieces: ['a', 'b', 'c'], delayMs: 200 });
    const ac = new AbortController();
    const reason = new Error('client closed');
    const p = run({ llm: llm(), signal: ac.signal, onText: () => ac.abort(reason) });
    await expect(p).rejects.toBe(reason);
  });
});
