// `npm run lighthouse`: Lighthouse (mobile, its default: a throttled mid-range phone) on a
// built site served by the real gateway, as a reader meets it: a long docs page (tables,
// code, callouts) and the home page. Prints the four category scores, the core timings and
// the bytes transferred, and the audits that cost points. Reports, never fails on a score;
// not part of `npm test`. Needs Chromium (CHROME_PATH, default /usr/bin/chromium).
//
//   npm run build && npm run lighthouse [-- --dist <dist dir>] [--page /docs/a/b] [--runs 3]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from './lib/astro-build.ts';
import { startGateway } from './lib/gateway-process.ts';

const { values: args } = parseArgs({
  options: {
    dist: { type: 'string', default: process.env.DIST_DIR || 'dist' },
    page: { type: 'string', multiple: true },
    runs: { type: 'string', default: '1' },
  },
});
const distDir = resolve(args.dist);
if (!existsSync(join(distDir, 'site', 'index.html'))) throw new Error(`lighthouse: no built site in ${distDir} (run npm run build first)`);
const pages = args.page?.length ? args.page : ['/docs/configuration/environment', '/'];
const runs = Math.max(1, Number(args.runs) || 1);
const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

interface LighthouseReport {
  environment: { benchmarkIndex: number };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, { score: number | null; numericValue?: number; displayValue?: string; title: string; scoreDisplayMode: string }>;
}

function lighthouse(url: string): Promise<LighthouseReport> {
  const cli = join(repoRoot, 'node_modules/lighthouse/cli/index.js');
  const flags = ['--output=json', '--output-path=stdout', '--quiet', '--chrome-flags=--headless --no-sandbox --disable-gpu'];
  const child = spawn(process.execPath, [cli, url, ...flags], { env: { ...process.env, CHROME_PATH: chromePath }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((done, fail) =>
    child.on('close', (code) => (code === 0 ? done(JSON.parse(out) as LighthouseReport) : fail(new Error(`lighthouse exited ${code}:\n${err.slice(-2000)}`)))),
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const gateway = await startGateway(distDir);
try {
  for (const path of pages) {
    const reports: LighthouseReport[] = [];
    for (let i = 0; i < runs; i++) reports.push(await lighthouse(gateway.url + path));
    const score = (id: string) => median(reports.map((r) => Math.round((r.categories[id]?.score ?? 0) * 100)));
    const metric = (id: string) => median(reports.map((r) => r.audits[id]?.numericValue ?? 0));
    // Lighthouse simulates a phone's CPU as 4× this machine's: on a busy machine every task, and TBT with it, grows.
    const benchmark = median(reports.map((r) => r.environment.benchmarkIndex));
    console.log(`\n${path}  (${runs} run${runs > 1 ? 's, medians' : ''}; Lighthouse mobile; this machine's benchmarkIndex ${benchmark.toFixed(0)})`);
    console.log(`  ${categories.map((c) => `${c} ${score(c)}`).join('  ')}`);
    console.log(
      `  FCP ${(metric('first-contentful-paint') / 1000).toFixed(2)} s  LCP ${(metric('largest-contentful-paint') / 1000).toFixed(2)} s` +
        `  TBT ${metric('total-blocking-time').toFixed(0)} ms  CLS ${metric('cumulative-layout-shift').toFixed(3)}` +
        `  transferred ${(metric('total-byte-weight') / 1024).toFixed(1)} KiB`,
    );
    // What costs points in the last run: scored audits below 1 that the categories count.
    const last = reports.at(-1)!;
    const counted = new Set(categories.flatMap((c) => last.categories[c]?.auditRefs.filter((a) => a.weight > 0).map((a) => a.id) ?? []));
    for (const [id, audit] of Object.entries(last.audits)) {
      if (counted.has(id) && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative') {
        console.log(`  - ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''} [${id}]`);
      }
    }
  }
} finally {
  await gateway.stop();
}
