// Build step for the Content-Security-Policy (gateway/http/security-headers.ts): hashes
// every inline <script> and <style> of a tree's HTML, as the browser hashes them (the
// exact text between the tags, UTF-8, SHA-256, base64). Distinct texts only: a layout's
// inline script is one hash however many pages carry it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SECURITY_HEADERS_FILE, type InlineHashes, type SecurityHeadersFile } from '../../gateway/http/security-headers.ts';

const INLINE = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;

function htmlFiles(dir: string, out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) htmlFiles(path, out);
    else if (e.name.endsWith('.html')) out.push(path);
  }
  return out;
}

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The hashes of the inline scripts (not `src=`, not JSON data blocks) and styles in HTML text. */
export function inlineHashesOf(htmls: Iterable<string>): InlineHashes {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const html of htmls) {
    for (const [, tag, attrs = '', body = ''] of html.matchAll(INLINE)) {
      if (tag!.toLowerCase() === 'style') styles.add(hash(body));
      else if (!/\bsrc\s*=/i.test(attrs) && !/\btype\s*=\s*["']?application\/(ld\+)?json/i.test(attrs)) scripts.add(hash(body));
    }
  }
  return { scripts: [...scripts].sort(), styles: [...styles].sort() };
}

export function treeHashes(treeDir: string): InlineHashes {
  return inlineHashesOf((function* () {
    for (const file of htmlFiles(treeDir)) yield readFileSync(file, 'utf8');
  })());
}

/** Writes DIST_DIR/security-headers.json for the docs tree and the assistant tree. */
export async function writeSecurityHeaders(dist: string): Promise<SecurityHeadersFile> {
  const file: SecurityHeadersFile = { site: treeHashes(join(dist, 'site')), portfolio: treeHashes(join(dist, 'portfolio')) };
  await writeFile(join(dist, SECURITY_HEADERS_FILE), `${JSON.stringify(file, null, 2)}\n`);
  return file;
}
