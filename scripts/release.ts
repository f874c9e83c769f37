// `npm run release`: a content update without a restart. Builds into a new directory
// beside the link DIST_DIR names (`<parent>/releases/<time>`), and only when that build
// succeeded switches the link to it in one rename(2), so a reader of DIST_DIR sees the
// old build or the new one, never a half-written one. A gateway started with
// DIST_DIR=<that link> loads the new build within RELOAD_CHECK_MS (or on SIGHUP) and
// swaps to it between requests (gateway/docs/runtime.ts). The newest RELEASES_KEEP
// releases stay on disk (default 3: the one serving, the one requests may still be
// finishing on, one to roll back to by pointing the link back).
//   DIST_DIR=/srv/agent-docs/current npm run release
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { runAstroBuild, repoRoot } from './lib/astro-build.ts';
import { forwardSignals } from './lib/child-signals.ts';

const link = resolve(repoRoot, process.env.DIST_DIR || 'dist');
const keep = Math.max(2, Number(process.env.RELEASES_KEEP) || 3);
const releases = join(dirname(link), 'releases');

if (existsSync(link) && !lstatSync(link).isSymbolicLink()) {
  console.error(`${link} is a directory, not a link: move it to ${join(releases, 'initial')} and link ${link} to it (ln -s releases/initial ${link}), or point DIST_DIR at a link`);
  process.exit(1);
}

forwardSignals();
const name = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
let target = join(releases, name);
for (let n = 2; existsSync(target); n++) target = join(releases, `${name}-${n}`);
mkdirSync(target, { recursive: true });
console.log(`Building release ${basename(target)} into ${target}…`);
const code = await runAstroBuild({ stdio: 'inherit', env: { DIST_DIR: target } });
if (code !== 0) {
  rmSync(target, { recursive: true, force: true });
  console.error(`The build failed (exit ${code}); ${link} still names the previous release.`);
  process.exit(code);
}

// a relative link, so the tree can be moved or mounted elsewhere as a whole
const temporary = `${link}.next-${process.pid}`;
symlinkSync(join('releases', basename(target)), temporary);
renameSync(temporary, link);
console.log(`${link} → ${readlinkSync(link)}: gateways with DIST_DIR=${link} switch within RELOAD_CHECK_MS (or send them SIGHUP)`);

// newest first by time, the one just linked always kept
const byAge = readdirSync(releases)
  .filter((dir) => dir !== basename(target))
  .map((dir) => ({ dir, time: statSync(join(releases, dir)).mtimeMs }))
  .sort((a, b) => b.time - a.time);
const old = byAge.slice(keep - 1).map((r) => r.dir);
for (const dir of old) rmSync(join(releases, dir), { recursive: true, force: true });
if (old.length) console.log(`Removed ${old.length} old release(s); kept the newest ${keep}.`);
