// What other tools' components show once read as Markdown (src/lib/tool-components.ts): the same lead for the HTML
// and the twin, from the attributes each tool names its labels with.
import { describe, expect, it } from 'vitest';
import { pageTwin } from '../../src/lib/markdown-twin.ts';
import { TAG_VALUE, codeSpan, componentLead, expressionText, leadMarkdown } from '../../src/lib/tool-components.ts';

const lead = (name: string, attributes: Record<string, string>) => {
  const found = componentLead(name, (key) => attributes[key]);
  return found && leadMarkdown(found);
};

describe('a component read as Markdown', () => {
  it('leads with its label, in bold: tabs, steps, accordions, changelog entries, callouts', () => {
    expect(lead('TabItem', { label: 'npm' })).toBe('**npm**');
    expect(lead('Tab', { title: 'Windows' })).toBe('**Windows**');
    expect(lead('Step', { title: 'Install' })).toBe('**Install**');
    expect(lead('Accordion', { title: 'Why?' })).toBe('**Why?**');
    expect(lead('Expandable', { title: 'properties' })).toBe('**properties**');
    expect(lead('Update', { label: '2026-11-27' })).toBe('**2026-11-27**');
    expect(lead('Note', {})).toBe('**Note**');
    expect(lead('Warning', { title: 'Careful' })).toBe('**Careful**');
    expect(lead('Aside', { type: 'caution' })).toBe('**Caution**');
  });

  it('is a link when it points somewhere: a card with an href, Starlight’s link card with its description', () => {
    expect(lead('Card', { title: 'Publish', href: '/cli/publish' })).toBe('[Publish](/cli/publish)');
    expect(lead('Card', { title: 'Routing' })).toBe('**Routing**');
    expect(lead('LinkCard', { title: 'Env', href: '/env', description: 'Secrets at build time.' })).toBe('[Env](/env): Secrets at build time.');
  });

  it('names a reference field as code, with its type and default', () => {
    expect(lead('ParamField', { path: '--tag', type: 'string', default: 'latest' })).toBe('**`--tag`** `string` (default `latest`)');
    expect(lead('ParamField', { query: 'limit', type: 'number' })).toBe('**`limit`** `number`');
    expect(lead('ResponseField', { name: 'id' })).toBe('**`id`**');
    expect(lead('ParamField', {})).toBeUndefined();
    expect(codeSpan('a `b` c')).toBe('``a `b` c``');
    expect(codeSpan('`edge')).toBe('`` `edge ``');
  });

  it('reads an attribute written as an expression: a string literal, a JSX element’s text, nothing else', () => {
    expect(expressionText('<span>How <code>bun create</code> works</span>')).toBe('How bun create works');
    expect(expressionText(" 'Windows' ")).toBe('Windows');
    expect(expressionText('labels.windows')).toBeUndefined();
    const tag = new RegExp(String.raw`^<[A-Z]\w*(?:[^<>"'{}]|${TAG_VALUE})*>$`);
    expect(tag.test('<Accordion title={<span>a <code>b</code></span>} open>')).toBe(true);
    expect(tag.test('<Frame style={{ width: 1 }}>')).toBe(true);
    // an expression never closed is no tag (and is told in one pass: a backtracking pattern would not return here)
    expect(tag.test(`<A ${'{'.repeat(50_000)}>`)).toBe(false);
  });

  it('leads the twin of a page compiled as MDX the same way, a title written as an expression included', () => {
    const body = '<Accordion title={<span>How <code>x</code> works</span>}>\n\nBody.\n\n</Accordion>\n\n<Tab title="npm">\n\nnpm i\n\n</Tab>\n';
    const { markdown } = pageTwin({ title: 'Page', body, isMdx: true });
    expect(markdown).toContain('**How x works**\n\nBody.');
    expect(markdown).toContain('**npm**');
  });

  it('shows nothing of a component it does not know', () => {
    expect(lead('Frame', { caption: 'A picture' })).toBeUndefined();
  });
});
