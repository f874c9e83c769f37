// `npm run weight`: the weight of every documentation page of a built site before search
// (HTML + the stylesheets, scripts and icon it loads; the search and Ask code load on
// demand and are left out), raw and brotli, as a distribution against issue 19's target
// (≤ 60 KB, ≤ 25 KB compressed). Reports, never fails on a number.
//
//   npm run weight [-- --dist <dist dir>] [--top 10]
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { measureDocsPages, quantile } from './lib/page-weight.ts';

const { values: args } = parseArgs({
  options: { dist: { type: 'string', default: process.env.DIST_DIR || 'dist' }, top: { type: 'string', default: '10' } },
});
const siteDir = join(resolve(args.dist), 'site');
const pages = measureDocsPages(siteDir);
if (!pages.length) throw new Error(`weight: no docs pages under ${siteDir} (build first: npm run build)`);

const kb = (n: number) => (n / 1024).toFixed(1);
const limit = { bytes: 60 * 1024, brotli: 25 * 1024 };
const shared = pages[0]!.assets;
console.log(`${pages.length} docs pages in ${siteDir}`);
console.log(`shared assets: ${shared.map((a) => `${a.path} ${kb(a.bytes)} KB (${kb(a.brotli)} br)`).join(', ')}`);
for (const key of ['bytes', 'brotli'] as const) {
  const sorted = pages.map((p) => p[key]).sort((a, b) => a - b);
  const html = pages.map((p) => p.html[key]).sort((a, b) => a - b);
  const over = sorted.filter((n) => n > limit[key]).length;
  console.log(
    `${key === 'bytes' ? 'raw   ' : 'brotli'}  min ${kb(sorted[0]!)}  median ${kb(quantile(sorted, 0.5))}  p90 ${kb(quantile(sorted, 0.9))}  max ${kb(sorted.at(-1)!)} KB` +
      `  (HTML alone: median ${kb(quantile(html, 0.5))}, max ${kb(html.at(-1)!)})  over ${kb(limit[key])} KB: ${over} of ${pages.length}`,
  );
}
console.log(`\nheaviest ${args.top}:`);
for (const p of pages.slice(pages.length - Number(args.top)).reverse()) console.log(`  ${kb(p.bytes).padStart(6)} KB  ${kb(p.brotli).padStart(5)} br  HTML ${kb(p.html.bytes).padStart(5)}  ${p.path}`);
