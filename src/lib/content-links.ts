// Links between pages of a content tree, resolved once per process: one walk of
// CONTENT_DIR gives every page's source path and its URL (src/lib/routes.ts), so
// a link is one map lookup, never a scan of the site. Both the HTML pipeline and
// the Markdown twin resolve links here, so they always agree.
//
// A link is a page link when it is relative, or root-relative, and has no file
// extension or `.md`, `.mdx`, `.html` (`./mocking/classes.md`, `/config/globals`,
// `/guide/`, `../api/#vi`). A root-relative link may start with the content folder's
// own name (`/en/guides/x/` in a tree at `docs/en`, as Starlight's locales write them),
// or be the page's URL on a Docusaurus site (its `slug:` or `id:`, number prefixes dropped).
// Any other extension names an asset: found in the tree (or its `public/` folder, for
// root-relative ones) it is copied to /assets/.
//
// Nothing outside the content folder is read, even through a symbolic link inside it: a
// docs tree built from contributed changes (a pull request's preview) must not be able to
// publish `/etc/passwd` or a CI secret by linking to it. The build stops naming every link
// that leaves the folder (checkContentLinks) unless CONTENT_SYMLINKS=follow, and every link
// to nothing (its ENOENT would name no link); the file reads that take a path from a page
// (includes, linked assets) check where it really is (insideTree).
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, readdirSync, readlinkSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, posix, resolve, sep } from 'node:path';
import { addressOf } from './routes.ts';
import { loadSiteConfig } from './site-config.ts';

export interface LinkTable {
  contentDir: string;
  /** Lower-cased source path without extension (and the URL path without its slash) → page URL path. */
  pages: Map<string, string>;
  sections: Set<string>;
  /** Root-relative targets resolve the same from every page: resolved once each. */
  rooted: Map<string, ResolvedLink>;
  /** Markdown files read as partials, not pages (isPartial): the build counts them, so none goes missing unseen. */
  partials: number;
  /** The pages' URLs on a Docusaurus site (docusaurusPages), made when a root-relative link first finds no page. */
  docusaurus?: Map<string, string>;
}

export type ResolvedLink =
  | { kind: 'page'; url: string }
  | { kind: 'asset'; url: string; source: string }
  | { kind: 'missing-asset'; url: string }
  | { kind: 'keep' }
  | { kind: 'broken' };

/** Folders the gateway or the build own: a root-relative link there is never a page of the tree. */
const siteOwned = /^(api|ask|\.well-known|llms(-full)?\.txt|openapi\.json|pagefind|_astro|assets|build-manifest\.json|api-policy\.md)(\/|$)/;
const pageExtension = /\.(md|mdx|html)$/i;
const assetExtension = /\.[a-z][a-z0-9]{0,5}$/i;
const scheme = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Calls `visit` for every entry below dir that is not a folder (files, links), with its path relative to dir, in name
 * order; dot folders and node_modules skipped. A symbolic link to a folder is visited as a link (`followed` true or
 * false; undefined for any other entry) and walked only when it leads out of the content folder and may be read
 * (CONTENT_SYMLINKS=follow), and only the first time the walk meets that folder, so no folder is walked twice whatever
 * the links: a link to a folder inside the tree (`latest` → `v2`) adds no second copy of its pages, and links that
 * lead to each other or back up the tree end at once.
 */
function walkTree(dir: string, visit: (path: string, entry: Dirent, followed: boolean | undefined) => void): void {
  const root = realPath(resolve(dir)) ?? resolve(dir);
  const walked = [root]; // the real folders whose whole tree the walk reads: the content folder, linked folders out of it
  const walk = (rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch (err) {
      if (rel === '') throw err;
      throw new Error(`The folder ${rel} of the content folder ${resolve(dir)} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}).`);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      const target = entry.isSymbolicLink() ? linkedFolder(join(dir, path)) : undefined;
      const follow = target !== undefined && following() && !walked.some((folder) => within(target, folder) || within(folder, target));
      visit(path, entry, target === undefined ? undefined : follow);
      if (follow) {
        walked.push(target);
        walk(path);
      }
    }
  };
  walk('');
}

