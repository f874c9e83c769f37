/**
 * Read-only access to a site's written Pagefind bundles: the bundle in `<siteDir>/pagefind/` and, on a site indexed in
 * parts (src/integration/search-index.ts), the part bundles its `parts.json` names (`<siteDir>/pagefind/part-2/` …),
 * read as one list of pages in part order. Every read goes through `bundleFile()`, which refuses anything outside the
 * bundle directory.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface PagefindEntry {
  version: string;
  languages: Record<string, { hash: string; wasm?: string | null; page_count: number }>;
}

/** One bundle of the site: its directory and its parsed entry file. */
export interface Bundle { dir: string; entry: PagefindEntry }

/** One page as listed by its bundle's Pagefind meta index: the bundle's directory, fragment hash and optional fragment group. */
export interface BundlePage { dir: string; hash: string; group: string; wordCount: number }

/** The file in the main bundle that names the part bundles (written by the build, `{"parts":["part-2", …]}`). */
export const PARTS_FILE = 'parts.json';

/** The Pagefind fragment of one page (the fields the engine uses). */
export interface PagefindFragment {
  url: string;
  content: string;
  word_count?: number;
  filters?: Record<string, string[]>;
  meta?: Record<string, string>;
  anchors?: { element: string; id: string; text?: string; location: number }[];
}

const SAFE_NAME = /^[A-Za-z0-9_.-]+$/;

export function bundleDir(siteDir: string): string {
  return resolve(siteDir, 'pagefind');
}

/** Absolute path of a file inside the bundle; throws for anything that would leave it. */
export function bundleFile(dir: string, ...segments: string[]): string {
  for (const s of segments) {
    if (!SAFE_NAME.test(s) || s === '.' || s === '..') throw new Error(`Refusing to read unexpected Pagefind bundle path segment ${JSON.stringify(s)}`);
  }
  const p = resolve(dir, ...segments);
  if (!p.startsWith(dir + sep)) throw new Error(`Refusing to read outside the Pagefind bundle: ${p}`);
  return p;
}

/**
 * The site's bundles, the main one first, then the parts its `parts.json` names (none when the file is absent).
 * Throws a clear error unless every entry file exists and parses.
 */
