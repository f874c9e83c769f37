// What other tools' components show once read as Markdown (src/lib/tool-components.ts): the same lead for the HTML
// and the twin, from the attributes each tool names its labels with.
import { describe, expect, it } from 'vitest';
import { codeSpan, componentLead, leadMarkdown } from '../../src/lib/tool-components.ts';

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

  it('shows nothing of a component it does not know', () => {
    expect(lead('Frame', { caption: 'A picture' })).toBeUndefined();
  });
});
