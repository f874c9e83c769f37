// `npm run soak` (not part of `npm test`): ten minutes of mixed load against two
// gateways behind nginx sharing one real Redis, while the run restarts Redis, stalls
// it, stalls the model and restarts one gateway (see scripts/lib/soak/). Reports
// requests, errors other than 429 by target and by the fault under way, RSS of each
// instance after warm-up and at the end, and p50/p99 per route; writes
// bench/results/soak.{json,md}. Exits 1 when the surviving instance made an error.
//   --minutes M (default 10)  --rate R requests/s (default 150)  --out DIR
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runAstroBuild, repoRoot } from './lib/astro-build.ts';
import { statusBytes } from '../src/lib/process-tree.ts';
import { runLoad, type Exchange } from './lib/soak/load.ts';
import { startSoakStack } from './lib/soak/stack.ts';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, rate: { type: 'string', default: '150' }, out: { type: 'string', default: join(repoRoot, 'bench', 'results') } } });
const seconds = Number(values.minutes) * 60;
const distDir = resolve(repoRoot, process.env.DIST_DIR || 'dist');
if (!existsSync(join(distDir, 'site', 'build-manifest.json'))) {
  console.log('No build yet: building the site first…');
  const code = await runAstroBuild({ stdio: 'inherit' });
  if (code !== 0) process.exit(code);
}
const pages = (JSON.parse(readFileSync(join(distDir, 'site', 'build-manifest.json'), 'utf8')) as { pages: { path: string }[] }).pages.map((p) => p.path).filter((p) => p.startsWith('/docs/'));

const origin = 'https://soak.example.test';
const stack = await startSoakStack(distDir, { ASSISTANT_ALLOWED_ORIGINS: origin, RATE_LIMIT_MAX: '100000', ASSISTANT_RATE_LIMIT_MAX: '100000' });
const started = Date.now();
const elapsed = () => (Date.now() - started) / 1000;

/** The faults, at fractions of the run: what is under way when an error happens is reported with it. */
const faults: { name: string; at: number; run: () => Promise<void> }[] = [
  { name: 'redis restart', at: 0.2, run: () => stack.restartRedis() },
  { name: 'redis stalled 8 s (SIGSTOP)', at: 0.35, run: () => stack.stallRedis(8_000) },
  { name: 'model stalled 20 s', at: 0.5, run: async () => { stack.model.setMode('hang'); await new Promise((r) => setTimeout(r, 20_000)); stack.model.setMode('ok'); } },
  { name: 'gateway-1 restart (SIGTERM)', at: 0.7, run: () => stack.restartGateway(1) },
];
const windows: { name: string; from: number; to: number }[] = [];
const faultRuns = faults.map(async (fault) => {
  await new Promise((r) => setTimeout(r, fault.at * seconds * 1000));
  const from = elapsed();
  console.log(`[${from.toFixed(0)} s] ${fault.name}`);
  await fault.run().catch((error: Error) => console.error(`fault ${fault.name} failed: ${error.message}`));
  windows.push({ name: fault.name, from, to: elapsed() + 5 });
});

const memory: { at: number; gateway: number; pid: number; rss: number }[] = [];
const sampler = setInterval(() => stack.gateways.forEach((g, gateway) => memory.push({ at: elapsed(), gateway, pid: g.process.pid!, rss: statusBytes(g.process.pid!) })), 5_000);

console.log(`Soak: ${values.minutes} min at ${values.rate} req/s through ${stack.nginxUrl} and straight to both gateways`);
const { exchanges, skipped } = await runLoad(
  { nginxUrl: stack.nginxUrl, gatewayUrls: () => stack.gateways.map((g) => g.url), assistantUrls: () => stack.gateways.map((g) => g.assistantUrl), pages, origin },
  { rate: Number(values.rate), seconds, maxInFlight: 128, directShare: 0.3, started },
);
await Promise.all(faultRuns);
clearInterval(sampler);
const alive = stack.gateways.map((g) => g.process.exitCode === null);
await stack.stop();

