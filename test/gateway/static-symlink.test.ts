// Static files are contained by their real path: a symlink inside the served tree
// that points outside it is not followed (404), whatever its name or depth.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureBuild } from '../helpers/manifest.ts';
import { copyDist, roomyEnv, useGateway } from './helpers.ts';

const { distDir, manifest } = fixtureBuild();
const copy = copyDist(distDir);
const outside = mkdtempSync(join(tmpdir(), 'agent-docs-outside-'));
writeFileSync(join(outside, 'secret.txt'), 'not part of the site\n');
writeFileSync(join(outside, 'page.html'), '<p>not part of the site</p>\n');
const site = join(copy, 'site');
symlinkSync(join(outside, 'secret.txt'), join(site, 'leak.txt'));
symlinkSync(join(outside, 'page.html'), join(site, 'docs', 'leak.html'));
symlinkSync(outside, join(site, 'outside-dir'));
// A link that stays inside the tree is still served.
symlinkSync(join(site, 'llms.txt'), join(site, 'llms-link.txt'));

afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('symlinks in the served tree', () => {
  const gw = useGateway(copy, roomyEnv);

  it('answers 404 for a link (file or directory) that leads outside the tree', async () => {
    for (const path of ['/leak.txt', '/docs/leak', '/docs/leak.html', '/outside-dir/secret.txt', '/outside-dir/page']) {
      const res = await fetch(`${gw.url}${path}`);
      const text = await res.text();
      expect(res.status, path).toBe(404);
      expect(text, path).not.toContain('not part of the site');
    }
  });

  it('serves a link whose target is inside the tree, and the pages as before', async () => {
    const res = await fetch(`${gw.url}/llms-link.txt`);
    expect(res.status).toBe(200);
    expect((await fetch(`${gw.url}${manifest.pages[0]!.path}`)).status).toBe(200);
  });
});