/** Whether `path` is `folder` or below it (a root such as `/` already ends in the separator). */
function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** The real path of the folder a symbolic link leads to; undefined for a link to a file or to nothing. */
function linkedFolder(link: string): string | undefined {
  try {
    return statSync(link).isDirectory() ? realpathSync(link) : undefined;
  } catch {
    return undefined;
  }
}

/** Symbolic links to folders below dir that walkTree does not walk (inside the tree, met before, unreadable): globs leave them out too. */
export function unwalkedLinkedFolders(dir: string): string[] {
  const out: string[] = [];
  walkTree(dir, (path, _entry, followed) => {
    if (followed === false) out.push(path);
  });
  return out;
}

/** A path as a glob pattern that matches it alone: the characters globs read as syntax escaped. */
export function globLiteral(path: string): string {
  return path.replace(/[\\*?[\](){}!+@|]/g, '\\$&');
}

/** Files below dir, as paths relative to it (walkTree). */
function treeFiles(dir: string): string[] {
  const out: string[] = [];
  walkTree(dir, (path) => out.push(path));
  return out;
}

/** The real path, or undefined for a link whose target does not exist. */
function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const following = (): boolean => loadSiteConfig().contentSymlinks === 'follow';

/** Whether `abs` (a path below the content folder) is really inside it, symbolic links resolved, or links may leave it. */
export function insideTree(contentDir: string, abs: string): boolean {
  const root = realPath(resolve(contentDir));
  const real = realPath(abs);
  if (root === undefined || real === undefined) return false;
  return within(real, root) || following();
}

/** A symbolic link below the content folder that the build cannot read: it leads out of the folder, or to nothing. */
export interface BadContentLink {
  link: string;
  target: string;
  problem: 'outside' | 'missing';
}

/** The symbolic links below dir (walkTree) that lead out of it or to nothing. */
export function badContentLinks(dir: string): BadContentLink[] {
  const root = realPath(resolve(dir));
  if (root === undefined) return [];
  const out: BadContentLink[] = [];
  walkTree(dir, (path, entry) => {
    if (!entry.isSymbolicLink()) return;
    const target = realPath(join(dir, path));
    if (target === undefined) out.push({ link: path, target: readlinkSync(join(dir, path)), problem: 'missing' });
    else if (!within(target, root)) out.push({ link: path, target, problem: 'outside' });
  });
  return out;
}

/** Throws a message naming CONTENT_DIR when it is no folder, else as checkContentLinks: what the build checks before it reads the tree. */
export function checkContentTree(contentDir: string): void {
  if (!existsSync(contentDir) || !statSync(contentDir).isDirectory()) {
    throw new Error(`CONTENT_DIR is ${resolve(contentDir)}, which is ${existsSync(contentDir) ? 'not a folder' : 'not there'}: point it at the folder of your Markdown pages.`);
  }
  checkContentLinks(contentDir);
}

/**
 * Throws, naming each one, when symbolic links below the content folder lead out of it (unless CONTENT_SYMLINKS=follow)
 * or to nothing.
 */
export function checkContentLinks(contentDir: string): void {
  const bad = badContentLinks(contentDir).filter((b) => b.problem === 'missing' || !following());
  if (bad.length === 0) return;
  const shown = bad.slice(0, 20).map((b) => `  - ${b.link} → ${b.target}${b.problem === 'missing' ? ' (does not exist)' : ''}`);
  if (bad.length > 20) shown.push(`  - … and ${bad.length - 20} more`);
  const outside = bad.some((b) => b.problem === 'outside');
  const advice = outside ? 'Copy those files into the folder, or set CONTENT_SYMLINKS=follow if you trust every link in it.' : 'Remove those links or restore their targets.';
  throw new Error(`Symbolic links in the content folder ${resolve(contentDir)} that the build does not read (it reads nothing outside its content folder):\n${shown.join('\n')}\n${advice}`);
}

