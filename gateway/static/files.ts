// Files of the build tree: `/x` → x, x.html or x/index.html (like nginx try_files),
// with stat results and small file bodies cached in memory. The build output is
// immutable while the gateway runs; restart it after a rebuild.
import { readFile, realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { contentTypeFor } from './content-types.ts';
import { insideRoot, realInsideRoot, siteRelativePath } from './safe-path.ts';

export interface SiteFile {
  /** Absolute real path on disk (symlinks resolved; always inside the tree's real path). */
  abs: string;
  /** Site URL path of the file itself, e.g. `/docs/api/search.html`. */
  urlPath: string;
  size: number;
  etag: string;
  contentType: string;
}

export interface SiteFiles {
  readonly root: string;
  /** The file a URL path names (trying `.html` and `/index.html`), or null. */
  resolve(pathname: string): Promise<SiteFile | null>;
  /** The file at an exact site-relative path (no fallbacks), or null. */
  exact(relative: string): Promise<SiteFile | null>;
  /** The file's bytes; `cache: false` serves a cached copy but does not add one (callers with their own cache). */
  read(file: SiteFile, opts?: { cache?: boolean }): Promise<Buffer>;
}

const MAX_STAT_ENTRIES = 50_000;
// Misses are remembered too (a repeated 404 costs no syscall), but few of them: every unique junk path would be one.
const MAX_CACHED_MISSES = 2_000;
const MAX_CACHED_FILE = 512 * 1024;
// Buffers sit outside the V8 heap but count in RSS; the batch API keeps its own cache of encoded twins.
const MAX_CACHED_BYTES = 32 * 1024 * 1024;

export function createSiteFiles(siteDir: string): SiteFiles {
  const root = resolve(siteDir);
  // The tree's own real path (DIST_DIR may itself be reached through a link); missing → nothing is served.
  let realRoot: Promise<string | null> | undefined;
  const realRootOf = () =>
    (realRoot ??= realpath(root).catch(() => {
      realRoot = undefined;
      return null;
    }));
  const stats = new Map<string, SiteFile | null>();
  let misses = 0;
  const bodies = new Map<string, Buffer>();
  let cachedBytes = 0;

  async function exact(relative: string): Promise<SiteFile | null> {
    const hit = stats.get(relative);
    if (hit !== undefined) return hit;
    const inTree = insideRoot(root, relative);
    const real = await realRootOf();
    const abs = inTree && real ? await realInsideRoot(real, inTree) : null;
    let file: SiteFile | null = null;
    if (abs) {
      try {
        const st = await stat(abs);
        if (st.isFile()) {
          const urlPath = `/${relative}`;
          file = { abs, urlPath, size: st.size, etag: `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`, contentType: contentTypeFor(urlPath) };
        }
      } catch {
        file = null;
      }
    }
    if (stats.size >= MAX_STAT_ENTRIES) {
      stats.clear();
      misses = 0;
    }
    if (file) stats.set(relative, file);
    else if (misses < MAX_CACHED_MISSES) {
      stats.set(relative, null);
      misses++;
    }
    return file;
  }

  return {
    root,
    exact,
    async resolve(pathname) {
      const rel = siteRelativePath(pathname);
      if (rel === null) return null;
      if (rel === '') return exact('index.html');
      return (await exact(rel)) ?? (await exact(`${rel}.html`)) ?? (await exact(`${rel}/index.html`));
    },
    async read(file, opts) {
      const cached = bodies.get(file.abs);
      if (cached) return cached;
      const body = await readFile(file.abs);
      if (body.length <= MAX_CACHED_FILE && opts?.cache !== false) {
        // Oldest first out: good enough for a tree that does not change.
        while (cachedBytes + body.length > MAX_CACHED_BYTES && bodies.size) {
          const [key, old] = bodies.entries().next().value as [string, Buffer];
          bodies.delete(key);
          cachedBytes -= old.length;
        }
        bodies.set(file.abs, body);
        cachedBytes += body.length;
      }
      return body;
    },
  };
}
