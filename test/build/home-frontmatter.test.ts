// A home page's words in its frontmatter (src/lib/home-frontmatter.ts): VitePress's `hero` and `features`, Starlight's
// splash `hero`, written out as Markdown in front of the body, in the frontmatter's blank lines when they fit.
import { describe, expect, it } from 'vitest';
import { homeMarkdown, withHome } from '../../src/lib/home-frontmatter.ts';

describe('home page frontmatter', () => {
  it('writes the hero and the features of VitePress, and Starlight’s tagline and actions', () => {
    const vitepress = {
      hero: { name: 'VitePress', text: 'Static Site Generator', tagline: 'Markdown to docs', actions: [{ text: 'Start', link: '/guide/' }, { theme: 'alt' }] },
      features: [{ title: 'Fast', details: 'Instant  start.' }, { title: 'Linked', link: '/x' }, { icon: '⚡' }],
    };
    expect(homeMarkdown(vitepress)).toEqual(['**VitePress**: Static Site Generator', '', 'Markdown to docs', '', '[Start](/guide/)', '', '- **Fast**: Instant start.', '- [**Linked**](/x)', '']);
    expect(homeMarkdown({ hero: { tagline: 'Docs that work', actions: [{ text: 'Go', link: '/a' }, { text: 'More', link: '/b' }] } })).toEqual(['Docs that work', '', '[Go](/a) · [More](/b)', '']);
    expect(homeMarkdown({ layout: 'home', hero: 'nope', features: 'nope' })).toEqual([]);
  });

  it('puts it in the frontmatter’s blank lines when it fits, so the body keeps its line numbers', () => {
    const front = { hero: { tagline: 'Tag' } };
    expect(withHome(front, '\n\n\n\nBody', 4)).toBe('Tag\n\n\n\nBody');
    expect(withHome(front, 'Body')).toBe('Tag\n\nBody');
    expect(withHome({}, 'Body')).toBe('Body');
  });
});
