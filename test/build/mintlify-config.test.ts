// Mintlify's docs.json (src/lib/mintlify-config.ts): the reading order its navigation gives, whatever holds the pages.
import { describe, expect, it } from 'vitest';
import { navigationOrder } from '../../src/lib/mintlify-config.ts';

describe('a Mintlify navigation', () => {
  it('lists the pages of every `pages` list in the order the file writes them, nested groups included', () => {
    const docs = { navigation: { tabs: [{ tab: 'Guides', groups: [{ group: 'Start', pages: ['index', { group: 'More', pages: ['guides/a', '/guides/b.mdx'] }] }] }, { tab: 'API', pages: ['api/x', 'index'] }] } };
    expect([...navigationOrder(docs)]).toEqual([['index', 0], ['guides/a', 1], ['guides/b', 2], ['api/x', 3]]);
  });

  it('reads mint.json’s older shape (a list of groups) and ignores what is not a page', () => {
    const mint = { navigation: [{ group: 'Start', icon: 'rocket', pages: ['quickstart'] }, { anchors: [{ name: 'Blog', url: 'https://example.com' }] }] };
    expect([...navigationOrder(mint)]).toEqual([['quickstart', 0]]);
    expect(navigationOrder(undefined).size).toBe(0);
    expect(navigationOrder({ navigation: 'nonsense' }).size).toBe(0);
  });
});
