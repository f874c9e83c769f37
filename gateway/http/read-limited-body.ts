// Request bodies with a size limit enforced before and while reading: a declared
// Content-Length over the limit is refused unread, a streamed (chunked) body stops
// being kept as soon as it passes the limit. Each app maps "too large" to its own 413.
import type { IncomingMessage } from 'node:http';

/**
 * After the limit is passed, up to this much more is read and thrown away. Closing a
 * socket with unread request bytes makes the kernel send RST, and the client can then
 * lose the 413 itself; draining a bounded amount lets the answer arrive. Bodies larger
 * still are cut off.
 */
const DRAIN_BYTES = 1024 * 1024;

/** The Node.js request under srvx's Request (node adapter), when its body has not been touched yet. */
function unreadNodeRequest(req: Request): IncomingMessage | undefined {
  if (req.method === 'GET' || req.method === 'HEAD' || req.bodyUsed) return undefined;
  const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  if (!node || typeof node.on !== 'function' || 'rawBody' in node || node.readableDidRead || node.readableEnded) return undefined;
  return node;
}

/**
 * readLimitedBody straight from the Node.js stream: the web ReadableStream srvx would wrap around it
 * (Readable.toWeb) cost a third of reading a small JSON body under load (POST /api/md/batch). Same
 * limit and drain rules; a client that goes away mid-body rejects, as the web stream's read does.
 */
function readNodeBody(node: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // the 'error' listener stays: a late error on a settled read must not become an uncaught exception
    const done = (): void => {
      node.off('data', onData);
      node.off('end', onEnd);
      node.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit + DRAIN_BYTES) {
        done();
        node.destroy();
        resolve(null);
      } else if (size <= limit) chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(size > limit ? null : Buffer.concat(chunks, size).toString('utf8'));
    };
    // a request stream fails only when the client resets or leaves: an abort, not a gateway error
    const gone = (cause?: Error): void => {
      done();
      reject(Object.assign(new Error('the client closed the request before its body ended', { cause }), { name: 'AbortError' }));
    };
    const onError = (err: Error): void => gone(err);
    const onClose = (): void => {
      if (!node.readableEnded) gone(); // else 'end' came first
    };
    node.on('data', onData);
    node.on('end', onEnd);
    node.on('error', onError);
    node.on('close', onClose);
  });
}

/**
 * The body as UTF-8 text, or null when it is over `limit` bytes. On null the rest of
 * the body may be unread, so the 413 must close the connection.
 */
export async function readLimitedBody(req: Request, limit: number): Promise<string | null> {
  const declared = req.headers.get('content-length');
  if (declared && /^\d+$/.test(declared) && Number(declared) > limit) return null;
  const node = unreadNodeRequest(req);
  if (node) return readNodeBody(node, limit);
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
