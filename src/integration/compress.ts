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
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { compressibleExtensions } from '../../gateway/static/content-types.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Smaller files gain too little to be worth a second and third file. */
export const MIN_COMPRESS_BYTES = 1024;
const PARALLEL = 8;

async function* files(dir: string, skip: ReadonlySet<string>): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip.has(path)) continue;
    if (entry.isDirectory()) yield* files(path, skip);
    else if (entry.isFile()) yield path;
  }
}

const wanted = (path: string) => compressibleExtensions.has(path.slice(path.lastIndexOf('.')).toLowerCase());

async function compressFile(path: string): Promise<number> {
  const body = await readFile(path);
  if (body.length < MIN_COMPRESS_BYTES) return 0;
  const [br, gzipped] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 2, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gz(body, { level: 4 }),
  ]);
  // A sibling only where it is smaller: the server falls back to the file itself.
  if (br.length < body.length) await writeFile(`${path}.br`, br);
  if (gzipped.length < body.length) await writeFile(`${path}.gz`, gzipped);
  return 1;
}

/**
 * Writes `.br` and `.gz` siblings for the text files under `root` (but not under the
 * folders `skip` names, relative to it); resolves to the number of files compressed.
 */
export async function compressTree(root: string, skip: string[] = []): Promise<number> {
  let count = 0;
  const running = new Set<Promise<void>>();
  for await (const path of files(root, new Set(skip.map((s) => join(root, s))))) {
    if (!wanted(path)) continue;
    const job: Promise<void> = compressFile(path).then((n) => {
      count += n;
      running.delete(job);
    });
    running.add(job);
    if (running.size >= PARALLEL) await Promise.race(running);
  }
  await Promise.all(running);
  return count;
}
