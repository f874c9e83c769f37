// `npm run fuzz`: property-based requests against a real gateway process (see
// scripts/lib/fuzz/). Builds the site first when there is no build (as `npm start`
// does), starts the gateway on free loopback ports with the rate limits lifted (the
// limits are not what is fuzzed; their headers are still checked), sends the requests,
// prints the report and writes it to bench/results/fuzz.{json,md}. Then the long lines
// (scripts/lib/fuzz/long-lines.ts): the build's converters and the gateway's text functions
// on lines of one repeated pattern at two lengths, for time that grows faster than the line.
// Exits 1 on findings of either.
//   --requests N     how many (default 100,000)      --seed S  replay a run
//   --concurrency C  requests in flight (default 16) --out DIR where the report goes
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runAstroBuild, repoRoot } from './lib/astro-build.ts';
import { longLinesMarkdown, runLongLines } from './lib/fuzz/long-lines.ts';
import { fuzzReportMarkdown, runFuzz } from './lib/fuzz/run.ts';
import { startGateway } from './lib/gateway-process.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
    concurrency: { type: 'string', default: '16' },
    out: { type: 'string', default: join(repoRoot, 'bench', 'results') },
  },
});

const distDir = resolve(repoRoot, process.env.DIST_DIR || 'dist');
const manifestPath = join(distDir, 'site', 'build-manifest.json');
if (!existsSync(manifestPath)) {
  console.log('No build yet: building the site first…');
  const code = await runAstroBuild({ stdio: 'inherit' });
  if (code !== 0) process.exit(code);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { pages: { path: string }[] };
const pages = manifest.pages.map((p) => p.path).filter((p) => p.startsWith('/docs/'));

const assistantOrigin = 'https://fuzz.example.test';
const gateway = await startGateway(distDir, { RATE_LIMIT_MAX: '1000000000', SITE_RATE_LIMIT_MAX: '1000000000', ASSISTANT_RATE_LIMIT_MAX: '1000000000', ASSISTANT_ALLOWED_ORIGINS: assistantOrigin });
const total = Number(values.requests);
console.log(`Fuzzing ${gateway.url} and ${gateway.assistantUrl}: ${total.toLocaleString('en')} requests, seed ${values.seed}`);
let report;
try {
  report = await runFuzz({
    docsUrl: gateway.url,
    assistantUrl: gateway.assistantUrl,
    pages,
    assistantOrigin,
    requests: total,
    seed: Number(values.seed),
    concurrency: Number(values.concurrency),
    alive: () => gateway.process.exitCode === null,
    onProgress: (sent) => process.stdout.write(`\r${sent.toLocaleString('en')} sent`),
  });
} finally {
  await gateway.stop();
}
process.stdout.write('\n');
console.log('Long lines: the converters and text functions at two lengths…');
const longLines = runLongLines();
const markdown = `${fuzzReportMarkdown(report)}\n${longLinesMarkdown(longLines)}`;
console.log(markdown);
mkdirSync(values.out, { recursive: true });
writeFileSync(join(values.out, 'fuzz.json'), JSON.stringify({ ...report, longLines }, null, 2) + '\n');
writeFileSync(join(values.out, 'fuzz.md'), markdown);
if (report.findings.length) console.error(`Gateway output (last 3,000 characters):\n${gateway.output().slice(-3000)}`);
if (report.findings.length || longLines.findings.length) process.exit(1);
