// The batch body assembled from cached encoded twins must be byte for byte
// JSON.stringify({ results }) — escapes, non-ASCII, errors and duplicates included.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ManifestPage } from '../../gateway/engine/manifest.ts';
import { batchBody, runBatch } from '../../gateway/docs/pages.ts';
import type { DocsRuntime } from '../../gateway/docs/runtime.ts';
import { createSiteFiles } from '../../gateway/static/files.ts';

const dir = mkdtempSync(join(tmpdir(), 'batch-body-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const twins: Record<string, string> = {
  a: '# A\n\n"quoted" \\ back\\slash\ttab\r\n\u0001\u001f ctrl, </script> & <b>\n',
  b: 'Ünïcödé — 日本語 😀 \u2028\u2029 line separators\n```js\nconst s = "x\\n";\n```\n',
  c: '',
};
mkdirSync(join(dir, 'docs', 's'), { recursive: true });
for (const [k, v] of Object.entries(twins)) writeFileSync(join(dir, 'docs', 's', `${k}.md`), v);

const page = (name: string, title: string): ManifestPage => ({ path: `/docs/s/${name}`, title, description: '', type: 'docs', section: 's', md: `docs/s/${name}.md` });
const pages = [page('a', 'A "title" \\ with escapes'), page('b', 'B — ünïcode 😀'), page('c', 'Empty'), page('gone', 'Twin missing')];
const rt = { pages: new Map(pages.map((p) => [p.path, p])), files: createSiteFiles(dir) } as unknown as DocsRuntime;

describe('batchBody', () => {
  it('is byte-identical to JSON.stringify of runBatch, cold and cached', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const paths = ['/docs/s/a', '/docs/s/b.md', '/docs/s/a.md', '/docs/s/a', '/docs/s/c', '/docs/s/gone', '/docs/s/none', '/docs/../x', 'relative', '/docs/s/%61', '/docs/s/"q"'];
    for (let round = 0; round < 2; round++) {
      const expected = Buffer.from(JSON.stringify(await runBatch(rt, paths)), 'utf8');
      const got = (await batchBody(rt, paths)).toBuffer();
      expect(got.toString('utf8')).toBe(expected.toString('utf8'));
      expect(got.equals(expected)).toBe(true);
    }
    vi.restoreAllMocks();
  });
});
