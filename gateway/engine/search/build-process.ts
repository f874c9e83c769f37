/**
 * Child-process entry that builds one index segment and writes it to a file:
 *   node build-process.ts <siteDir> <segment> <segments> <outFile> <fingerprint> [mode, octal; default 600]
 * Run as a separate process (not a worker thread) so the build's transient memory goes back to the OS when it exits.
 */
import { checkBundles, listPages, readFragments } from '../pagefind-bundle.ts';
import { loadManifest } from '../manifest.ts';
import { writeSegmentFile } from './index-file.ts';
import type { ManifestFallback } from './segment.ts';
import { buildSegment } from './segment-builder.ts';

export function segmentRange(total: number, k: number, n: number): [number, number] {
  const per = Math.ceil(total / n);
  return [Math.min(total, k * per), Math.min(total, (k + 1) * per)];
}

async function main(argv: string[]): Promise<void> {
  const [siteDir, ks, ns, out, fingerprint, modeArg] = argv;
  const mode = modeArg ? parseInt(modeArg, 8) : 0o600;
  const k = Number(ks);
  const n = Number(ns);
  if (!siteDir || !out || !fingerprint || !Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 1 || k >= n) {
    throw new Error('usage: build-process.ts <siteDir> <segment> <segments> <outFile> <fingerprint>');
  }
  const bundles = checkBundles(siteDir);
  const manifest = await loadManifest(siteDir);
  const fallback: Record<string, ManifestFallback> = {};
  for (const p of manifest.pages) fallback[p.path] = { title: p.title, type: p.type, section: p.section, description: p.description };
  const pages = await listPages(bundles);
  const [from, to] = segmentRange(pages.length, k, n);
  const mine = pages.slice(from, to);
  const seg = buildSegment(readFragments(mine), mine.length, fallback);
  writeSegmentFile(out, seg, fingerprint, mode);
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${(err as Error)?.message ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
