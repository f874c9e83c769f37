// The ids VitePress gives headings (src/markdown/heading-ids.ts), which links written for a
// VitePress site use: the reading plugin adds them as anchors, the docs model checks links with them.
import { describe, expect, it } from 'vitest';
import { vitepressSlug } from '../../src/markdown/heading-ids.ts';
import { htmlIds } from '../../src/lib/foreign-mdx.ts';

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

describe('ids written in HTML (the link check counts them as sections)', () => {
  it('reads any element’s id and an a element’s name, quoted or not', () => {
    expect(htmlIds('<a id="factory"></a>')).toEqual(['factory']);
    expect(htmlIds(`<a name='hijack'></a> and <span class="x" id=bare>`)).toEqual(['hijack', 'bare']);
    expect(htmlIds('<div name="field"><h3 ID="Upper"></h3>')).toEqual(['Upper']);
  });

  it('leaves out tags shown in inline code, empty ids and attributes that only end in id', () => {
    expect(htmlIds('write `<a id="shown">` to add one')).toEqual([]);
    expect(htmlIds('<a id=""></a><input data-id="x" grid="y">')).toEqual([]);
  });

  it('reads a long line of unclosed tags in one pass', () => {
    expect(htmlIds('<a '.repeat(50_000) + 'id="end">')).toEqual(['end']);
  });
});
