// The manifest's runtime slice (gateway/engine/manifest.ts): read instead of the whole
// manifest only while it was cut from that very manifest.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RUNTIME_MANIFEST_FILE, loadManifest, writeRuntimeManifest } from '../../gateway/engine/manifest.ts';

const dir = mkdtempSync(join(tmpdir(), 'agent-docs-manifest-'));
const sliceFile = join(dir, RUNTIME_MANIFEST_FILE);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeManifest(title: string): void {
  const page = (n: number) => ({
    path: `/docs/guide/p${n}`, title: `${title} ${n}`, description: 'd', type: 'docs', section: 'guide', md: `docs/guide/p${n}.md`,
    hash: 'sha256-x', order: n, headings: [{ depth: 2, slug: 'a', text: 'A' }],
  });
  const manifest = { manifestVersion: 1, buildId: '0123456789abcdef', site: { url: 'http://x', name: 'X', description: '', version: '1' }, pages: [page(1), page(2)] };
  writeFileSync(join(dir, 'build-manifest.json'), JSON.stringify(manifest));
}

describe('runtime manifest slice', () => {
  it('holds the runtime fields only and loads like the manifest itself', async () => {
    writeManifest('Page');
    await writeRuntimeManifest(dir, sliceFile);
    const slice = JSON.parse(readFileSync(sliceFile, 'utf8')) as { manifest: { pages: Record<string, unknown>[] } };
    expect(slice.manifest.pages[0]).not.toHaveProperty('headings');
    const whole = await loadManifest(dir);
    expect(await loadManifest(dir, { runtimeSlice: sliceFile })).toEqual(whole);
    expect(whole.pages[0]).toEqual({ path: '/docs/guide/p1', title: 'Page 1', description: 'd', type: 'docs', section: 'guide', md: 'docs/guide/p1.md' });
  });

  it('is read instead of the manifest while its hash matches, and ignored once the manifest changes', async () => {
    writeManifest('Page');
    await writeRuntimeManifest(dir, sliceFile);
    const slice = JSON.parse(readFileSync(sliceFile, 'utf8')) as { manifest: { pages: { title: string }[] } };
    slice.manifest.pages[0]!.title = 'From the slice';
    writeFileSync(sliceFile, JSON.stringify(slice));
    expect((await loadManifest(dir, { runtimeSlice: sliceFile })).pages[0]!.title).toBe('From the slice');
    writeManifest('Rebuilt'); // a new build without a new slice
    expect((await loadManifest(dir, { runtimeSlice: sliceFile })).pages[0]!.title).toBe('Rebuilt 1');
  });

  it('falls back to the manifest when the slice is missing, unreadable or cut by another schema', async () => {
    writeManifest('Page');
    expect((await loadManifest(dir, { runtimeSlice: join(dir, 'missing.json') })).pages).toHaveLength(2);
    writeFileSync(sliceFile, '{not json');
    expect((await loadManifest(dir, { runtimeSlice: sliceFile })).pages[0]!.title).toBe('Page 1');
    // the slice is the schema's output and is not validated again: one written under another schema (an older
    // gateway's build, or one without the schema's hash) is ignored
    for (const schemaSha256 of ['0'.repeat(64), undefined]) {
      await writeRuntimeManifest(dir, sliceFile);
      const slice = JSON.parse(readFileSync(sliceFile, 'utf8')) as { schemaSha256?: string; manifest: { pages: { title: string }[] } };
      slice.schemaSha256 = schemaSha256;
      slice.manifest.pages[0]!.title = 'From another schema';
      writeFileSync(sliceFile, JSON.stringify(slice));
      expect((await loadManifest(dir, { runtimeSlice: sliceFile })).pages[0]!.title).toBe('Page 1');
    }
  });
});
