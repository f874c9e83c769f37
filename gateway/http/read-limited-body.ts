// Request bodies with a size limit enforced before and while reading: a declared
// Content-Length over the limit is refused unread, a streamed (chunked) body stops
// being kept as soon as it passes the limit. Each app maps "too large" to its own 413.

/**
 * After the limit is passed, up to this much more is read and thrown away. Closing a
 * socket with unread request bytes makes the kernel send RST, and the client can then
 * lose the 413 itself; draining a bounded amount lets the answer arrive. Bodies larger
 * still are cut off.
 */
const DRAIN_BYTES = 1024 * 1024;

/**
 * The body as UTF-8 text, or null when it is over `limit` bytes. On null the rest of
 * the body may be unread, so the 413 must close the connection.
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
    if (size > limit + DRAIN_BYTES) {
      await reader.cancel().catch(() => {});
      return null;
    }
    if (size <= limit) chunks.push(value);
  }
  return size > limit ? null : Buffer.concat(chunks).toString('utf8');
}
