// `npm run bench -- --scale`: the cost curve. One ordinary bench run per size
// (its own corpus, cold build, cold gateway, the health and cold limited-search
// phases), each a child process writing bench/results/scale-n<pages>.json, so a
// size is measured exactly as `npm run bench -- --pages N` measures it. Then one
// table (bench/results/scale.md, .json) and a chart (scale.svg) of build time, build
// peak RSS, index size, gateway RSS, cold start and limited-search p99 per size,
// with the cost-curve targets of 20,000 against 10,000 pages.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../astro-build.ts';
import { smallMultiplesSvg } from './chart.ts';
import type { BenchResult, Target } from './report.ts';

interface ScalePoint {
  pages: number;
  buildS: number;
  buildPeakGb: number;
  indexMb: number;
  gatewayRssMb: number;
  coldStartS: number;
  limitedP99Ms: number;
  limitedRps: number;
}

const resultsDir = join(repoRoot, 'bench', 'results');

function runOne(pages: number, options: { duration: string; connections: string; seed: string }): Promise<void> {
  const args = ['scripts/bench.ts', '--pages', String(pages), '--duration', options.duration, '--connections', options.connections, '--seed', options.seed, '--only', 'health,search (limited)', '--name', `scale-n${pages}`];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' });
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench at ${pages} pages exited with ${code}`)))));
}

function point(pages: number): ScalePoint {
  const r = JSON.parse(readFileSync(join(resultsDir, `scale-n${pages}.json`), 'utf8')) as BenchResult;
  const limited = r.gateway?.loads.find((l) => l.name === 'search (limited)');
  return {
    pages,
    buildS: r.build?.wallS ?? 0,
    buildPeakGb: (r.build?.peakRssBytes ?? 0) / 1024 ** 3,
    indexMb: (r.build?.pagefindBytes ?? 0) / 1024 ** 2,
    gatewayRssMb: (r.gateway?.rssAfterBytes ?? 0) / 1024 ** 2,
    coldStartS: (r.gateway?.coldStartMs ?? 0) / 1000,
    limitedP99Ms: limited?.p99Ms ?? 0,
    limitedRps: limited?.rps ?? 0,
  };
}

function costTargets(points: ScalePoint[]): Target[] {
  const at = (pages: number) => points.find((p) => p.pages === pages);
  const ten = at(10_000);
  const twenty = at(20_000);
  if (!ten || !twenty) return [];
  const ratio = (name: string, goal: number, a: number, b: number): Target => ({ name, target: `≤ ${goal}×`, value: `${(b / a).toFixed(2)}×`, pass: b / a <= goal });
  return [
    ratio('build time, 20,000 vs 10,000 pages', 2.2, ten.buildS, twenty.buildS),
    ratio('build peak RSS, 20,000 vs 10,000 pages', 1.5, ten.buildPeakGb, twenty.buildPeakGb),
    ratio('limited-search p99, 20,000 vs 10,000 pages', 1.5, Math.max(1, ten.limitedP99Ms), twenty.limitedP99Ms),
  ];
}

export async function runScale(options: { sizes: number[]; duration: string; connections: string; seed: string }): Promise<void> {
  for (const pages of options.sizes) await runOne(pages, options);
  const points = options.sizes.map(point);
  const targets = costTargets(points);
  const lines = [
    `Cost curve, ${new Date().toISOString()} (\`npm run bench -- --scale\`; limited search: every query with a limit, cold cache, ${options.connections} connections, ${options.duration} s).`,
    '',
    '| pages | build | build peak RSS | Pagefind index | gateway RSS after load | cold start | limited search p99 | limited search req/s |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...points.map((p) => `| ${p.pages.toLocaleString('en')} | ${p.buildS.toFixed(1)} s | ${p.buildPeakGb.toFixed(2)} GB | ${p.indexMb.toFixed(0)} MB | ${p.gatewayRssMb.toFixed(0)} MB | ${p.coldStartS.toFixed(2)} s | ${p.limitedP99Ms} ms | ${p.limitedRps} |`),
    '',
    ...(targets.length ? ['| Target | Goal | Measured | Pass |', '|---|---|---|---|', ...targets.map((t) => `| ${t.name} | ${t.target} | ${t.value} | ${t.pass ? 'pass' : '**FAIL**'} |`), ''] : []),
    '![Cost curve: build time, build peak RSS, index size, gateway RSS, cold start and limited-search p99 by page count](scale.svg)',
  ];
  const svg = smallMultiplesSvg(
    [
      { title: 'Build time', unit: 's', points: points.map((p) => ({ x: p.pages, y: p.buildS })) },
      { title: 'Build peak RSS', unit: 'GB', points: points.map((p) => ({ x: p.pages, y: p.buildPeakGb })) },
      { title: 'Pagefind index', unit: 'MB', points: points.map((p) => ({ x: p.pages, y: p.indexMb })) },
      { title: 'Gateway RSS after load', unit: 'MB', points: points.map((p) => ({ x: p.pages, y: p.gatewayRssMb })) },
      { title: 'Cold start', unit: 's', points: points.map((p) => ({ x: p.pages, y: p.coldStartS })) },
      { title: 'Limited search p99', unit: 'ms', points: points.map((p) => ({ x: p.pages, y: p.limitedP99Ms })) },
    ],
    'pages',
  );
  writeFileSync(join(resultsDir, 'scale.json'), JSON.stringify({ date: new Date().toISOString(), points, targets }, null, 2) + '\n');
  writeFileSync(join(resultsDir, 'scale.md'), lines.join('\n') + '\n');
  writeFileSync(join(resultsDir, 'scale.svg'), svg);
  console.log(lines.join('\n'));
  console.log('[bench] wrote bench/results/scale.json, scale.md and scale.svg');
}
