// The evaluation's measures of an answer's text (scripts/lib/eval/metrics.ts): what `npm run eval` counts as broken
// fences, repeated passages and a lead-in left announcing nothing. The counts are reported, never asserted; these
// tests check that each measure reads Markdown as a reader would.
import { describe, expect, it } from 'vitest';
import { answerShape, fencesIntact } from '../scripts/lib/eval/metrics.ts';

const sources = '\n\nSources:\n\n- [1] [Page](https://docs.example.com/docs/page)\n\n[1]: https://docs.example.com/docs/page';

describe('answerShape', () => {
  it('finds a paragraph quoted twice, markers aside, and the same code under another fence or title', () => {
    const paragraph = 'Check thresholds per file, as the coverage options describe them.';
    expect(answerShape(`${paragraph} [1]\n\n${paragraph} [2]${sources}`).repeated).toBe(true);
    expect(answerShape('Run:\n\n```ts index.ts\nconst answer = await fetchTheAnswerFromTheServer()\n```\n\nOr:\n\n~~~ts\nconst answer = await fetchTheAnswerFromTheServer()\n~~~').repeated).toBe(true);
    // short blocks (a tab's label, "Or:") repeat by nature
    expect(answerShape('**npm**\n\n```sh\nnpm i\n```\n\n**npm**\n\n```sh\nnpm ci\n```').repeated).toBe(false);
  });

  it('finds a lead-in with nothing after it, not one followed by its code, nor a colon inside code', () => {
    expect(answerShape(`Here is a sample workflow: [1]${sources}`).dangling).toBe(true);
    expect(answerShape(`Here is a sample workflow: [1]\n\n\`\`\`yaml\nname: deploy\n\`\`\`${sources}`).dangling).toBe(false);
    expect(answerShape('```py\nif ready:\n```').dangling).toBe(false);
    // a blank line inside a fence does not end the block
    expect(answerShape('```py\nif ready:\n\n    go()\nelse:\n```\n\nDone.').dangling).toBe(false);
  });

  it('agrees with fencesIntact on the answers it reads', () => {
    const answer = `Install it: [1]\n\n\`\`\`sh\nnpm i -D vitest\n\`\`\`${sources}`;
    expect(fencesIntact(answer)).toBe(true);
    expect(answerShape(answer)).toEqual({ repeated: false, dangling: false });
  });
});
