// Precompressed siblings for the static tree: `x.br` and `x.gz` beside every text
// file worth compressing, written once at build time so neither the gateway
// (gateway/static/encoding.ts) nor nginx (`gzip_static`) compresses per request.
// Brotli at quality 2 and gzip at level 4: per 15 KB page ≈0.25 and ≈0.3 ms of CPU, the
// files ≈4 % and ≈2 % larger than at quality 4 and level 6 (which cost ≈0.6 and ≈0.4 ms),
// and within ≈20 % of brotli's maximum (quality 11, ≈30 ms): at 20,000 files the step is
// CPU seconds, not minutes (numbers on the performance docs page). PRECOMPRESS=false
// skips the step. Runs through zlib's thread pool, a few files at a time; `skip` leaves a
// folder for a later pass (the build compresses the pages while Pagefind indexes them,
// and Pagefind's own bundle once it is written).
//
// Most pages arrive already compressed: while Astro renders, a worker compresses each
// rendered response into a folder keyed by the SHA-256 of its bytes (compress-ahead.ts).
// A file whose bytes have an entry there gets it moved into place instead of being
// compressed again; content-addressed, so an entry is right for any file with those bytes.
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import { compressibleExtensions } from '../../gateway/static/content-types.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Smaller files gain too little to be worth a second and third file. */
export const MIN_COMPRESS_BYTES = 1024;
const PARALLEL = 8;

const brotliOptions = (bytes: number): BrotliOptions => ({ params: { [constants.BROTLI_PARAM_QUALITY]: 2, [constants.BROTLI_PARAM_SIZE_HINT]: bytes } });
const gzipOptions: ZlibOptions = { level: 4 };

/** The name a body's compressed forms have in a compress-ahead folder: `<name>.br`, `<name>.gz`. */
export const contentKey = (body: Uint8Array): string => createHash('sha256').update(body).digest('hex');

/** Whether a file is a text file worth compressing, by its extension. */
export const compressiblePath = (path: string): boolean => compressibleExtensions.has(path.slice(path.lastIndexOf('.')).toLowerCase());

/**
 * Both siblings of a body, synchronously (the compress-ahead worker), or undefined when the file is too small or
 * either form would not be smaller (the server then falls back to the file itself).
 */
export function compressedForms(body: Uint8Array): { br: Buffer; gz: Buffer } | undefined {
  if (body.length < MIN_COMPRESS_BYTES) return undefined;
  const br = brotliCompressSync(body, brotliOptions(body.length));
  const gzipped = gzipSync(body, gzipOptions);
  return br.length < body.length && gzipped.length < body.length ? { br, gz: gzipped } : undefined;
}

async function* files(dir: string, skip: ReadonlySet<string>): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip.has(path)) continue;
    if (entry.isDirectory()) yield* files(path, skip);
    else if (entry.isFile()) yield path;
  }
}

/** Moves the compress-ahead entry of `body` beside `path`; false when there is none. `.gz` is written before `.br`. */
async function takeAhead(aheadDir: string, body: Uint8Array, path: string): Promise<boolean> {
  const key = join(aheadDir, contentKey(body));
  try {
    await rename(`${key}.br`, `${path}.br`);
  } catch {
    return false;
  }
  await rename(`${key}.gz`, `${path}.gz`);
  return true;
}

async function compressFile(path: string, aheadDir: string | undefined): Promise<'ahead' | 'compressed' | 'small'> {
  const body = await readFile(path);
  if (body.length < MIN_COMPRESS_BYTES) return 'small';
  if (aheadDir && (await takeAhead(aheadDir, body, path))) return 'ahead';
  const [br, gzipped] = await Promise.all([brotli(body, brotliOptions(body.length)), gz(body, gzipOptions)]);
  // A sibling only where it is smaller: the server falls back to the file itself.
  if (br.length < body.length) await writeFile(`${path}.br`, br);
  if (gzipped.length < body.length) await writeFile(`${path}.gz`, gzipped);
  return 'compressed';
}

/**
 * Writes `.br` and `.gz` siblings for the text files under `root` (but not under the folders `skip` names, relative
 * to it), taking them from `aheadDir` (compress-ahead.ts) where it holds them; resolves to the number of files given
 * siblings and how many of them came from there.
 */
export async function compressTree(root: string, skip: string[] = [], aheadDir?: string): Promise<{ files: number; ahead: number }> {
  const counts = { files: 0, ahead: 0 };
  const running = new Set<Promise<void>>();
  for await (const path of files(root, new Set(skip.map((s) => join(root, s))))) {
    if (!compressiblePath(path)) continue;
    const job: Promise<void> = compressFile(path, aheadDir).then((how) => {
      if (how !== 'small') counts.files++;
      if (how === 'ahead') counts.ahead++;
      running.delete(job);
    });
    running.add(job);
    if (running.size >= PARALLEL) await Promise.race(running);
  }
  await Promise.all(running);
  return counts;
}