/**
 * A source as the converters read it: a leading byte-order mark dropped and Windows (CRLF) or old Mac (CR) line ends
 * made LF, so a page saved on Windows converts as the same page with LF does (its code groups and callouts, which the
 * converters find line by line, and a twin without stray carriage returns).
 */
export function normalizeSource(text: string): string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
}

/** A text file of the tree, read as normalizeSource gives it. */
export function readContentFile(path: string): string {
  return normalizeSource(readFileSync(path, 'utf8'));
}

/** Content pages (md, mdx) below dir, relative to it; portfolio/ (its own site) and public/ (assets) left out. */
export function contentFiles(dir: string): string[] {
  return markdownFiles(dir).filter((p) => !isPartial(p));
}

function markdownFiles(dir: string): string[] {
  return treeFiles(dir)
    .filter((p) => /\.mdx?$/.test(p) && !/^(portfolio|public)\//.test(p))
    .sort();
}

/**
 * A file or folder whose name starts with `_` holds partials, not pages (Docusaurus's and Astro's rule): included or
 * imported by pages, never a page itself. Hugo's `_index.md` is its folder's page and stays one. So does the content
 * folder's `snippets/` (Mintlify's rule: what pages import as `/snippets/…`).
 */
export function isPartial(path: string): boolean {
  const parts = path.split('/');
  const file = parts.pop()!;
  return parts[0] === 'snippets' || parts.some((part) => part.startsWith('_')) || (file.startsWith('_') && file.toLowerCase() !== '_index.md');
}

/** A file of the tree as a render depends on it: its path, size and time (`gone` when it is no longer there). */
export function fileStamp(dir: string, path: string): string {
  try {
    const st = statSync(join(dir, path));
    return `${path}:${st.size}:${Math.floor(st.mtimeMs)}`;
  } catch {
    return `${path}:gone`;
  }
}

/**
 * What a page's rendered HTML depends on beyond its own text: the set of pages (links
 * resolve against it) and the other files (code includes, assets) with their sizes and
 * times. astro.config.mjs keys the content-layer cache on it, so adding, removing or
 * renaming a page, or changing a snippet, renders every page afresh; editing a page
 * re-renders that page and the pages that include it (docs-loader.ts includesUnchanged).
 */
export function treeKey(dir: string): string {
  const parts = treeFiles(resolve(dir))
    .sort()
    .map((p) => {
      // a page is keyed by its path (its own text is its own digest's business); a partial, which pages include, by
      // its size and time like any other file they read
      if (/\.mdx?$/.test(p) && !isPartial(p)) {
        // a Docusaurus slug or id decides where links written as its URLs lead (docusaurusPages)
        const { slug, id } = docusaurusFields(frontMatterHead(join(dir, p)));
        return slug === undefined && id === undefined ? p : `${p}:${slug ?? ''}:${id ?? ''}`;
      }
      return fileStamp(dir, p);
    });
  return createHash('sha256').update(resolve(dir)).update('\n').update(parts.join('\n')).digest('hex').slice(0, 12);
}

const tables = new Map<string, LinkTable>();

export function linkTable(contentDir: string): LinkTable {
  const dir = resolve(contentDir);
  const known = tables.get(dir);
  if (known) return known;
  const pages = new Map<string, string>();
  const sections = new Set<string>();
  const files = markdownFiles(dir);
  const partials = files.filter(isPartial).length;
  for (const file of files) {
    if (isPartial(file)) continue;
    const id = file.replace(/\.mdx?$/, '');
    let url: string;
    try {
      url = addressOf(id, file).path;
    } catch {
      continue; // the docs model reports it, naming the file
    }
    sections.add(url.split('/')[2]!);
    const key = id.toLowerCase();
    pages.set(key, url);
    if (/(^|\/)index$/.test(key)) pages.set(key.replace(/\/?index$/, ''), url);
  }
  // The new URLs themselves, for links already written that way.
  for (const url of new Set(pages.values())) if (!pages.has(url.slice(1))) pages.set(url.slice(1), url);
  const table = { contentDir: dir, pages, sections, partials, rooted: new Map<string, ResolvedLink>() };
  tables.set(dir, table);
  return table;
}

/** After a change in the tree (`astro dev`): the next linkTable call walks it again. */
export function forgetLinkTable(contentDir: string): void {
  tables.delete(resolve(contentDir));
  fileExists.clear();
}

const fileExists = new Map<string, boolean>();
/** Whether `path` (relative to the content folder) is a file of the tree: a link out of it is not. */
function isFile(contentDir: string, path: string): boolean {
  const abs = join(contentDir, path);
  let known = fileExists.get(abs);
  if (known === undefined) {
    known = existsSync(abs) && statSync(abs).isFile() && insideTree(contentDir, abs);
    fileExists.set(abs, known);
  }
  return known;
}

/** Splits `path?query#hash` into the path and the rest. */
function splitTarget(target: string): [string, string] {
  const cut = target.search(/[?#]/);
  return cut === -1 ? [target, ''] : [target.slice(0, cut), target.slice(cut)];
}

/**
 * Resolves a link written in `fromFile` (relative to the content dir). `url` of a page or
 * asset keeps the query and anchor of the target.
 */
export function resolveLink(table: LinkTable, fromFile: string, target: string): ResolvedLink {
  if (!target || target.startsWith('#') || scheme.test(target)) return { kind: 'keep' };
  if (target.startsWith('/')) {
    let known = table.rooted.get(target);
    if (!known) {
      known = resolveTarget(table, fromFile, target);
      if (table.rooted.size < 100_000) table.rooted.set(target, known);
    }
    return known;
  }
  return resolveTarget(table, fromFile, target);
}

function resolveTarget(table: LinkTable, fromFile: string, target: string): ResolvedLink {
  const [rawPath, rest] = splitTarget(target);
  let path: string;
  try {
    path = decodeURI(rawPath);
  } catch {
    path = rawPath;
  }
  const rooted = path.startsWith('/');
  const joined = rooted ? path.slice(1) : posix.join(posix.dirname(fromFile), path);
  const normal = posix.normalize(joined).replace(/^\.\/?$/, '');
  if (normal.startsWith('../')) return { kind: 'broken' };
  const isAsset = !pageExtension.test(normal) && assetExtension.test(normal) && !normal.endsWith('/');
  if (isAsset) {
    const candidates = rooted ? [`public/${normal}`, normal] : [normal];
    // the URL percent-encoded (`img dir/diagram (1).png` → `img%20dir/diagram%20(1).png`): a Markdown link's target
    // ends at a space, so a decoded one would stop being a link in the page and its twin
    for (const candidate of candidates) {
      if (isFile(table.contentDir, candidate)) return { kind: 'asset', url: `/assets/${encodeURI(candidate)}${rest}`, source: candidate };
    }
    return { kind: 'missing-asset', url: rooted ? target : `/assets/${encodeURI(normal)}${rest}` };
  }
  const key = normal.replace(pageExtension, '').replace(/\/+$/, '').toLowerCase();
  const url = table.pages.get(key) ?? table.pages.get(key ? `${key}/index` : 'index');
  if (url) return { kind: 'page', url: `${url}${rest}` };
  // a tree cut out of a larger one (Starlight's `src/content/docs/en`) links with its folder's name first: `/en/guides/x/`
  const own = rooted ? `${posix.basename(table.contentDir.split('\\').join('/')).toLowerCase()}/` : '';
  if (own && key.startsWith(own)) {
    const inner = key.slice(own.length);
    const found = table.pages.get(inner) ?? table.pages.get(inner ? `${inner}/index` : 'index');
    if (found) return { kind: 'page', url: `${found}${rest}` };
  }
  if (rooted && (key === '' || siteOwned.test(key))) return { kind: 'keep' };
  // /docs and /docs/<section> are the generated index pages.
  if (rooted && (key === 'docs' || (/^docs\/[^/]+$/.test(key) && table.sections.has(key.slice(5))))) return { kind: 'keep' };
  const docusaurus = rooted ? (table.docusaurus ??= docusaurusPages(table)).get(key) : undefined;
  if (docusaurus) return { kind: 'page', url: `${docusaurus}${rest}` };
  return { kind: 'broken' };
}

/** A number prefix Docusaurus leaves out of a file's or folder's URL (`01-intro`, `2. setup`), not a date's digits. */
const NUMBER_PREFIX = /^\d+\s*[-_.]+\s*(?=[a-z])/i;
const dropNumber = (name: string): string => name.replace(NUMBER_PREFIX, '');

/** The start of a file, where its front matter is (the whole of it for all but very long front matter); '' when unreadable. */
function frontMatterHead(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(FRONT_MATTER_HEAD);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const head = buffer.toString('utf8', 0, read);
    // front matter longer than the head (a long description, keywords): the whole file, so no field is cut off
    return read === buffer.length && /^\uFEFF?---\r?\n/.test(head) && !/\r?\n---[ \t]*(?:\r?\n|$)/.test(head.slice(3)) ? readContentFile(path) : head;
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
const FRONT_MATTER_HEAD = 4096;

/** `slug:` and `id:` of a page's front matter: two plain scalars, read from its lines (the loader validates the rest). */
function docusaurusFields(text: string): { slug?: string; id?: string } {
  const lines = text.split(/\r?\n/);
  const fields: { slug?: string; id?: string } = {};
  if (lines[0]?.trim() !== '---') return fields;
  for (let i = 1; i < lines.length && lines[i]!.trim() !== '---'; i++) {
    const m = /^(slug|id):[ \t]*(\S.*)$/.exec(lines[i]!);
    if (m) fields[m[1] as 'slug' | 'id'] = m[2]!.trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return fields;
}

/**
 * The URL path each page has on a Docusaurus site, lower-cased without its slashes, under the docs plugin's default
 * route (`docs/…`) and under none (a docs-only site): a `slug:` starting with `/` as written, else resolved against
 * the page's folder; else the `id:` or the file name in its folder, number prefixes dropped; a folder's `index`,
 * `README` or same-named page the folder itself. Only pages that have a slug or id, or a number prefix, give one: the
 * others are found by their file paths already. Made once, on the first root-relative link nothing else resolves,
 * so a tree whose links all resolve never reads its pages for it.
 */
function docusaurusPages(table: LinkTable): Map<string, string> {
  const urls = new Map<string, string>();
  for (const file of contentFiles(table.contentDir)) {
    const own = table.pages.get(file.replace(/\.mdx?$/, '').toLowerCase());
    if (!own) continue;
    const fields = docusaurusFields(frontMatterHead(join(table.contentDir, file)));
    if (fields.slug === undefined && fields.id === undefined && !file.split('/').some((part) => NUMBER_PREFIX.test(part))) continue;
    const dir = posix.dirname(file);
    const dirSlug = dir === '.' ? '/' : `/${dir.split('/').map(dropNumber).join('/')}/`;
    const name = dropNumber(posix.basename(file).replace(/\.mdx?$/, ''));
    let slug: string;
    if (fields.slug?.startsWith('/')) slug = fields.slug;
    else if (fields.slug === undefined && (/^(index|readme)$/i.test(name) || (dir !== '.' && name.toLowerCase() === dropNumber(posix.basename(dir)).toLowerCase()))) slug = dirSlug;
    else slug = posix.join(dirSlug, fields.slug ?? fields.id ?? name);
    const key = posix.normalize(slug).replace(/^\/+|\/+$/g, '').toLowerCase();
    for (const k of [key, key ? `docs/${key}` : 'docs']) if (!urls.has(k)) urls.set(k, own);
  }
  return urls;
}
