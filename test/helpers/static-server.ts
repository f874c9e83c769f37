// A tiny static server for a built site tree, the way a static host serves it:
// /x → x.html (then x, then x/index.html), content types from the one map,
// 404.html for anything missing. Loopback only; for tests.
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { contentTypeFor } from '../../gateway/static/content-types.ts';

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Serves `root` on 127.0.0.1 (a free port unless `port` is given). */
export async function startStaticServer(root: string, port = 0): Promise<StaticServer> {
  const base = normalize(root + sep);
  const resolve = async (urlPath: string): Promise<string | undefined> => {
    const clean = urlPath === '/' ? '/index' : urlPath.replace(/\/+$/, '');
    const candidates = [`${clean}.html`, clean, `${clean}/index.html`];
    for (const c of candidates) {
      const file = normalize(join(base, c));
      if (!file.startsWith(base)) return undefined; // path traversal
      if (await isFile(file)) return file;
    }
    return undefined;
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      let path: string;
      try {
        path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD' }).end();
        return;
      }
      const file = await resolve(path);
      const status = file ? 200 : 404;
      const served = file ?? join(base, '404.html');
      let body: Buffer;
      try {
        body = await readFile(served);
      } catch {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
        return;
      }
      const type = contentTypeFor(`/${served.slice(base.length).split(sep).join('/')}`);
      res.writeHead(status, { 'Content-Type': type, 'Content-Length': body.length, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(String(err));
    });
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
