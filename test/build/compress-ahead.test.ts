// Compress ahead (src/integration/compress-ahead.ts): bodies handed over while Astro renders are compressed by a
// worker into a folder keyed by their bytes' SHA-256; the later pass (compressTree) moves an entry beside any file
// with those bytes and compresses whatever has none. Never waited for: past MAX_PENDING bodies in flight, new ones
// are dropped and left to the later pass.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PENDING, startCompressAhead } from '../../src/integration/compress-ahead.ts';
import { compressTree, contentKey, MIN_COMPRESS_BYTES } from '../../src/integration/compress.ts';
import { compressTap } from '../../src/lib/compress-tap.ts';

const page = (n: number) => Buffer.from(`<!doctype html><title>Page ${n}</title>${'<p>Words of a page, repeated. </p>'.repeat(60)}`);
const temp: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'compress-ahead-'));
  temp.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const decodes = (path: string, body: Buffer) =>
  brotliDecompressSync(readFileSync(`${path}.br`)).equals(body) && gunzipSync(readFileSync(`${path}.gz`)).equals(body);

describe('compress ahead', () => {
  it('compresses what the tap is given, and the later pass moves it beside the file with those bytes', async () => {
    const ahead = join(tempDir(), 'compress-ahead');
    const run = startCompressAhead(ahead);
    const tap = compressTap()!;
    expect(tap.wants('/docs/api/errors')).toBe(true);
    expect(tap.wants('/docs/api/errors.md')).toBe(true);
    expect(tap.wants('/favicon.png')).toBe(false);
    tap.offer(page(1));
    tap.offer(Buffer.alloc(MIN_COMPRESS_BYTES - 1, 'a')); // too small to be worth siblings
    expect(await run.finish()).toEqual({ offered: 1, dropped: 0 });
    expect(compressTap()).toBeUndefined(); // the middleware passes responses through again
    expect(readdirSync(ahead).sort()).toEqual([`${contentKey(page(1))}.br`, `${contentKey(page(1))}.gz`]);

    const root = tempDir();
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'one.html'), page(1));
    writeFileSync(join(root, 'docs', 'two.html'), page(2)); // rendered after the worker stopped
    expect(await compressTree(root, [], ahead)).toEqual({ files: 2, ahead: 1 });
    expect(readdirSync(ahead)).toEqual([]);
    expect(decodes(join(root, 'docs', 'one.html'), page(1))).toBe(true);
    expect(decodes(join(root, 'docs', 'two.html'), page(2))).toBe(true);
  });

  it('drops bodies past MAX_PENDING in flight instead of queueing them or holding up the render', async () => {
    const run = startCompressAhead(join(tempDir(), 'compress-ahead'));
    const tap = compressTap()!;
    for (let n = 0; n < MAX_PENDING + 40; n++) tap.offer(page(n)); // one synchronous burst: the worker answers none yet
    expect(await run.finish()).toEqual({ offered: MAX_PENDING, dropped: 40 });
  });

  it('starts from an empty folder: entries of an earlier build are gone', async () => {
    const ahead = join(tempDir(), 'compress-ahead');
    mkdirSync(ahead);
    writeFileSync(join(ahead, 'left-over.br'), 'x');
    await startCompressAhead(ahead).finish();
    expect(existsSync(join(ahead, 'left-over.br'))).toBe(false);
  });
});
