// Mintlify's docs.json (src/lib/mintlify-config.ts): the reading order its navigation gives, whatever holds the pages.
import { describe, expect, it } from 'vitest';
import { mintlifyNavigation, partNameOf } from '../../src/lib/mintlify-config.ts';

const navigationOrder = (config: Record<string, unknown> | undefined) => mintlifyNavigation(config).order;

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

  it('names a folder by the outermost part that holds all its listed pages and nothing else, as Bun’s tabs do', () => {
    const bun = { navigation: { tabs: [
      { tab: 'Runtime', groups: [{ group: 'Get Started', pages: ['/index', '/runtime/init'] }, { group: 'Core', pages: ['/runtime/watch', '/runtime/repl'] }, { group: 'Contributing', pages: ['/project/roadmap'] }] },
      { tab: 'Package Manager', groups: [{ group: 'Core Commands', pages: ['/pm/cli/install'] }, { group: 'Advanced', pages: ['/pm/lockfile'] }] },
    ] } };
    const { parts } = mintlifyNavigation(bun);
    const folder = (...pages: string[]) => new Set(pages);
    expect(partNameOf(parts, folder('pm/cli/install', 'pm/lockfile', 'pm/unlisted'), folder('pm/cli/install', 'pm/lockfile'))).toBe('Package Manager');
    expect(partNameOf(parts, folder('project/roadmap'), folder('project/roadmap'))).toBe('Contributing');
    // runtime/ shares its tab with the root's pages and its groups hold only some of it
    expect(partNameOf(parts, folder('runtime/init', 'runtime/watch', 'runtime/repl'), folder('runtime/init', 'runtime/watch', 'runtime/repl'))).toBeUndefined();
    expect(partNameOf(parts, folder('lint/a'), folder())).toBeUndefined();
  });
});
