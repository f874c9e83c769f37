// llms-full.txt, written by the build after the render: the head, then every page's Markdown
// twin in the manifest's order (src/lib/llms.ts fullLlmsHead and fullLlmsPart, as `astro dev`
// serves it). Read from the twins Astro has just written and appended about a megabyte at a
// time, so the file (56 MB at 10,000 pages) is never held whole: as an Astro endpoint it was,
// several times over (the string, the response bytes, their copies), ≈375 MB at the end of a
// 10,000-page render, the build's largest transient and one that grew with the site.
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { fullLlmsHead, fullLlmsPart } from '../lib/llms.ts';

/** Bytes gathered before each write. */
const CHUNK_BYTES = 1 << 20;

export const LLMS_FULL_FILE = 'llms-full.txt';

/** Writes <root>/llms-full.txt from <root>/build-manifest.json and the twins it names. */
export async function writeLlmsFull(root: string): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(root, 'build-manifest.json'), 'utf8')) as { pages: { path: string; md: string }[] };
  const file = await open(join(root, LLMS_FULL_FILE), 'w', 0o644);
  try {
    let chunk = [fullLlmsHead()];
    let length = chunk[0]!.length;
    for (const page of manifest.pages) {
      const part = `\n${fullLlmsPart(page.path, readFileSync(join(root, page.md), 'utf8'))}`;
      chunk.push(part);
      length += part.length;
      if (length >= CHUNK_BYTES) {
        await file.write(chunk.join(''));
        chunk = [];
        length = 0;
      }
    }
    await file.write(chunk.join(''));
  } finally {
    await file.close();
  }
}
