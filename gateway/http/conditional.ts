// If-None-Match per RFC 9110 §13.1.2: `*`, or a list of entity tags compared weakly.

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** True when the request's If-None-Match says the client already has `etag` (answer 304). */
export function notModified(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const current = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === current);
}
