// Request bodies for both apps: the media type checked before a byte is read, the size
// limit enforced before reading (a declared Content-Length) and while reading (a chunked
// body), JSON parsed with a message a client can act on. Every refusal is an h3
// HTTPError whose headers travel with it; each app turns it into its own envelope.
//
// Past the limit nothing more is kept and the 413 is answered at once. The rest of the
// upload is then read and thrown away for a bounded time and amount before the socket
// closes (nginx's lingering close): closing a socket that still has unread bytes makes
// the kernel send a reset, and a reset can destroy the answer before the client reads it.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { HTTPError } from 'h3';
import { isJsonType, mediaTypeOf } from './media-type.ts';

/** Lingering close after a refused body: at most this much more is read and thrown away… */
const LINGER_BYTES = 16 * 1024 * 1024;
/** …for at most this long in all… */
const LINGER_MS = 30_000;
/** …and at most this long without a byte from the client (nginx: lingering_time 30 s, lingering_timeout 5 s). */
const LINGER_IDLE_MS = 5000;

export interface BodyRules {
  /** Largest body in bytes. */
  limit: number;
  /** Accepted media types; `json` stands for application/json and every application/*+json. */
  types: readonly string[];
  /** Named in messages, e.g. `POST /api/md/batch`. */
  endpoint: string;
}

export interface RequestBody {
  /** The media type of the body, lower case, without parameters. */
  type: string;
  text: string;
}

const acceptedList = (types: readonly string[]) => types.map((t) => (t === 'json' ? 'application/json' : t)).join(' or ');

/** 415 unless the Content-Type is one of `types`. Returns the media type. */
export function requireMediaType(req: Request, rules: Pick<BodyRules, 'types' | 'endpoint'>): string {
  const type = mediaTypeOf(req.headers.get('content-type'));
  const ok = rules.types.some((t) => (t === 'json' ? isJsonType(type) : t === type));
  if (!ok) {
    throw new HTTPError({
      status: 415,
      message: `${rules.endpoint} takes ${acceptedList(rules.types)}${type ? ` (got ${type})` : ' (no Content-Type sent)'}.`,
    });
  }
  return type;
}

function tooLarge(limit: number): HTTPError {
  // The rest of the body may be unread: the connection cannot carry another request.
  return new HTTPError({ status: 413, message: `The request body is larger than ${limit} bytes.`, headers: { connection: 'close' } });
}

/** The body of `req`: media type checked, size limited, as UTF-8 text. */
export async function readBody(req: Request, rules: BodyRules): Promise<RequestBody> {
  const type = requireMediaType(req, rules);
  const text = await readLimitedText(req, rules.limit);
  return { type, text };
}

/** The body as UTF-8 text; 413 past `limit` bytes. */
export async function readLimitedText(req: Request, limit: number): Promise<string> {
  const declared = req.headers.get('content-length');
  const node = unreadNodeRequest(req);
  if (declared && /^\d+$/.test(declared) && Number(declared) > limit) {
    if (node) lingerAfterAnswer(node, 0);
    throw tooLarge(limit);
  }
  const text = node ? await readNodeBody(node, limit) : await readWebBody(req, limit);
  if (text === null) throw tooLarge(limit);
  return text;
}

/** Parses a JSON body; 400 with the parser's reason when it is empty or not JSON. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') throw new HTTPError({ status: 400, message: 'The request body is empty; send a JSON object.' });
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HTTPError({ status: 400, message: `The request body is not valid JSON: ${(err as Error).message}` });
  }
}

/** The Node.js request under srvx's Request (node adapter), when its body has not been touched yet. */
function unreadNodeRequest(req: Request): IncomingMessage | undefined {
  if (req.method === 'GET' || req.method === 'HEAD' || req.bodyUsed) return undefined;
  const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  if (!node || typeof node.on !== 'function' || 'rawBody' in node || node.readableDidRead || node.readableEnded) return undefined;
  return node;
}

/**
 * Reads straight from the Node.js stream: the web ReadableStream srvx would wrap around it
 * (Readable.toWeb) costs a third of reading a small JSON body under load. Null past `limit`,
 * at once (the rest lingers, see lingerAfterAnswer); a client that goes away mid-body
 * rejects with an AbortError, as the web stream's read does.
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
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      done();
      lingerAfterAnswer(node, size - limit);
      resolve(null);
    };
    const onEnd = (): void => {
      done();
      resolve(Buffer.concat(chunks, size).toString('utf8'));
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

/** The same from a web stream (a Request that is not srvx's Node request). */
async function readWebBody(req: Request, limit: number): Promise<string | null> {
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

/**
 * After a refused body: throw away what the client still sends, and when the answer (sent
 * with Connection: close) is written, half-close instead of closing, so the answer reaches
 * the client before any reset. The socket closes when the client does, or at the first
 * bound passed: LINGER_BYTES read, LINGER_MS in all, LINGER_IDLE_MS without data.
 */
function lingerAfterAnswer(node: IncomingMessage, alreadyRead: number): void {
  const socket = node.socket as (Socket & { destroySoon?: () => void }) | null;
  if (!socket || socket.destroyed) return;
  let discarded = alreadyRead;
  const close = () => socket.destroy();
  node.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) close();
  });
  node.resume();
  // Node's server ends a Connection: close response with socket.destroySoon(): end, then destroy once written.
  // Here it ends (FIN after the answer) and keeps reading until the client closes or a bound is passed.
  socket.destroySoon = () => {
    socket.end();
    const total = setTimeout(close, LINGER_MS).unref();
    socket.setTimeout(LINGER_IDLE_MS, close);
    socket.once('close', () => clearTimeout(total));
    socket.once('end', close);
  };
}
