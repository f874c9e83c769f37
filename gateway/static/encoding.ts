// Serving the build's precompressed siblings (`x.br`, `x.gz`, written by
// src/integration/compress.ts): the client's Accept-Encoding picks one, brotli
// first. Nothing is compressed per request. Never for a Range request (a byte
// range of the encoded file would not be the range asked for) or for types that
// are not text (images, fonts, Pagefind chunks are compressed already).
import { compressibleExtensions } from './content-types.ts';
import type { SiteFile, SiteFiles } from './files.ts';

export type ContentEncoding = 'br' | 'gzip';

const siblingSuffix: Readonly<Record<ContentEncoding, string>> = { br: '.br', gzip: '.gz' };

/** The encodings Accept-Encoding allows (q > 0), brotli before gzip whatever the client's order. */
export function acceptedEncodings(header: string | null): ContentEncoding[] {
  if (!header) return [];
  const allowed = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    allowed.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (name: string) => (allowed.get(name) ?? allowed.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).filter(ok);
}

/** Whether responses for this file vary by Accept-Encoding (text types). */
export function isCompressible(file: SiteFile): boolean {
  const base = file.urlPath.slice(file.urlPath.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 && compressibleExtensions.has(base.slice(dot).toLowerCase());
}

/** The precompressed sibling to send instead of `file`, or null (send `file` as is). */
export async function encodedVariant(
  files: SiteFiles,
  file: SiteFile,
  headers: { get(name: string): string | null },
): Promise<{ file: SiteFile; encoding: ContentEncoding } | null> {
  if (!isCompressible(file) || headers.get('range') !== null) return null;
  for (const encoding of acceptedEncodings(headers.get('accept-encoding'))) {
    const sibling = await files.exact(`${file.urlPath.slice(1)}${siblingSuffix[encoding]}`);
    if (sibling) return { file: sibling, encoding };
  }
  return null;
}

/** `Vary` for a response of `file`: `base` (e.g. "Accept") plus Accept-Encoding for text types. */
export function varyFor(file: SiteFile, base?: string): string | undefined {
  if (!isCompressible(file)) return base;
  return base ? `${base}, Accept-Encoding` : 'Accept-Encoding';
}
