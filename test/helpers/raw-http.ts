// An upload over a raw socket, chunked or with a Content-Length. fetch() can fail with
// EPIPE when a server answers 413 and closes while the body is still being sent (the
// correct server behaviour); here the response is read whatever happens to the rest of
// the upload.
import { connect } from 'node:net';

function decodeChunked(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = parseInt(body.subarray(at, eol).toString(), 16);
    if (!size) break;
    out.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** POSTs `chunks` with Transfer-Encoding: chunked (or, with `framing: 'length'`, a Content-Length) and returns the server's answer as a Response. */
export function postChunked(baseUrl: string, path: string, headers: Record<string, string>, chunks: Uint8Array[], framing: 'chunked' | 'length' = 'chunked'): Promise<Response> {
  const chunked = framing === 'chunked';
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', () => {}); // EPIPE / ECONNRESET once the server has answered and closed
    socket.on('close', () => {
      const raw = Buffer.concat(received);
      const split = raw.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`no HTTP response: ${raw.toString()}`));
      const [statusLine, ...lines] = raw.subarray(0, split).toString().split('\r\n');
      const status = Number(statusLine!.split(' ')[1]);
      const h = new Headers();
      for (const line of lines) {
        const colon = line.indexOf(':');
        h.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const rest: Buffer = raw.subarray(split + 4);
      const body = /chunked/i.test(h.get('transfer-encoding') ?? '') ? decodeChunked(rest) : rest;
      h.delete('transfer-encoding');
      resolve(new Response(new Uint8Array(body), { status, headers: h }));
    });
    socket.on('connect', async () => {
      const length = chunks.reduce((n, c) => n + c.byteLength, 0);
      const head = [`POST ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`, 'Connection: close'];
      for (const [k, v] of Object.entries(headers)) head.push(`${k}: ${v}`);
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      for (const chunk of chunks) {
        if (socket.destroyed || socket.writableEnded) return;
        if (chunked) socket.write(`${chunk.byteLength.toString(16)}\r\n`);
        socket.write(chunk);
        if (chunked) socket.write('\r\n');
        await new Promise((r) => setImmediate(r));
      }
      if (!socket.destroyed) socket.end(chunked ? '0\r\n\r\n' : '');
    });
  });
}
