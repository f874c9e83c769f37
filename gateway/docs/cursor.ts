// Search cursors: base64url JSON {v, o, l, f} plus a checksum.
//   o = offset of the next page, l = page size, f = fingerprint of (query, tag, build).
// Not a secret (it only carries an offset), but a changed, truncated or foreign
// cursor is detected and refused instead of silently returning the wrong page.
import { hash } from 'node:crypto';
import { BoundedMemo } from '../engine/lru.ts';

const VERSION = 1;

export type CursorCheck = { ok: true; offset: number; limit: number } | { ok: false; reason: 'malformed' | 'tampered' | 'foreign' };

function digest(text: string, length: number): string {
  // one-shot: no Hash object per call (a paginated search checks the cursor it got and signs the next one)
  return hash('sha256', text, 'base64url').slice(0, length);
}

/**
 * Fingerprints of recent (query, tag, build)s: every page of a paginated search asks for the same one. Short keys
 * only, so that the memo stays under ≈2 MB whatever the queries (a URL may carry 16 KiB of query).
 */
const fingerprints = new BoundedMemo<string, string>(4096);
const FINGERPRINT_KEY_MAX = 256;

export function fingerprint(query: string, tag: string | undefined, buildId: string): string {
  const text = `${query}\u0000${tag ?? ''}\u0000${buildId}`;
  const known = fingerprints.get(text);
  if (known !== undefined) return known;
  const fp = digest(text, 16);
  return text.length > FINGERPRINT_KEY_MAX ? fp : fingerprints.remember(text, fp);
}

/** A cursor is at most 523 characters (decodeCursor): ≤ ≈2.5 MB per memo. */
const CURSORS_MAX = 2048;
/**
 * Cursors issued and cursors checked recently, by their text: a popular query's next page is asked for again and
 * again, and a cursor is a pure function of (offset, limit, fingerprint), so neither its encoding nor its digest is
 * computed twice. A checked cursor is remembered only when valid, with its fields; whose query it belongs to is
 * compared on every use.
 */
const issued = new BoundedMemo<string, string>(CURSORS_MAX);
const checked = new BoundedMemo<string, { offset: number; limit: number; fingerprint: string }>(CURSORS_MAX);

export function encodeCursor(offset: number, limit: number, fp: string): string {
  const key = `${offset}.${limit}.${fp}`;
  const known = issued.get(key);
  if (known !== undefined) return known;
  const payload = Buffer.from(JSON.stringify({ v: VERSION, o: offset, l: limit, f: fp })).toString('base64url');
  return issued.remember(key, `${payload}.${digest(`c${VERSION}.${payload}`, 10)}`);
}

export function decodeCursor(cursor: string, fp: string): CursorCheck {
  const known = checked.get(cursor);
  if (known !== undefined) return known.fingerprint === fp ? { ok: true, offset: known.offset, limit: known.limit } : { ok: false, reason: 'foreign' };
  const m = /^([A-Za-z0-9_-]{1,512})\.([A-Za-z0-9_-]{10})$/.exec(cursor);
  if (!m) return { ok: false, reason: 'malformed' };
  const [, payload = '', check] = m;
  if (digest(`c${VERSION}.${payload}`, 10) !== check) return { ok: false, reason: 'tampered' };
  let data: { v?: unknown; o?: unknown; l?: unknown; f?: unknown };
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const { v, o, l, f } = data ?? {};
  if (v !== VERSION || !Number.isSafeInteger(o) || (o as number) < 0 || !Number.isInteger(l) || (l as number) < 1 || (l as number) > 100) {
    return { ok: false, reason: 'malformed' };
  }
  checked.remember(cursor, { offset: o as number, limit: l as number, fingerprint: f as string });
  if (f !== fp) return { ok: false, reason: 'foreign' };
  return { ok: true, offset: o as number, limit: l as number };
}