export function checkBundles(siteDir: string): Bundle[] {
  const main = checkBundle(bundleDir(siteDir));
  const partsFile = join(main.dir, PARTS_FILE);
  if (!existsSync(partsFile)) return [main];
  let parts: unknown;
  try {
    parts = (JSON.parse(readFileSync(partsFile, 'utf8')) as { parts?: unknown }).parts;
  } catch (err) {
    throw new Error(`Pagefind parts list ${partsFile} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  if (!Array.isArray(parts) || !parts.every((name) => typeof name === 'string')) throw new Error(`Pagefind parts list ${partsFile} has no "parts" array of folder names`);
  return [main, ...parts.map((name: string) => checkBundle(bundleFile(main.dir, name)))];
}

/** The pages the bundles' entries count (every language of every part), or undefined when an entry gives no count. */
export function bundlePageCount(bundles: readonly Bundle[]): number | undefined {
  let pages = 0;
  for (const b of bundles) {
    for (const language of Object.values(b.entry.languages ?? {})) {
      if (typeof language?.page_count !== 'number' || !Number.isFinite(language.page_count)) return undefined;
      pages += language.page_count;
    }
  }
  return pages;
}

/** Throws a clear error unless `<dir>/pagefind-entry.json` exists and parses. */
function checkBundle(dir: string): Bundle {
  const entryFile = join(dir, 'pagefind-entry.json');
  if (!existsSync(entryFile) || !statSync(entryFile).isFile()) {
    throw new Error(`Pagefind bundle not found: ${entryFile} does not exist. Build the site first (npm run build) or point DIST_DIR at a build output.`);
  }
  let entry: PagefindEntry;
  try {
    entry = JSON.parse(readFileSync(entryFile, 'utf8')) as PagefindEntry;
  } catch (err) {
    throw new Error(`Pagefind bundle entry ${entryFile} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  if (!entry || typeof entry !== 'object' || !entry.languages || typeof entry.languages !== 'object') {
    throw new Error(`Pagefind bundle entry ${entryFile} has no "languages" map`);
  }
  return { dir, entry };
}

/** Pagefind files are gzip'd with a `pagefind_dcd` signature (or stored raw with the signature). */
export function decompress(buf: Uint8Array): Uint8Array {
  const SIG = 'pagefind_dcd';
  const head = (b: Uint8Array) => b.length >= 12 && Buffer.from(b.buffer, b.byteOffset, 12).toString('latin1') === SIG;
  if (head(buf)) return buf.subarray(12);
  const out = gunzipSync(buf);
  if (!head(out)) throw new Error('Pagefind file is missing its pagefind_dcd signature');
  return out.subarray(12);
}

/** Minimal CBOR decoder (definite/indefinite arrays, maps, ints, strings, simple values): enough for pf_meta. */
export function decodeCbor(b: Uint8Array): unknown {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const text = new TextDecoder();
  let p = 0;
  const dec = (): unknown => {
    if (p >= b.length) throw new Error('CBOR: unexpected end');
    const ib = b[p++]!;
    const mt = ib >> 5;
    const ai = ib & 31;
    let v: number;
    if (ai < 24) v = ai;
    else if (ai === 24) v = b[p++]!;
    else if (ai === 25) { v = view.getUint16(p); p += 2; }
    else if (ai === 26) { v = view.getUint32(p); p += 4; }
    else if (ai === 27) { v = Number(view.getBigUint64(p)); p += 8; }
    else if (ai === 31) v = -1;
    else throw new Error(`CBOR: bad additional info ${ai}`);
    switch (mt) {
      case 0: return v;
      case 1: return -1 - v;
      case 2: { const s = b.subarray(p, p + v); p += v; return s; }
      case 3: { const s = text.decode(b.subarray(p, p + v)); p += v; return s; }
      case 4: {
        const a: unknown[] = [];
        if (v === -1) { while (b[p] !== 0xff) a.push(dec()); p++; } else for (let i = 0; i < v; i++) a.push(dec());
        return a;
      }
      case 5: {
        const o: Record<string, unknown> = {};
        if (v === -1) { while (b[p] !== 0xff) { const k = String(dec()); o[k] = dec(); } p++; } else for (let i = 0; i < v; i++) { const k = String(dec()); o[k] = dec(); }
        return o;
      }
      case 6: return dec(); // tag: ignore
      case 7:
        if (ai === 20) return false;
        if (ai === 21) return true;
        if (ai === 22 || ai === 23) return null;
        throw new Error(`CBOR: unsupported simple value ${ai}`);
      default: throw new Error(`CBOR: unsupported major type ${mt}`);
    }
  };
  return dec();
}

/** Pages of every bundle, bundle after bundle (listBundlePages). */
export async function listPages(bundles: readonly Bundle[]): Promise<BundlePage[]> {
  const pages: BundlePage[] = [];
  for (const { dir, entry } of bundles) pages.push(...(await listBundlePages(dir, entry)));
  return pages;
}

/**
 * Pages of one bundle, in Pagefind's meta order, over all languages. The meta index is authoritative
 * (stale fragment files left in a reused output directory are ignored). Falls back to listing
 * `fragment/` if the meta format is not understood.
 */
async function listBundlePages(dir: string, entry: PagefindEntry): Promise<BundlePage[]> {
  const pages: BundlePage[] = [];
  const seen = new Set<string>();
  try {
    for (const lang of Object.keys(entry.languages).sort()) {
      const metaHash = entry.languages[lang]!.hash;
      const raw = decompress(await readFile(bundleFile(dir, `pagefind.${metaHash}.pf_meta`)));
      const meta = decodeCbor(raw);
      if (!Array.isArray(meta) || !Array.isArray(meta[1])) throw new Error('unexpected pf_meta shape');
      for (const pg of meta[1] as unknown[]) {
        if (!Array.isArray(pg) || typeof pg[0] !== 'string') throw new Error('unexpected pf_meta page');
        const hash = pg[0];
        if (seen.has(hash)) continue;
        seen.add(hash);
        pages.push({ dir, hash, wordCount: typeof pg[1] === 'number' ? pg[1] : 0, group: typeof pg[2] === 'string' ? pg[2] : '' });
      }
    }
    return pages;
  } catch (err) {
    process.emitWarning(`Pagefind meta index not understood (${(err as Error).message}); listing fragment files instead`);
    const files = readdirSync(join(dir, 'fragment')).filter((f) => f.endsWith('.pf_fragment')).sort();
    return files.map((f) => ({ dir, hash: f.slice(0, -'.pf_fragment'.length), group: '', wordCount: 0 }));
  }
}

const UTF8 = new TextDecoder();
function utf8(b: Uint8Array): string {
  return UTF8.decode(b);
}

/**
 * Reads fragments for the given pages, one at a time (synchronous I/O: meant for worker threads, so a
 * large bundle is streamed rather than held in memory). The last fragment group file read is kept.
 */
export function* readFragments(pages: BundlePage[]): Generator<PagefindFragment> {
  const groups = new Map<string, Record<string, PagefindFragment>>();
  for (const pg of pages) {
    const dir = pg.dir;
    let frag: PagefindFragment | undefined;
    if (pg.group) {
      const key = `${dir}\0${pg.group}`;
      let group = groups.get(key);
      if (!group) {
        groups.clear();
        group = JSON.parse(utf8(decompress(readFileSync(bundleFile(dir, 'fragment', `${pg.group}.pf_fragment`))))) as Record<string, PagefindFragment>;
        groups.set(key, group);
      }
      frag = group[pg.hash];
    } else {
      frag = JSON.parse(utf8(decompress(readFileSync(bundleFile(dir, 'fragment', `${pg.hash}.pf_fragment`))))) as PagefindFragment;
    }
    if (!frag || typeof frag.url !== 'string' || typeof frag.content !== 'string') throw new Error(`Pagefind fragment ${pg.hash} is missing or malformed`);
    yield frag;
  }
}
