// A passage is quoted only when it holds enough of the question itself (passages.ts PASSAGE_THRESHOLD): a section can
// cover a question in blocks its passage leaves out, and then the answer says the docs do not cover it.
import { describe, expect, it } from 'vitest';
import { answer, type AnswerSource } from '../../gateway/engine/answer.ts';

const page = (path: string, title: string, body: string): AnswerSource => ({ url: `http://localhost/docs/${path}`, title, content: `# ${title}\n\n${body}\n` });

describe('passages that hold the question', () => {
  it('does not quote a passage that holds little of the question, whatever its section holds elsewhere', async () => {
    // the section holds every word of the question in a workflow's code; its best paragraph holds one of them
    const workflow = '```yaml\n# a GitHub pull request from a fork branch\non:\n  pull_request:\n    branches: [main]\n```';
    const sharding = page('sharding', 'Improving Performance', `## Sharding\n\nSplit the suite into shards.\n\n${workflow}\n\nIf your tests create attachments, upload them in the merge job as shown above.`);
    let text = '';
    const outcome = await answer({ query: 'create a pull request from a fork branch on GitHub', mode: 'generate', sources: [sharding], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(outcome.status).toBe('not_covered');
    expect(text).toMatch(/^The documentation does not cover this question/);
    // the same section answers a question its paragraph holds
    text = '';
    await answer({ query: 'upload attachments in the merge job', mode: 'generate', sources: [sharding], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(text).toContain('If your tests create attachments, upload them in the merge job as shown above. [1]');
  });

  it('summarize: a page whose passage is left out gives its place to the next, read in the search order', async () => {
    const workflow = '```yaml\n# a GitHub pull request from a fork branch\non:\n  pull_request:\n    branches: [main]\n```';
    const sharding = page('sharding', 'Improving Performance', `## Sharding\n\nSplit the suite into shards.\n\n${workflow}\n\nIf your tests create attachments, upload them in the merge job as shown above.`);
    const guides = [1, 2, 3].map((i) => page(`guide-${i}`, `Contributing ${i}`, `Create a pull request from your fork's branch on GitHub (step ${i}).`));
    let text = '';
    const outcome = await answer({ query: 'create a pull request from a fork branch on GitHub', mode: 'summarize', sources: [sharding, ...guides], onModelFailure: 'extractive', onText: (t) => (text += t) });
    expect(outcome.citations).toEqual(guides.map((g) => g.url));
    expect(text).not.toContain('attachments');
  });
});
