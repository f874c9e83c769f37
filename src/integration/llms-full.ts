// llms-full.txt, written by the build after the render: the head, then every page's Markdown
// twin in the manifest's order (src/lib/llms.ts fullLlmsHead and fullLlmsPart, as `astro dev`
// serves it). Read from the twins Astro has just written and appended about a megabyte at a
// time, so the file, which grows with the site (56 MB at 10,000 pages), is never held whole.
// Not an Astro endpoint: Astro buffers a response whole and the compress-ahead middleware
// copies it again, several copies of the site's Markdown in the Astro process at once.
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { fullLlmsHead, fullLlmsPart } from '../lib/llms.ts';

/** Characters gathered before each write (a megabyte or so). */
const CHUNK_CHARS = 1 << 20;

export const LLMS_FULL_FILE = 'llms-full.txt';

/** Writes <root>/llms-full.txt from <root>/build-manifest.json and the twins it names. */
export async function writeLlmsFull(root: string): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(root, 'build-manifest.json'), 'utf8')) as { pages: { path: string; md: string }[] };
  const file = await open(join(root, LLMS_FULL_FILE), 'w'); // created as Astro creates its files
  try {
    let chunk = [fullLlmsHead()];
    let length = chunk[0]!.length;
    for (const page of manifest.pages) {
      const part = `\n${fullLlmsPart(page.path, readFileSync(join(root, page.md), 'utf8'))}`;
      chunk.push(part);
      length += part.length;
      if (length >= CHUNK_CHARS) {
        await file.writeFile(chunk.join('')); // all of it, from the current position (write() may write less)
        chunk = [];
        length = 0;
      }
    }
    await file.writeFile(chunk.join(''));
  } finally {
    await file.close();
  }
}
