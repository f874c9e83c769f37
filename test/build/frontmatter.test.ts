// A bad frontmatter must fail the build and name the file and the field.
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite, removeDir, writeTree } from '../helpers/fixture.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function contentWith(files: Record<string, string>): string {
  const dir = writeTree(files, 'agent-docs-bad-');
  dirs.push(dir);
  return dir;
}

describe('frontmatter validation', () => {
  it('fails the build naming the file and the bad field', async () => {
    const dir = contentWith({
      'docs/guide/good.md': '---\ntitle: Good\n---\n\nFine.\n',
      'docs/guide/broken.md': '---\ntitle: 42\ndescription: a title that is not text\n---\n\nBody.\n',
    });
    const { code, output, distDir } = await buildSite(dir);
    dirs.push(distDir);
    expect(code).not.toBe(0);
    expect(output).toContain('broken.md');
    expect(output).toMatch(/title/);
  }, 120_000);

  it('fails the build on an unknown content type, naming the field', async () => {
    const dir = contentWith({ 'docs/guide/typo.md': '---\ntitle: Typo\ntype: skil\n---\n\nBody.\n' });
    const { code, output, distDir } = await buildSite(dir);
    dirs.push(distDir);
    expect(code).not.toBe(0);
    expect(output).toContain('typo.md');
    expect(output).toMatch(/type/);
  }, 120_000);
});
