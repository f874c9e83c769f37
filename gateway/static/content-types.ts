// One content-type map for every file the build writes. The gateway's static
// server, the CDN `_headers` file and the nginx snippet are all generated from it,
// because Astro drops Content-Type from static endpoints and hosts guess wrong
// for extensionless files such as /.well-known/api-catalog.

/** Exact paths (relative to the site root) whose type the extension cannot tell. */
export const exactContentTypes: Readonly<Record<string, string>> = {
  '/.well-known/api-catalog': 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
  '/.well-known/oauth-protected-resource': 'application/json',
  '/api/openapi': 'application/json',
};

/** By file extension (lower case, with the dot). */
export const extensionContentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.xml': 'application/xml',
  // Pagefind's compressed index chunks and fragments: served as opaque bytes.
  '.pf_meta': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
  '.pf_filter': 'application/octet-stream',
};

export const defaultContentType = 'application/octet-stream';

/** Text types worth precompressing (src/integration/compress.ts) and serving encoded. */
export const compressibleExtensions: ReadonlySet<string> = new Set(['.html', '.md', '.txt', '.json', '.js', '.mjs', '.css', '.svg', '.xml']);

/** Content type for a site-relative URL path such as `/docs/api/search.md`. */
export function contentTypeFor(urlPath: string): string {
  const exact = exactContentTypes[urlPath];
  if (exact) return exact;
  const base = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot > 0) return extensionContentTypes[base.slice(dot).toLowerCase()] ?? defaultContentType;
  return defaultContentType;
}

/** Netlify / Cloudflare Pages `_headers` file; `security`: the tree's security headers (gateway/http/security-headers.ts), on every path. */
export function headersFile(security: Record<string, string> = {}): string {
  const lines = ['# Generated from gateway/static/content-types.ts — do not edit.'];
  for (const [path, type] of Object.entries(exactContentTypes)) {
    lines.push(path, `  Content-Type: ${type}`, '  Access-Control-Allow-Origin: *');
  }
  lines.push('/*.md', '  Content-Type: text/markdown; charset=utf-8', '  Vary: Accept', '  Access-Control-Allow-Origin: *');
  lines.push('/.well-known/*', '  Access-Control-Allow-Origin: *');
  lines.push('/llms*.txt', '  Access-Control-Allow-Origin: *');
  const names = Object.keys(security);
  if (names.length) lines.push('/*', ...names.map((name) => `  ${name.replace(/(^|-)(\w)/g, (_, dash: string, c: string) => dash + c.toUpperCase())}: ${security[name]}`));
  return lines.join('\n') + '\n';
}

/** nginx snippet to `include` inside a `server {}` block. */
export function nginxSnippet(): string {
  const out = ['# Generated from gateway/static/content-types.ts — do not edit.', 'types {'];
  const byType = new Map<string, string[]>();
  for (const [ext, type] of Object.entries(extensionContentTypes)) {
    const list = byType.get(type) ?? [];
    list.push(ext.slice(1));
    byType.set(type, list);
  }
  for (const [type, exts] of byType) out.push(`  ${type.replace(/;.*$/, '')} ${exts.join(' ')};`);
  out.push('}', 'charset utf-8;', 'charset_types text/markdown text/plain text/css text/javascript;');
  for (const [path, type] of Object.entries(exactContentTypes)) {
    out.push(`location = ${path} {`, `  default_type '${type}';`, '  types { }', "  add_header Access-Control-Allow-Origin '*' always;", '}');
  }
  return out.join('\n') + '\n';
}
