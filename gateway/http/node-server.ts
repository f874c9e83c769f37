// The Node HTTP server under each app (docs and assistant): how long a client may take
// to send a request, what a request Node itself refuses gets as an answer, and how the
// server drains at shutdown. Node's defaults suit a trusted network, not a public edge:
// a request may take 300 s to arrive, and its own 400/431/408 answers are bare lines
// that no API client can parse. Here a request must arrive within `requestTimeoutMs`
// (its headers within `headersTimeoutMs`), checked every second, and Node's client
// errors get the app's own error envelope, written raw on the socket (Node hands over
// the socket, not a response object). Draining is nginx's graceful quit: the listener
// closes at once, requests already on a connection finish (streams included), every
// answer from then on closes its connection, and whatever still runs at the deadline is
// cut. Idle keep-alive connections get a short grace (DRAIN_IDLE_GRACE_MS) before they are
// closed: a proxy that picks one from its pool at that moment gets an answer
// (`Connection: close`, /api/health a 503) instead of a reset on a request it already sent.
import { STATUS_CODES, createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

export interface ServerTimeouts {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
}

/** The statuses Node answers on its own, before any app code runs. */
export type ClientErrorStatus = 400 | 408 | 431;

/** The app's envelope for one of Node's client errors. */
export type ClientErrorRenderer = (status: ClientErrorStatus) => { contentType: string; body: string };

export interface GatewayServer {
  server: Server;
  /** Answers carrying `Connection: close` and no new connections, then resolves once every connection has ended (cut after `deadlineMs`). */
  drain(deadlineMs: number): Promise<{ cut: number }>;
}

// Longer than the idle time of the clients that pool connections to the gateway (nginx's
// upstream keepalive_timeout and cloud load balancers: 60 s): the side that closes an idle
// connection must be the client, or a request it sends on the connection the server is
// closing at that moment fails ("other side closed", a 502 behind a proxy), as with
// Node's 5 s default for a client that pauses between requests.
const KEEP_ALIVE_MS = 65_000;
const DRAIN_IDLE_GRACE_MS = 1000;

function clientErrorStatus(code: string | undefined): ClientErrorStatus {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** Writes the app's envelope as a whole HTTP/1.1 response on a socket Node has given up on, unless an answer is already under way. */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket, render: ClientErrorRenderer): void {
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(err.code);
  const { contentType, body } = render(status);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

export function createGatewayServer(handler: RequestListener, timeouts: ServerTimeouts, render: ClientErrorRenderer): GatewayServer {
  const server = createServer(
    {
      requestTimeout: timeouts.requestTimeoutMs,
      headersTimeout: Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs),
      // Node checks both timeouts on this interval (default 30 s, which would add up to 30 s to each bound)
      connectionsCheckingInterval: 1000,
      // Node's own refusal of an HTTP/1.1 request without Host is a bare 400; refused here instead, in the envelope.
      requireHostHeader: false,
    },
    (req, res) => {
      if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
        const { contentType, body } = render(400);
        res.writeHead(400, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', connection: 'close' }).end(body);
        return;
      }
      handler(req, res);
    },
  );
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => answerClientError(err, socket, render));

  const active = new Set<ServerResponse>();
  let draining = false;
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    active.add(res);
    res.once('close', () => active.delete(res));
    if (draining) res.shouldKeepAlive = false;
  });

  return {
    server,
    async drain(deadlineMs) {
      draining = true;
      for (const res of active) if (!res.headersSent) res.shouldKeepAlive = false;
      // net's close stops listening only; http's would also close the idle keep-alive connections now
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      let sweep: NodeJS.Timeout | undefined;
      // then idle connections close, also those whose answer started before the drain, once it ends
      const grace = setTimeout(() => {
        server.closeIdleConnections();
        sweep = setInterval(() => server.closeIdleConnections(), 100);
      }, Math.min(DRAIN_IDLE_GRACE_MS, deadlineMs));
      let cut = 0;
      const deadline = setTimeout(() => {
        cut = active.size;
        server.closeAllConnections();
      }, deadlineMs);
      await closed;
      clearTimeout(grace);
      clearInterval(sweep);
      clearTimeout(deadline);
      return { cut };
    },
  };
}

/** Opens `server` on host:port; a busy port is a clear error naming the port. */
export function listen(name: string, server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(`${name}: cannot listen on ${host}:${port} (${err.code ?? err.message})${err.code === 'EADDRINUSE' ? ': the port is in use; set a different port' : ''}`)),
    );
    server.listen(port, host, () => {
      const addr = server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
      console.log(`${name} listening on http://${shown}:${actual}`);
      resolve();
    });
  });
}
