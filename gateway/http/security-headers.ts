// Security headers of every HTML page of both sites (docs and assistant), one
// definition for the three places that serve them: the gateway (gateway/docs/middleware/
// pipeline.ts, gateway/assistant/app.ts), the CDN `_headers` files and the nginx server
// block (src/integration/). Both sites are static pages with their own scripts only, so
// the Content-Security-Policy allows 'self' and, for inline code, exactly the inline
// scripts and styles the build wrote: the build hashes every inline <script> and <style>
// of each tree (src/integration/security-headers.ts) into DIST_DIR/security-headers.json,
// so a script added to a layout later is covered by the next build without an edit here.
// 'wasm-unsafe-eval' is Pagefind's WebAssembly search (no JavaScript eval). No page may
// be framed (`frame-ancestors 'none'`, X-Frame-Options for older browsers).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the build writes the hashes of each tree's inline code, relative to DIST_DIR. */
export const SECURITY_HEADERS_FILE = 'security-headers.json';

/** The trees of a build with pages: dist/site (docs) and dist/portfolio (assistant). */
export type Tree = 'site' | 'portfolio';

/** CSP source expressions (`'sha256-…'`) of a tree's inline scripts and styles. */
export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

export type SecurityHeadersFile = Record<Tree, InlineHashes>;

export function contentSecurityPolicy(hashes: InlineHashes): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval'${hashes.scripts.map((h) => ` ${h}`).join('')}`,
    `style-src 'self'${hashes.styles.map((h) => ` ${h}`).join('')}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of an HTML page of a tree with these inline hashes. */
export function securityHeaders(hashes: InlineHashes): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(hashes),
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

/** The headers for a tree of the build in `distDir`; without the build's hashes, inline code is simply not allowed. */
export function loadSecurityHeaders(distDir: string, tree: Tree): Record<string, string> {
  let hashes: InlineHashes = { scripts: [], styles: [] };
  try {
    const file = JSON.parse(readFileSync(join(distDir, SECURITY_HEADERS_FILE), 'utf8')) as Partial<SecurityHeadersFile>;
    hashes = file[tree] ?? hashes;
  } catch {
    // an older build or none: the strict policy
  }
  return securityHeaders(hashes);
}

/** Whether a response's Content-Type is an HTML page. */
export const isHtml = (contentType: string | null | undefined): boolean => !!contentType && /^text\/html\b/i.test(contentType);
