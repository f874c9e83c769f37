// The ids VitePress gives headings (src/markdown/heading-ids.ts), which links written for a
// VitePress site use: the reading plugin adds them as anchors, the docs model checks links with them.
import { describe, expect, it } from 'vitest';
import { vitepressSlug } from '../../src/markdown/heading-ids.ts';

describe('VitePress heading ids', () => {
  it('turn punctuation and spaces into single dashes, lower-cased, as VitePress does', () => {
    expect(vitepressSlug('userEvent.type')).toBe('userevent-type');
    expect(vitepressSlug('vi.fn')).toBe('vi-fn');
    expect(vitepressSlug('sitemap.xml and robots.txt')).toBe('sitemap-xml-and-robots-txt');
    expect(vitepressSlug('coverage.thresholds[glob-pattern]')).toBe('coverage-thresholds-glob-pattern');
  });

  it('fold accents, drop control characters, and keep an id from starting with a digit', () => {
    expect(vitepressSlug('Café au lait')).toBe('cafe-au-lait');
    expect(vitepressSlug('1. Initialization Phase')).toBe('_1-initialization-phase');
    expect(vitepressSlug('--flag\u0007')).toBe('flag');
  });
});