// ---- report ---------------------------------------------------------------------
const during = (e: Exchange) => windows.find((w) => e.at >= w.from && e.at <= w.to)?.name ?? 'no fault';
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;
// The assistant's documented answer while its model does not respond is 503 `unavailable`: expected in that window.
const modelStall = faults[2]!.name;
const expectedUnavailable = (e: Exchange) => e.status === 503 && e.route.startsWith('assistant') && during(e) === modelStall && e.error.startsWith('503 unavailable');
const errors = exchanges.filter((e) => e.error && !expectedUnavailable(e));
const byRoute = [...new Set(exchanges.map((e) => e.route))].map((route) => {
  const list = exchanges.filter((e) => e.route === route);
  const ms = list.map((e) => e.ms).sort((a, b) => a - b);
  return { route, requests: list.length, rateLimited: list.filter((e) => e.status === 429).length, errors: list.filter((e) => e.error && !expectedUnavailable(e)).length, p50Ms: percentile(ms, 0.5), p99Ms: percentile(ms, 0.99) };
});
const errorGroups: Record<string, { count: number; example: string }> = {};
for (const e of errors) {
  const key = `${e.target} | ${during(e)} | ${e.route}`;
  errorGroups[key] ??= { count: 0, example: e.error };
  errorGroups[key].count++;
}
const warmUp = seconds * 0.1;
const rssOf = (gateway: number) => {
  const samples = memory.filter((m) => m.gateway === gateway);
  const lastPid = samples.at(-1)?.pid;
  const current = samples.filter((m) => m.pid === lastPid);
  const since = current.length && current[0] !== samples[0] ? current[0]!.at + 30 : warmUp;
  const start = (current.find((m) => m.at >= since) ?? current[0])?.rss ?? 0;
  const end = current.at(-1)?.rss ?? 0;
  return { gateway: `gateway-${gateway}`, restarted: current[0] !== samples[0], startMb: start / 2 ** 20, endMb: end / 2 ** 20, growthPct: start ? ((end - start) / start) * 100 : 0 };
};
const report = {
  minutes: Number(values.minutes),
  rate: Number(values.rate),
  requests: exchanges.length,
  notSent: skipped,
  rateLimited: exchanges.filter((e) => e.status === 429).length,
  modelUnavailable: exchanges.filter(expectedUnavailable).length,
  errors: errors.length,
  survivorErrors: errors.filter((e) => e.target === 'gateway-0').length,
  errorGroups,
  faults: windows,
  memory: [0, 1].map(rssOf),
  routes: byRoute,
  gatewaysAliveAtEnd: alive,
};
const lines = [
  `# Soak run: ${report.minutes} min at ${report.rate} req/s`,
  '',
  '| measure | value |',
  '|---|---|',
  `| requests | ${report.requests.toLocaleString('en')} (${report.notSent} not sent: in-flight cap) |`,
  `| 429 (not errors) | ${report.rateLimited} |`,
  `| assistant 503 \`unavailable\` while the model stalled (its documented answer) | ${report.modelUnavailable} |`,
  `| errors other than 429 | ${report.errors} (on the surviving gateway-0: ${report.survivorErrors}) |`,
  ...report.memory.map((m) => `| RSS ${m.gateway}${m.restarted ? ' (after its restart)' : ''} | ${m.startMb.toFixed(0)} → ${m.endMb.toFixed(0)} MB (${m.growthPct >= 0 ? '+' : ''}${m.growthPct.toFixed(1)}%) |`),
  `| gateways running at the end | ${alive.map((a, i) => `gateway-${i}: ${a ? 'yes' : 'NO'}`).join(', ')} |`,
  '',
  '| route | requests | 429 | errors | p50 ms | p99 ms |',
  '|---|---|---|---|---|---|',
  ...byRoute.map((r) => `| ${r.route} | ${r.requests} | ${r.rateLimited} | ${r.errors} | ${r.p50Ms.toFixed(1)} | ${r.p99Ms.toFixed(1)} |`),
  '',
  'Faults: ' + windows.map((w) => `${w.name} at ${w.from.toFixed(0)} s`).join('; '),
];
if (errors.length) {
  lines.push('', '| target | during | route | errors | example |', '|---|---|---|---|---|');
  for (const [key, group] of Object.entries(errorGroups)) lines.push(`| ${key.split(' | ').join(' | ')} | ${group.count} | ${group.example.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`);
}
const markdown = lines.join('\n') + '\n';
console.log(markdown);
mkdirSync(values.out, { recursive: true });
writeFileSync(join(values.out, 'soak.json'), JSON.stringify(report, null, 2) + '\n');
writeFileSync(join(values.out, 'soak.md'), markdown);
if (report.survivorErrors || alive.includes(false)) process.exit(1);
