// llms.txt past its 50,000-character budget splits into per-section files; llms-full.txt, written by the build
// page by page, is the text `astro dev` serves from the docs model.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DocPage, DocsModel, Section } from '../../src/lib/docs.ts';
import { fullLlms, isSplit, llmsBudget, rootLlms, sectionLlms } from '../../src/lib/llms.ts';
import { LLMS_FULL_FILE, writeLlmsFull } from '../../src/integration/llms-full.ts';
import { fixtureBuild } from '../helpers/manifest.ts';

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

describe('llms-full.txt', () => {
  it('is written from the twins, in the manifest order, as the dev server renders it from the model', async () => {
    // pages of ≈340 KB: the writer's chunks of a million characters end inside the list
    const model = syntheticModel(2, 3);
    const root = mkdtempSync(join(tmpdir(), 'llms-full-'));
    try {
      for (const [k, page] of model.pages.entries()) (page as { markdown: string }).markdown = `# ${page.title}\n\n${`Text of page ${k} → `.repeat(20_000)}\n`;
      const pages = model.pages.map((p) => ({ path: p.path, md: `${p.path.slice(1)}.md` }));
      writeFileSync(join(root, 'build-manifest.json'), JSON.stringify({ pages }));
      for (const [k, p] of pages.entries()) {
        mkdirSync(dirname(join(root, p.md)), { recursive: true });
        writeFileSync(join(root, p.md), model.pages[k]!.markdown);
      }
      await writeLlmsFull(root);
      expect(readFileSync(join(root, LLMS_FULL_FILE), 'utf8')).toBe(fullLlms(model));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('carries every page of the fixture build, each with its twin', () => {
    const { distDir, manifest } = fixtureBuild();
    const siteDir = join(distDir, 'site');
    const { name, description, url } = manifest.site;
    const twins = manifest.pages.map((p) => `---\n\nSource: ${url}${p.path}\n\n${readFileSync(join(siteDir, p.md), 'utf8')}`);
    expect(readFileSync(join(siteDir, LLMS_FULL_FILE), 'utf8')).toBe([`# ${name}\n\n> ${description}\n`, ...twins].join('\n'));
  });
});
