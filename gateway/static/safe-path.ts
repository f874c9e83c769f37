// URL path → path inside the site tree, or null. Nothing outside the tree is ever
// addressed: encoded or literal dot segments, backslashes, NUL, control characters,
// double encoding and hidden files (except .well-known) are refused; and a file is
// served only when its real path (symlinks resolved) is inside the tree's real path,
// so a link in the tree cannot lead out of it.
import { realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';

const MAX_PATH = 1024;

/**
 * Decodes a URL pathname (as on the wire, percent-encoded) into a relative path
 * such as `docs/api/search.md`; '' is the root. Null when the path is not acceptable.
 */
export function siteRelativePath(pathname: string): string | null {
  if (!pathname.startsWith('/') || pathname.length > MAX_PATH) return null;
  // Encoded separators and NUL never name a file here; refuse before decoding.
  if (/%(2f|5c|00)/i.test(pathname) || pathname.includes('\\')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  // Left-over '%' means double encoding (e.g. %252e): refuse rather than guess.
  if (/[\u0000-\u001f\u007f\\%]/.test(decoded)) return null;
  const segments = decoded.slice(1).split('/');
  if (segments.at(-1) === '') segments.pop();
  for (const s of segments) {
    if (s === '' || s === '.' || s === '..') return null;
    if (s.startsWith('.') && s !== '.well-known') return null;
  }
  return segments.join('/');
}

const within = (root: string, abs: string) => abs === root || abs.startsWith(root + sep);

/** Absolute file path for a relative path, inside `root` as text (resolved, no `..` escape). */
export function insideRoot(root: string, relative: string): string | null {
  const abs = resolve(root, relative);
  return within(root, abs) ? abs : null;
}

/** The real path of `abs` (every symlink resolved) when it lies inside `realRoot` (itself a real path), else null. */
export async function realInsideRoot(realRoot: string, abs: string): Promise<string | null> {
  try {
    const real = await realpath(abs);
    return within(realRoot, real) ? real : null;
  } catch {
    return null;
  }
}
