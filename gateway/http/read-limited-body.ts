// Request bodies with a size limit enforced before and while reading: a declared
// Content-Length over the limit is refused unread, a streamed (chunked) body is cut
// off as soon as it passes the limit. Each app maps "too large" to its own 413.

/**
 * The body as UTF-8 text, or null when it is over `limit` bytes. On null the rest of
 * the body is left unread, so the 413 must close the connection.
 */
export async function readLimitedBody(req: Request, limit: number): Promise<string | null> {
  const declared = req.headers.get('content-length');
  if (declared && /^\d+$/.test(declared) && Number(declared) > limit) return null;
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
