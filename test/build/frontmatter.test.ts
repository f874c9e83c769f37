// A bad frontmatter must fail the build and name the file and the field.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite, removeDir } from '../helpers/fixture.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function contentWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-docs-bad-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('frontmatter validation', () => {
  it('fails the build naming the file and the missing field', async () => {
    const dir = contentWith({
      'docs/guide/good.md': '---\ntitle: Good\n---\n\nFine.\n',
      'docs/guide/broken.md': '---\ndescription: no title here\n---\n\nBody.\n',
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

  it('fails the build when a file does not fit /docs/<section>/<page>', async () => {
    const dir = contentWith({ 'docs/too/deep/page.md': '---\ntitle: Deep\n---\n\nBody.\n' });
    const { code, output, distDir } = await buildSite(dir);
    dirs.push(distDir);
    expect(code).not.toBe(0);
    expect(output).toContain('docs/too/deep/page');
  }, 120_000);
});
