// Old URLs of the site: the build writes them to <site>/_redirects (one `from to 301`
// per line, the format static hosts read) and the gateway answers a request for an
// old URL with a 301 to its new one when no file of the tree is there. Read once at
// startup into a map: one lookup per miss, never a scan.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A path a redirect may start from or point at: no spaces, quotes or config syntax. */
export const redirectPath = /^\/[^\s;{}"'\\*]*$/;

/**
 * `from to [status]` lines (blank lines and `#` comments skipped) → from → to. A line that is not one (no target, a
 * source that is no path) is skipped, or handed to `bad` with its number (the build stops on it; the gateway reads
 * the build's own file).
 */
export function parseRedirects(text: string, bad?: (lineNumber: number, line: string) => void): Map<string, string> {
  const map = new Map<string, string>();
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const [from, to] = line.split(/\s+/);
    if (from && to && redirectPath.test(from)) map.set(from, to);
    else bad?.(index + 1, line);
  });
  return map;
}

/** The build's redirects of a site tree (empty when it has none). */
export function loadRedirects(siteDir: string): Map<string, string> {
  try {
    return parseRedirects(readFileSync(join(siteDir, '_redirects'), 'utf8'));
  } catch {
    return new Map();
  }
}

/**
 * A path in one spelling: percent-encoded as a browser sends it, upper-case hex (`/café`, `/caf%c3%a9` → `/caf%C3%A9`).
 * The build writes each old URL so and the gateway looks requests up so, whichever way either was written.
 */
export function canonicalPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // a stray `%`: the path as written
  }
  return encodeURI(decoded);
}

/** Where an old URL moved, query string kept, or undefined. `/old/` finds `/old`. */
export function redirectFor(map: Map<string, string>, pathname: string, search: string): string | undefined {
  if (map.size === 0) return undefined;
  const path = /[%\x80-\uffff]/.test(pathname) ? canonicalPath(pathname) : pathname;
  const to = map.get(path) ?? (path.length > 1 && path.endsWith('/') ? map.get(path.replace(/\/+$/, '')) : undefined);
  if (to === undefined) return undefined;
  return search && !to.includes('?') ? `${to}${search}` : to;
}
