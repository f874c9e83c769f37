// Compress ahead: the precompressed siblings of the pages, made while Astro renders them.
// Astro's render runs on one thread and leaves the second core mostly idle, while the later
// steps (Pagefind's bundle, the engine index) keep both busy; so the compressing (≈20,000
// files at 10,000 pages) belongs in the render. A worker thread compresses each rendered
// body as the middleware hands it over (src/lib/compress-tap.ts), into a folder keyed by the
// SHA-256 of the bytes; the later pass (compress.ts) moves an entry into place for any file
// with those bytes, and compresses itself whatever has none. So this is only ever a head
// start: when the worker is behind, bodies are dropped, never queued without bound and never
// waited for, and a build killed half-way leaves nothing wrong.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { compressiblePath, MIN_COMPRESS_BYTES } from './compress.ts';
import { setCompressTap } from '../lib/compress-tap.ts';

/** Bodies handed over and not yet compressed beyond which new ones are dropped (≈40 KB each: ≤ 10 MB held). */
export const MAX_PENDING = 256;

/** The folder of a build's compress-ahead entries, beside the trees in the dist folder (never served). */
export const aheadDir = (distDir: string): string => join(distDir, 'compress-ahead');

/** A route worth compressing: a page (no extension in its last segment) or a text file by its extension. */
function textRoute(pathname: string): boolean {
  const base = pathname.slice(pathname.lastIndexOf('/') + 1);
  return base.lastIndexOf('.') <= 0 || compressiblePath(base);
}

export interface CompressAhead {
  /** Waits for the bodies handed over so far, then stops the worker; resolves to the counts. */
  finish(): Promise<{ offered: number; dropped: number }>;
}

/** Starts the worker and the tap the middleware offers bodies to; `dir` is emptied first. */
export function startCompressAhead(dir: string): CompressAhead {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const worker = new Worker(new URL('./compress-ahead-worker.ts', import.meta.url), { workerData: { dir } });
  worker.unref(); // a failed build exits without waiting for it; its entries are only a head start
  let pending = 0;
  let offered = 0;
  let dropped = 0;
  let idle: (() => void) | undefined;
  worker.on('message', () => {
    if (--pending === 0) idle?.();
  });
  let failed = false;
  worker.on('error', () => {
    failed = true; // the later pass compresses whatever has no entry
    idle?.();
  });
  setCompressTap({
    wants: (pathname) => !failed && textRoute(pathname),
    offer(body) {
      if (body.length < MIN_COMPRESS_BYTES) return;
      if (pending >= MAX_PENDING) {
        dropped++;
        return;
      }
      pending++;
      offered++;
      worker.postMessage(body);
    },
  });
  return {
    async finish() {
      setCompressTap(undefined);
      if (pending > 0 && !failed) await new Promise<void>((done) => (idle = done));
      await worker.terminate();
      return { offered, dropped };
    },
  };
}
