// Precompressed siblings: the build writes x.br and x.gz beside text files (never
// beside images or Pagefind's compressed chunks), and the gateway sends them with
// Content-Encoding and Vary: Accept-Encoding to clients that accept them — never for
// a Range request. Raw HTTP here: fetch would decode the body and hide the encoding.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtureBuild } from '../helpers/manifest.ts';
import { roomyEnv, useGateway } from './helpers.ts';

const { distDir, manifest } = fixtureBuild();
const siteDir = join(distDir, 'site');
const page = manifest.pages[0]!;
const gw = useGateway(distDir, { ...roomyEnv, ASSISTANT_ENABLED: 'true' });

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const url = new URL(gw.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('precompressed siblings at build time', () => {
  it('writes .br and .gz beside pages, twins, CSS and JS, decoding to the same bytes', () => {
    // The shared stylesheet (the largest): page-only sheets under 1 KB are rightly left uncompressed.
    const css = readdirSync(join(siteDir, '_astro'))
      .filter((f) => f.endsWith('.css'))
      .sort((a, b) => statSync(join(siteDir, '_astro', b)).size - statSync(join(siteDir, '_astro', a)).size)[0]!;
    for (const rel of [`${page.path.slice(1)}.html`, page.md.replace(/^\//, ''), `_astro/${css}`, 'llms.txt', 'pagefind/pagefind-ui.js']) {
      const original = readFileSync(join(siteDir, rel));
      expect(brotliDecompressSync(readFileSync(join(siteDir, `${rel}.br`))).equals(original), `${rel}.br`).toBe(true);
      expect(gunzipSync(readFileSync(join(siteDir, `${rel}.gz`))).equals(original), `${rel}.gz`).toBe(true);
    }
  });

  it('gives every text file of both trees siblings that decode to its bytes, and leaves no compress-ahead folder', () => {
    // Most siblings are made during the render and moved into place by their bytes' hash (src/integration/compress-ahead.ts).
    let checked = 0;
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(html|md|txt|json|js|css|svg|xml)$/.test(entry.name) && statSync(path).size >= 1024) {
          const original = readFileSync(path);
          expect(brotliDecompressSync(readFileSync(`${path}.br`)).equals(original), `${path}.br`).toBe(true);
          expect(gunzipSync(readFileSync(`${path}.gz`)).equals(original), `${path}.gz`).toBe(true);
          checked++;
        }
      }
    };
    walk(siteDir);
    walk(join(distDir, 'portfolio'));
    expect(checked).toBeGreaterThan(manifest.pages.length);
    expect(existsSync(join(distDir, 'compress-ahead'))).toBe(false);
  });

  it('leaves already-compressed and binary files alone', () => {
    const fragments = readdirSync(join(siteDir, 'pagefind', 'fragment'));
    expect(fragments.filter((f) => /\.(br|gz)$/.test(f))).toEqual([]);
    const svg = readdirSync(join(siteDir, '_astro')).filter((f) => /\.(png|woff2|wasm)\.(br|gz)$/.test(f));
    expect(svg).toEqual([]);
    expect(readdirSync(join(siteDir, 'pagefind')).filter((f) => /\.(wasm|pf_meta)[^/]*\.(br|gz)$/.test(f))).toEqual([]);
  });
});

describe('the gateway sends them', () => {
  it('brotli first, then gzip, with Vary: Accept-Encoding and the original type', async () => {
    const html = readFileSync(join(siteDir, `${page.path.slice(1)}.html`));
    const br = await get(page.path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.headers.vary).toMatch(/Accept\b/);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).equals(html)).toBe(true);

    const gz = await get(page.path, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(html)).toBe(true);
    expect(gz.headers.etag).not.toBe(br.headers.etag);

    const refused = await get(page.path, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(html)).toBe(true);
    const plain = await get(page.path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
  });

  it('encodes the Markdown twin too, also when negotiated by Accept', async () => {
    const twin = readFileSync(join(siteDir, page.md));
    const res = await get(page.path, { accept: 'text/markdown', 'accept-encoding': 'br' });
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.body).equals(twin)).toBe(true);
  });

  it('sends identity bytes for a Range request and for already-compressed files', async () => {
    const ranged = await get(page.path, { 'accept-encoding': 'br, gzip', range: 'bytes=0-99' });
    expect(ranged.headers['content-encoding']).toBeUndefined();
    const fragment = readdirSync(join(siteDir, 'pagefind', 'fragment'))[0]!;
    const chunk = await get(`/pagefind/fragment/${fragment}`, { 'accept-encoding': 'br, gzip' });
    expect(chunk.status).toBe(200);
    expect(chunk.headers['content-encoding']).toBeUndefined();
    expect(chunk.headers.vary ?? '').not.toMatch(/Accept-Encoding/);
  });

  it('answers HEAD and If-None-Match for the encoded variant', async () => {
    const head = await get(page.path, { 'accept-encoding': 'br' }, 'HEAD');
    const size = readFileSync(join(siteDir, `${page.path.slice(1)}.html.br`)).length;
    expect(Number(head.headers['content-length'])).toBe(size);
    const again = await get(page.path, { 'accept-encoding': 'br', 'if-none-match': String(head.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.headers['content-encoding']).toBe('br');
  });

  it('serves the assistant site precompressed as well', async () => {
    const portfolio = join(distDir, 'portfolio', 'index.html');
    if (!existsSync(`${portfolio}.br`)) throw new Error('the build wrote no index.html.br for the assistant site');
    const url = new URL(gw.assistantUrl);
    const res = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: '/', headers: { 'accept-encoding': 'br', accept: 'text/html' } }, (r) => {
        r.resume();
        r.on('end', () => resolve(r.headers));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res['content-encoding']).toBe('br');
    expect(res.vary).toMatch(/Accept-Encoding/);
  });
});
