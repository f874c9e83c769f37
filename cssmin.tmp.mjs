import { transform } from 'lightningcss';
import { readFileSync } from 'node:fs';
const min = (code) => transform({ filename: 'x.css', code: Buffer.from(code), minify: true }).code.length;
for (const f of process.argv.slice(2)) {
  const src = readFileSync(f, 'utf8');
  const parts = src.split(/(?=^\/\* ── )/m);
  console.log(f, 'total', min(src));
  for (const p of parts) console.log('  ', String(min(p)).padStart(6), p.split('\n')[0].slice(0, 70));
}
