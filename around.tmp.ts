import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { measureDocsPages } from './scripts/lib/page-weight.ts';
for (const dist of process.argv.slice(2)) {
  const pages = measureDocsPages(join(dist, 'site'));
  const kb = (n: number) => (n / 1024).toFixed(1);
  // chrome = everything but the prose (the rendered Markdown) and the "On this page" list
  const rows = pages.map((p) => {
    const h = readFileSync(join(dist, 'site', `${p.path.slice(1)}.html`), 'utf8');
    const i = h.indexOf('<div class="prose">'); const j = h.indexOf('<div class="page-actions"', i);
    const t = h.indexOf('<ul data-toc>'); const te = t < 0 ? t : h.indexOf('</ul>', t) + 5;
    const own = (j - i) + (t < 0 ? 0 : te - t);
    return { path: p.path, chrome: p.bytes - own, html: Buffer.byteLength(h) - own, assets: p.bytes - p.html.bytes };
  }).sort((a, b) => a.chrome - b.chrome);
  const q = (k: 'chrome' | 'html' | 'assets') => { const v = rows.map((r) => r[k]).sort((a, b) => a - b); return `${kb(v[0]!)}–${kb(v.at(-1)!)} (median ${kb(v[v.length >> 1]!)})`; };
  console.log(dist.padEnd(34), 'chrome', q('chrome'), '| its HTML', q('html'), '| assets', q('assets'));
}
