// Build-time highlighting (src/markdown/highlight.ts): the tokenizing runs in a worker thread and answers the same
// runs as in this thread, and a block's highlighting never depends on the blocks before it (an embedded grammar, such
// as YAML front matter in Markdown, is loaded before the first block).
import type { ElementContent } from 'hast';
import { describe, expect, it } from 'vitest';
import { highlightLines } from '../../src/markdown/highlight.ts';
import { tokenRuns, type LineRuns } from '../../src/markdown/highlight-tokens.ts';

/** hast lines back to runs, to compare with the tokenizer's own answer. */
const runsOf = (lines: ElementContent[][]): LineRuns[] =>
  lines.map((line) =>
    line.map((node) =>
      node.type === 'element' ? [String((node.properties.className as string[])[0]), (node.children[0] as { value: string }).value] : ['', (node as { value: string }).value],
    ),
  );

describe('highlighting', () => {
  it('colours YAML front matter in a Markdown block that is the first block of the build', async () => {
    const lines = await highlightLines('---\nname: docs-qa\n---\n\n# Title', 'markdown');
    expect(runsOf(lines)[1]).toEqual([['k', 'name: '], ['s', 'docs-qa']]);
  });

  it('gives the same runs through the worker as in this thread, for every language at once', async () => {
    const blocks: [string, string][] = [
      ['typescript', 'const answer: number = 42; // the answer\nexport function f(x: string) { return `${x}!`; }'],
      ['bash', 'npm run build && PORT=8080 npm start'],
      ['json', '{ "type": "about:blank", "status": 400 }'],
      ['html', '<script>let a = 1</script>\n<style>p { color: red }</style>'],
      ['nginx', 'location / { try_files $uri $uri.html =404; }'],
    ];
    const answers = await Promise.all(blocks.map(([grammar, code]) => highlightLines(code, grammar)));
    for (const [i, [grammar, code]] of blocks.entries()) expect(runsOf(answers[i]!)).toEqual(await tokenRuns(code, grammar));
  });

  it('leaves a block in an unknown language as plain lines', async () => {
    expect(runsOf(await highlightLines('a\n\nb', 'klingon'))).toEqual([[['', 'a']], [], [['', 'b']]]);
  });
});
