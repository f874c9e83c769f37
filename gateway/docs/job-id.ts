// Stateless job ids: `j1.<base64url(deflate-raw(JSON paths))>.<8-char checksum>`.
// The id is the request itself, so any instance can run it on poll and nothing is
// stored. The checksum catches typos and truncation; it is not a signature (a
// forged id can only describe another read-only batch, which anyone may run).
// The checksum covers the build id too: a job accepted on one build is unknown (404)
// once the gateway serves another, instead of answering with content it never accepted.
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { apiLimits } from '../contract/docs-api.ts';

const PREFIX = 'j1';
const MAX_ID = 8192;
const MAX_JSON = 64 * 1024;

const Paths = z.array(z.string().max(2048)).min(1).max(apiLimits.batchPathsMax);

const check = (payload: string, buildId: string) => createHash('sha256').update(`${PREFIX}.${buildId}.${payload}`).digest('base64url').slice(0, 8);

export function encodeJobId(paths: string[], buildId: string): string {
  const payload = deflateRawSync(Buffer.from(JSON.stringify(paths)), { level: 9 }).toString('base64url');
  return `${PREFIX}.${payload}.${check(payload, buildId)}`;
}

/** The paths a job id of build `buildId` encodes, or null for anything malformed, altered or of another build. */
export function decodeJobId(id: string, buildId: string): string[] | null {
  if (id.length > MAX_ID) return null;
  const m = /^j1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{8})$/.exec(id);
  if (!m || check(m[1]!, buildId) !== m[2]) return null;
  try {
    const json = inflateRawSync(Buffer.from(m[1]!, 'base64url'), { maxOutputLength: MAX_JSON }).toString('utf8');
    const parsed = Paths.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
