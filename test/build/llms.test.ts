// llms.txt past its 50,000-character budget splits into per-section files.
import { describe, expect, it } from 'vitest';
import type { DocPage, DocsModel, Section } from '../../src/lib/docs.ts';
import { isSplit, llmsBudget, rootLlms, sectionLlms } from '../../src/lib/llms.ts';

function syntheticModel(sectionCount: number, pagesPerSection: number): DocsModel {
  const sections: Section[] = [];
  for (let s = 0; s < sectionCount; s++) {
    const slug = `section-${s}`;
    const pages = Array.from({ length: pagesPerSection }, (_, p) => ({
      path: `/docs/${slug}/page-${p}`,
      section: slug,
      page: `page-${p}`,
      title: `Page ${p} of section ${s}`,
      description: `What page ${p} of section ${s} explains, in one sentence long enough to be realistic.`,
      type: 'docs',
    })) as unknown as DocPage[];
    sections.push({ slug, title: `Section ${s}`, type: 'docs', pages });
  }
  const pages = sections.flatMap((s) => s.pages);
  return { sections, pages, byPath: new Map(pages.map((p) => [p.path, p])) };
}

describe('llms.txt size budget', () => {
  it('keeps a small site in one file', () => {
    const model = syntheticModel(3, 5);
    expect(isSplit(model)).toBe(false);
    const text = rootLlms(model);
    expect(text).toContain('## Section 2');
    expect(text).toContain('/docs/section-2/page-4.md');
  });

  it('splits a large site into per-section files linked from the root', () => {
    const model = syntheticModel(40, 50);
    expect(isSplit(model)).toBe(true);
    const root = rootLlms(model);
    expect(root.length).toBeLessThan(llmsBudget);
    expect(root).toMatch(/^# .+\n\n> .+/);
    expect(root).toContain('## Sections');
    for (const s of model.sections) expect(root).toContain(`/docs/${s.slug}/llms.txt): 50 pages`);
    // a section of one page is counted in the singular
    const lone = syntheticModel(40, 50);
    lone.sections[0]!.pages.splice(1);
    expect(rootLlms(lone)).toContain('/docs/section-0/llms.txt): 1 page\n');
    const one = sectionLlms(model.sections[7]!);
    expect(one).toMatch(/^# .+: Section 7\n\n> /);
    expect(one.split('\n').filter((l) => l.startsWith('- ')).length).toBe(50);
  });
});
