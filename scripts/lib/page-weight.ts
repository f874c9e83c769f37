// What a page costs a reader before they search: the HTML plus every stylesheet, script
// (with the modules it imports statically) and icon the HTML names. The search and Ask
// code, loaded with a dynamic import() when the dialog opens, is not counted: that is the
// "before search" of issue 19's target. Sizes are the bytes on disk and their brotli
// form (the build's .br sibling, else compressed here at the same quality).
// Read from a built site directory; shared by `npm run weight` and the build test's budget.
import { brotliCompressSync, constants } from 'node:zlib';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';

export interface AssetWeight {
  path: string;
  bytes: number;
  brotli: number;
}

export interface PageWeight {
  /** Site path of the page, e.g. /docs/api/errors. */
  path: string;
  html: AssetWeight;
  assets: AssetWeight[];
  /** HTML plus assets. */
  bytes: number;
  brotli: number;
}

function brotliSize(file: string, body: Buffer): number {
  if (existsSync(`${file}.br`)) return readFileSync(`${file}.br`).length;
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

/** Every asset the page loads on its own, resolved against the site root. */
export function referencedAssets(html: string): string[] {
  const found = new Set<string>();
  for (const tag of html.match(/<(?:link|script)\b[^>]*>/g) ?? []) {
    const rel = /\brel="([^"]+)"/.exec(tag)?.[1] ?? '';
    const href = /\b(?:href|src)="(\/[^"]+)"/.exec(tag)?.[1];
    if (!href) continue;
    if (tag.startsWith('<script') || /\b(stylesheet|modulepreload|icon|preload)\b/.test(rel)) found.add(href);
  }
  return [...found];
}

/** A module's static imports (`import "./x.js"`, `from "./x.js"`), not its dynamic import()s. */
function staticImports(source: string, fromPath: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+)["'`]/g)].map((m) => m[1]!);
  return specifiers.map((s) => posix.join(posix.dirname(fromPath), s));
}

export function measurePage(siteDir: string, sitePath: string, file: string, cache = new Map<string, AssetWeight>()): PageWeight {
  const body = readFileSync(file);
  const html: AssetWeight = { path: sitePath, bytes: body.length, brotli: brotliSize(file, body) };
  const queue = referencedAssets(body.toString('utf8'));
  const seen = new Set<string>();
  const assets: AssetWeight[] = [];
  while (queue.length) {
    const href = queue.shift()!;
    if (seen.has(href)) continue;
    seen.add(href);
    const assetFile = join(siteDir, href);
    if (!existsSync(assetFile)) continue;
    let weight = cache.get(href);
    const source = readFileSync(assetFile);
    if (!weight) cache.set(href, (weight = { path: href, bytes: source.length, brotli: brotliSize(assetFile, source) }));
    assets.push(weight);
    if (href.endsWith('.js')) queue.push(...staticImports(source.toString('utf8'), href));
  }
  const sum = (key: 'bytes' | 'brotli') => html[key] + assets.reduce((n, a) => n + a[key], 0);
  return { path: sitePath, html, assets, bytes: sum('bytes'), brotli: sum('brotli') };
}

/** Every documentation page (docs/**.html) of a built site. */
export function measureDocsPages(siteDir: string): PageWeight[] {
  const cache = new Map<string, AssetWeight>();
  const pages: PageWeight[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full, `${prefix}/${entry.name}`);
      else if (entry.name.endsWith('.html')) pages.push(measurePage(siteDir, `${prefix}/${entry.name.slice(0, -5)}`, full, cache));
    }
  };
  walk(join(siteDir, 'docs'), '/docs');
  return pages.sort((a, b) => a.bytes - b.bytes);
}

export function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return 0;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low]! + (sorted[Math.ceil(at)]! - sorted[low]!) * (at - low);
}
