// A static-only deployment of a build: what a CDN or any file host serves from dist/site
// with no gateway behind it (content/docs/deploy/static-cdn.md). Files by path, `/a/b`
// from `a/b.html`, content types by extension (module scripts need theirs), and the
// site's 404.html with status 404 for anything else, /api/* and /ask included.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticHost {
  url: string;
  stop: () => Promise<void>;
}

export async function startStaticHost(siteDir: string): Promise<StaticHost> {
  const server: Server = createServer((req, res) => {
    let path = '/';
    try {
      path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname));
    } catch {
      // a malformed escape: served as not found
    }
    const candidates = path.endsWith('/') ? [join(path, 'index.html')] : [path, `${path}.html`];
    const serve = async () => {
      for (const candidate of candidates) {
        try {
          const body = await readFile(join(siteDir, candidate));
          res.writeHead(200, { 'content-type': types[extname(candidate)] ?? 'application/octet-stream' });
          return res.end(body);
        } catch {
          // next candidate
        }
      }
      res.writeHead(404, { 'content-type': types['.html']! });
      res.end(await readFile(join(siteDir, '404.html')));
    };
    void serve();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
