// `npm run audit:agents`: the Agent-Friendly Documentation Spec audit (afdocs) of the site
// as it runs. Builds first when `npm start` would (scripts/lib/build-state.ts: no build,
// or one made for other settings or content), starts the real gateway on a free loopback
// port, runs `afdocs check` against it and prints the scorecard and the score. Exits 0 at
// 100/100, 1 below it. Not part of `npm test`: the audit samples pages at random and takes
// about a minute; the findings it pins are tested on the fixture (test/build/).
//
// The build's links name its SITE_URL (http://localhost:4321 unless set), not the free
// port the gateway listens on here; afdocs's --canonical-origin maps the one onto the other,
// so links to the site count as links to the site under audit.
//
//   npm run audit:agents [-- <afdocs check options>]   e.g. -- --max-links 300 --format json
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { repoRoot } from './lib/astro-build.ts';
import { buildIfStale, builtSiteUrl, distDir } from './lib/build-state.ts';
import { startGateway } from './lib/gateway-process.ts';

const afdocs = fileURLToPath(new URL('../node_modules/afdocs/bin/afdocs.mjs', import.meta.url));

await buildIfStale('audit:agents');

const siteUrl = builtSiteUrl();
// SITE_URL and ASSISTANT_SITE_URL are the build's (the gateway refuses others); the
// ports are free ones; everything else (limits included) is the environment's, as shipped.
const gateway = await startGateway(distDir, { NODE_ENV: process.env.NODE_ENV ?? 'production' });
const target = gateway.url;
const extra = process.argv.slice(2);
const args = [afdocs, 'check', target, '--canonical-origin', siteUrl, ...(extra.some((a) => a === '--format' || a.startsWith('--format=') || a === '-f') ? [] : ['--format', 'scorecard']), ...extra];
console.log(`audit:agents: afdocs check ${target} (the build of ${siteUrl}, ${distDir})`);

let output = '';
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
    process.stdout.write(d);
  });
  child.on('close', (exit) => resolve(exit ?? 1));
});
await gateway.stop();

const score = /Overall Score:\s*(\d+)\s*\/\s*100/.exec(output)?.[1] ?? /"overall"\s*:\s*(\d+)/.exec(output)?.[1];
if (score === undefined) {
  console.error(`audit:agents: afdocs printed no score (exit ${code})`);
  process.exit(code || 1);
}
console.log(`\naudit:agents: ${score}/100 (afdocs ${afdocsVersion()}) for ${siteUrl}`);
process.exit(Number(score) === 100 ? 0 : 1);

function afdocsVersion(): string {
  const file = fileURLToPath(new URL('../node_modules/afdocs/package.json', import.meta.url));
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}
