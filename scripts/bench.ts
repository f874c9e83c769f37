// `npm run bench`: the performance benchmark of issue 5. Not part of `npm test`.
//
//   npm run bench [-- --pages 10000 --duration 12 --connections 50 --skip-build --only health,search,bound]
//   npm run bench -- --scale [--sizes 1000,5000,10000,20000]   the cost curve (scripts/lib/bench/scale.ts)
//
// 1. generates a deterministic corpus into bench/corpus/content (scripts/gen-corpus.ts);
// 2. runs the production build on it (DIST_DIR=bench/corpus/dist), sampling the summed
//    RSS of the whole build process tree every 100 ms;
// 3. starts the gateway on the result (RATE_LIMIT_MAX raised: the limiter stays on the
//    hot path), measures cold start, then drives autocannon at each route;
// 4. records the gateway's answers to the search mix, stops it, and replays the same
//    draws against a bare node:http server answering from memory: the machine's bound;
// 5. writes bench/results/latest.json and latest.md (other page counts: n<pages>.*)
//    and prints the table.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateCorpus, type QuerySet } from './gen-corpus.ts';
import { repoRoot, runAstroBuild } from './lib/astro-build.ts';
import { Rng } from './lib/bench/random.ts';
import { childCpuSeconds, sampleTree, statusBytes, threadCpuSeconds, treeCpuSeconds } from '../src/lib/process-tree.ts';
import { askRequests, freePort, limitedQueries, QueryStream, rotating, runLoad, searchPath, searchRequests, type LoadResult } from './lib/bench/load.ts';
import { recordAnswers } from './lib/bench/answers.ts';
import { evaluateTargets, markdown, type BareBoundResult, type BenchResult, type BuildResult, type GatewayResult } from './lib/bench/report.ts';
import type { BenchMetricsSnapshot } from './lib/bench/metrics-hook.ts';
import { gatewayNodeArgs, withGatewayTunables } from '../gateway/process-tunables.ts';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '12' },
    connections: { type: 'string', default: '50' },
    seed: { type: 'string', default: 'agent-docs' },
    'skip-build': { type: 'boolean', default: false },
    'skip-gateway': { type: 'boolean', default: false },
    only: { type: 'string' },
    name: { type: 'string' },
    'show-build-output': { type: 'boolean', default: false },
    /** Keep the content-layer cache of the previous bench build (a rebuild, not a cold build). */
    warm: { type: 'boolean', default: false },
    /** Extra node flags for the gateway process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof". */
    'gateway-node-args': { type: 'string', default: '' },
    /** The cost curve: one build-and-serve run per size in --sizes, then a table and a chart. */
    scale: { type: 'boolean', default: false },
    sizes: { type: 'string', default: '1000,5000,10000,20000' },
  },
});

if (args.scale) {
  const { runScale } = await import('./lib/bench/scale.ts');
  await runScale({ sizes: args.sizes!.split(',').map(Number), duration: args.duration!, connections: args.connections!, seed: args.seed! });
  process.exit(0);
}

const pages = Number(args.pages);
const durationS = Number(args.duration);
const connections = Number(args.connections);
const benchDir = join(repoRoot, 'bench');
const corpusDir = join(benchDir, 'corpus', 'content');
const distDir = join(benchDir, 'corpus', 'dist');
const siteDir = join(distDir, 'site');
const cacheDir = join(benchDir, 'corpus', '.astro-cache');
const resultsDir = join(benchDir, 'results');
const only = args.only ? new Set(args.only.split(',')) : undefined;
/** The bare server's phases (bareBound): on in a full run, or with `--only bound`. */
const runBound = !args['skip-gateway'] && (!only || only.has('bound'));
const answersFile = join(benchDir, 'corpus', `answers-${process.pid}.bin`);
const log = (msg: string) => console.log(`[bench] ${msg}`);

function dirBytes(dir: string): number {
  let sum = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) sum += statSync(join(e.parentPath, e.name)).size;
  }
  return sum;
}

// ---------------------------------------------------------------- corpus
function corpus(): Record<string, unknown> {
  const marker = join(corpusDir, 'corpus.json');
  if (args['skip-build'] && existsSync(marker)) {
    const meta = JSON.parse(readFileSync(marker, 'utf8')) as Record<string, unknown>;
    if (meta.pages === pages && meta.seed === args.seed) return meta;
  }
  const started = performance.now();
  const stats = generateCorpus({ pages, out: corpusDir, seed: args.seed });
  log(`corpus: ${stats.pages} pages, ${(stats.bytes / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { ...stats, seed: args.seed };
}

/** The corpus's query set (gen-corpus.ts): the search mix every load phase draws from. */
function readQuerySet(): QuerySet {
  return JSON.parse(readFileSync(join(corpusDir, 'queries.json'), 'utf8')) as QuerySet;
}

// ---------------------------------------------------------------- build
/** Phase boundaries, from the lines Astro and the agent-docs integration print. */
const phaseMarks: [string, RegExp][] = [
  ['start', /^/],
  ['content sync', /\[content\] Syncing content/],
  ['types + build info', /\[content\] Synced content/],
  ['bundle (vite)', /Building static entrypoints/],
  ['render pages + endpoints', /generating static routes/],
  // the integration's first line after the render (a warning of its own comes at start-up)
  ['build:done hook (Pagefind when in-process)', /Waiting for integration|^(?!.*\[WARN\]).*\[agent-docs\]/],
  ['astro exit', /\[build\] .* page\(s\) built in|\[build\] Complete!/],
  // runAstroBuild runs the Pagefind step in its own process after Astro exits.
  // Its pages are precompressed while Pagefind indexes them (src/integration/search-index.ts).
  ['Pagefind (own process)', /\[search-index\]/],
  ['gateway engine index', /\[search-index\] docs: search index written/],
  ['portfolio engine index, search bundle precompressed, exit', /\[search-index\] site: engine index/],
];

async function build(): Promise<BuildResult> {
  rmSync(distDir, { recursive: true, force: true });
  // A cold build, as on a fresh machine: no content-layer cache from an earlier run.
  if (!args.warm) rmSync(cacheDir, { recursive: true, force: true });
  const marks = new Map<string, number>();
  /** CPU seconds of the build's process tree at each mark. */
  const cpuMarks = new Map<string, number>();
  const started = performance.now();
  const cpuBefore = childCpuSeconds();
  const sampler = sampleTree(process.pid, 100);
  let tail = '';
  let buffer = '';
  const code = await runAstroBuild({
    env: { CONTENT_DIR: corpusDir, DIST_DIR: distDir, ASTRO_CACHE_DIR: cacheDir },
    onOutput: (chunk) => {
      if (args['show-build-output']) process.stdout.write(chunk);
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      const now = (performance.now() - started) / 1000;
      for (const line of lines) {
        for (const [name, re] of phaseMarks) {
          if (name === 'start' || marks.has(name) || !re.test(line)) continue;
          marks.set(name, now);
          cpuMarks.set(name, treeCpuSeconds() - cpuBefore);
        }
        if (/\[agent-docs\]|\[search-index\]/.test(line) && !/ indexed \d/.test(line) && !args['show-build-output']) log(`build: ${line.replace(/^\S+ /, '')}`);
      }
      tail = (tail + chunk).slice(-4000);
    },
  });
  const wallS = (performance.now() - started) / 1000;
  const rss = sampler.stop();
  const cpuS = childCpuSeconds() - cpuBefore;
  if (code !== 0) {
    console.error(tail);
    throw new Error(`build failed with exit code ${code}`);
  }
  // Each phase lasts until the next mark seen.
  marks.set('start', 0);
  marks.set('end', wallS);
  cpuMarks.set('start', 0);
  cpuMarks.set('end', cpuS);
  const seen = [...phaseMarks.map(([n]) => n), 'end'].filter((n) => marks.has(n));
  const phases: Record<string, number> = {};
  const phaseCpu: Record<string, number> = {};
  for (let i = 0; i < seen.length - 1; i++) {
    const name = seen[i] === 'start' ? 'startup (config, integrations)' : seen[i]!;
    phases[name] = marks.get(seen[i + 1]!)! - marks.get(seen[i]!)!;
    phaseCpu[name] = cpuMarks.get(seen[i + 1]!)! - cpuMarks.get(seen[i]!)!;
  }
  return {
    pages,
    wallS,
    pagesPerS: pages / wallS,
    peakRssBytes: rss.peakBytes,
    peakRssByCommand: rss.peakByCommand,
    cpuS,
    phases,
    phaseCpu,
    outputBytes: dirBytes(distDir),
    pagefindBytes: existsSync(join(siteDir, 'pagefind')) ? dirBytes(join(siteDir, 'pagefind')) : 0,
    exitCode: code,
  };
}

// ---------------------------------------------------------------- gateway
interface Gateway {
  child: ChildProcess;
  url: string;
  metricsFile: string;
  output: () => string;
  seq: number;
}

/** The gateway's OS temp dir (its search-index cache lives there): fresh per bench run, so the first start is cold. */
const gatewayTmp = join(benchDir, 'corpus', `gateway-tmp-${process.pid}`);

async function stopGateway(gw: Gateway): Promise<void> {
  gw.child.kill('SIGTERM');
  await Promise.race([new Promise((r) => gw.child.once('exit', r)), sleep(5000)]);
  if (gw.child.exitCode === null && gw.child.signalCode === null) gw.child.kill('SIGKILL');
}

/**
 * Starts the gateway and times it to its first search. `metrics`: with the bench's metrics hook, for the load phases;
 * without, as `npm start` starts it, for the start-up figures (the hook is a module of the bench's that the build's
 * compile cache does not hold, compiled in the main thread and in every worker).
 */
async function startGateway(metrics: boolean): Promise<{ gw: Gateway; listeningMs: number; coldStartMs: number; firstQuery: string }> {
  const port = await freePort();
  const assistantPort = await freePort();
  const metricsFile = join(benchDir, 'corpus', `gateway-metrics-${process.pid}.json`);
  rmSync(metricsFile, { force: true });
  const querySet = readQuerySet();
  // A common term: the first search has to load the most index chunks.
  const first = querySet.queries.find((q) => q.kind === 'common' && !q.tag)!;
  const started = performance.now();
  const extra = args['gateway-node-args']!.split(' ').filter(Boolean);
  const hook = metrics ? ['--import', './scripts/lib/bench/metrics-hook.ts'] : [];
  const child = spawn(process.execPath, [...gatewayNodeArgs(extra), ...hook, 'gateway/server.ts'], {
    cwd: repoRoot,
    // started as scripts/start.ts and the container start it (gateway/process-tunables.ts)
    env: {
      ...withGatewayTunables({ ...process.env, DIST_DIR: distDir }, repoRoot),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      ASSISTANT_PORT: String(assistantPort),
      RATE_LIMIT_MAX: '1000000000',
      SITE_RATE_LIMIT_MAX: '1000000000',
      ...(metrics ? { BENCH_METRICS: '1', BENCH_METRICS_FILE: metricsFile } : {}),
      TMPDIR: gatewayTmp,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20000)));
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20000)));
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  let listeningMs = 0;
  const deadline = started + 60_000;
  for (;;) {
    if (exited || performance.now() > deadline) throw new Error(`gateway did not answer a search:\n${out}`);
    try {
      if (!listeningMs) {
        const h = await fetch(`${url}/api/health`);
        await h.arrayBuffer();
        listeningMs = Math.round(performance.now() - started);
      }
      const res = await fetch(`${url}${searchPath({ ...first, limit: undefined })}`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  const coldStartMs = Math.round(performance.now() - started);
  return { gw: { child, url, metricsFile, output: () => out, seq: 0 }, listeningMs, coldStartMs, firstQuery: first.query };
}

/** Asks the gateway for its event-loop histogram since the last call (and resets it). */
async function metrics(gw: Gateway): Promise<BenchMetricsSnapshot> {
  gw.child.kill('SIGUSR2');
  const want = ++gw.seq;
  for (let i = 0; i < 500; i++) {
    await sleep(10);
    try {
      const snap = JSON.parse(readFileSync(gw.metricsFile, 'utf8')) as BenchMetricsSnapshot;
      if (snap.seq >= want) {
        gw.seq = snap.seq;
        return snap;
      }
    } catch {
      // not written yet
    }
  }
  throw new Error('gateway wrote no bench metrics (was it started with --import scripts/lib/bench/metrics-hook.ts?)');
}

type Phase = { name: string; path: string; run: () => Promise<LoadResult> };

/** Runs each phase (those `--only` keeps) against a measured process: load, then its CPU, event loop and memory. */
async function runPhases(gw: Gateway, phases: Phase[], selected = (name: string) => !only || only.has(name)): Promise<LoadResult[]> {
  const loads: LoadResult[] = [];
  for (const phase of phases) {
    if (!selected(phase.name)) continue;
    await metrics(gw); // reset the histogram: each phase on its own
    const cpu0 = threadCpuSeconds(gw.child.pid!);
    const self0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await phase.run();
    const wallS = (performance.now() - t0) / 1000;
    const cpu1 = threadCpuSeconds(gw.child.pid!);
    const self = process.cpuUsage(self0);
    const cores = (s: number) => Math.round((s / wallS) * 100) / 100;
    r.cpu = {
      main: cores(cpu1.main - cpu0.main),
      workers: cores(cpu1.workers - cpu0.workers),
      v8: cores(cpu1.v8 - cpu0.v8),
      other: cores(cpu1.other - cpu0.other),
      loadGen: cores((self.user + self.system) / 1e6),
    };
    const snap = await metrics(gw);
    r.eventLoop = { p99Ms: snap.eventLoopDelayMs.p99, maxMs: snap.eventLoopDelayMs.max, meanMs: snap.eventLoopDelayMs.mean, worstStall: snap.worstStall };
    r.memoryAfter = snap.memory;
    const bad = Object.entries(r.statusCodes).filter(([c]) => !c.startsWith('2'));
    if (bad.length) r.notes = `status codes: ${JSON.stringify(r.statusCodes)}`;
    log(`${r.name}: ${r.rps} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}${bad.length ? ` ${JSON.stringify(r.statusCodes)}` : ''}, loop max ${r.eventLoop.maxMs} ms`);
    loads.push(r);
    await sleep(500);
  }
  return loads;
}

async function probe(gw: Gateway, querySet: QuerySet): Promise<GatewayResult['probes']> {
  // The least popular queries: the load phase almost never draws them, so these
  // measure the uncached cost of each kind, one request at a time: unlimited (every
  // match in the answer), and other queries of the kind with limit=10 and then
  // their next page (the cursor), as agents and the MCP search tool send them.
  const tail = querySet.queries.slice(-400);
  const out: GatewayResult['probes'] = {};
  const get = async (path: string) => {
    const t = performance.now();
    const res = await fetch(`${gw.url}${path}`);
    const body = (await res.json()) as unknown[];
    const ms = performance.now() - t;
    if (res.status !== 200 || !Array.isArray(body)) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return { ms, total: Number(res.headers.get('x-total-count') ?? body.length), next: res.headers.get('x-next-cursor') ?? undefined };
  };
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const row = (times: number[], totals: number[]) => ({ n: times.length, medianMs: Math.round(med(times) * 10) / 10, maxMs: Math.round(Math.max(...times) * 10) / 10, medianTotal: med(totals) });
  for (const kind of ['common', 'mid', 'rare', 'two-word', 'three-word'] as const) {
    const ofKind = tail.filter((q) => q.kind === kind && !q.tag);
    const picked = ofKind.slice(0, 12);
    if (!picked.length) continue;
    const times: number[] = [];
    const totals: number[] = [];
    for (const q of picked) {
      const r = await get(searchPath({ ...q, limit: undefined }));
      times.push(r.ms);
      totals.push(r.total);
    }
    out[kind] = row(times, totals);
    const limited = ofKind.slice(12, 24).map((q) => ({ ...q, limit: 10 }));
    if (!limited.length) continue;
    const first: number[] = [];
    const next: number[] = [];
    const firstTotals: number[] = [];
    const nextTotals: number[] = [];
    for (const q of limited) {
      const r = await get(searchPath(q));
      first.push(r.ms);
      firstTotals.push(r.total);
      if (!r.next) continue;
      next.push((await get(searchPath(q, r.next))).ms);
      nextTotals.push(r.total);
    }
    out[`${kind}, limit 10`] = row(first, firstTotals);
    if (next.length) out[`${kind}, limit 10, next page`] = row(next, nextTotals);
  }
  return out;
}

async function gateway(): Promise<GatewayResult> {
  const querySet = readQuerySet();
  const manifest = JSON.parse(readFileSync(join(siteDir, 'build-manifest.json'), 'utf8')) as { pages: { path: string; md: string }[] };
  rmSync(gatewayTmp, { recursive: true, force: true });
  mkdirSync(gatewayTmp, { recursive: true });
  // First start after the build: nothing cached anywhere (the issue's cold start).
  const cold = await startGateway(false);
  log(`gateway (first start): listening after ${cold.listeningMs} ms, first search ("${cold.firstQuery}") answered after ${cold.coldStartMs} ms`);
  await stopGateway(cold.gw);
  // Restart on the same build: whatever the first start cached is reused.
  const restart = await startGateway(false);
  log(`gateway (restart): listening after ${restart.listeningMs} ms, first search answered after ${restart.coldStartMs} ms`);
  await stopGateway(restart.gw);
  const restartMs = restart.coldStartMs;
  // The gateway the load runs on, with the metrics hook.
  const { gw } = await startGateway(true);
  const coldStartMs = cold.coldStartMs;
  let peakRss = 0;
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, statusBytes(gw.child.pid!))), 100);
  try {
    const probes = await probe(gw, querySet);
    log(`uncached search latency by kind: ${Object.entries(probes).map(([k, p]) => `${k} ${p.medianMs} ms (${p.medianTotal} hits)`).join(', ')}`);

    const rng = new Rng(`${args.seed}:batch`);
    const pagePaths = manifest.pages.map((p) => p.path);
    const pick = () => rng.pick(pagePaths);
    const searchStream = new QueryStream(querySet.queries, querySet.popularityExponent, `${args.seed}:search-traffic`);
    const askStream = new QueryStream(querySet.queries, querySet.popularityExponent, `${args.seed}:ask-traffic`);
    const cursorStats = { cursorPages: 0 };
    const limitedStats = { cursorPages: 0 };
    // Every query of the set with a limit (mostly 10), as agents and the MCP search tool send them; run first, on a cold cache.
    const limitedDraws = () => new QueryStream(limitedQueries(querySet.queries, `${args.seed}:limits`), querySet.popularityExponent, `${args.seed}:search-limited-traffic`);
    const limitedStream = limitedDraws();
    const md = manifest.pages.filter((_, i) => i % Math.max(1, Math.floor(manifest.pages.length / 500)) === 0);

    const phases: { name: string; path: string; run: () => Promise<LoadResult> }[] = [
      {
        name: 'search (limited)',
        path: '/api/search?query=…&limit=1..100 (every query limited, cold cache)',
        run: () =>
          runLoad({ name: 'search (limited)', path: '/api/search (every query limited, cold cache)', url: gw.url, connections, durationS, requests: searchRequests(limitedStream, limitedStats), timeline: true }),
      },
      {
        // the same draws once more, every query now cached: what the cold phase's first seconds cost, told apart (not a target)
        name: 'search (limited) again',
        path: '/api/search?query=…&limit=1..100 (the same draws again, cache warm)',
        run: () =>
          runLoad({
            name: 'search (limited) again',
            path: '/api/search (the same draws again, cache warm)',
            url: gw.url,
            connections,
            durationS,
            requests: searchRequests(limitedDraws(), { cursorPages: 0 }),
          }),
      },
      { name: 'health', path: '/api/health', run: () => runLoad({ name: 'health', path: '/api/health', url: `${gw.url}/api/health`, connections, durationS }) },
      {
        name: 'search',
        path: '/api/search?query=… (mixed)',
        run: () => runLoad({ name: 'search', path: '/api/search (mix, 60% unlimited)', url: gw.url, connections, durationS, requests: searchRequests(searchStream, cursorStats) }),
      },
      {
        name: 'ask',
        path: '/ask?query=…&mode=list',
        run: () => runLoad({ name: 'ask', path: '/ask (list, mix)', url: gw.url, connections, durationS, requests: askRequests(askStream), timeline: true }),
      },
      {
        name: 'batch',
        path: '/api/md/batch',
        run: () =>
          runLoad({
            name: 'batch',
            path: 'POST /api/md/batch (20 paths)',
            url: gw.url,
            connections,
            durationS,
            requests: rotating(
              () => ({
                method: 'POST',
                path: '/api/md/batch',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ paths: Array.from({ length: 20 }, pick) }),
              }),
              200,
            ),
            timeline: true,
          }),
      },
      {
        name: 'md twin',
        path: '/docs/…/….md',
        run: () =>
          runLoad({
            name: 'md twin',
            path: 'GET /docs/<s>/<p>.md (static)',
            url: gw.url,
            connections,
            durationS,
            requests: rotating((i) => ({ method: 'GET', path: `/${md[i]!.md}` }), md.length),
          }),
      },
    ];

    const loads = await runPhases(gw, phases);
    const after = await metrics(gw);
    clearInterval(rssTimer);
    peakRss = Math.max(peakRss, statusBytes(gw.child.pid!, 'VmHWM'));
    // after the gateway's numbers are taken: the bare server replays the mix with the gateway's own answers (bareBound)
    if (runBound) {
      const rec = await recordAnswers(gw.url, querySet.queries, answersFile);
      log(`recorded ${rec.answers} search answers (${(rec.bytes / 1e6).toFixed(0)} MB) for the bare server`);
    }
    return {
      coldStartMs,
      listeningMs: cold.listeningMs,
      restartMs,
      rssAfterBytes: after.memory.rssBytes,
      peakRssBytes: peakRss,
      eventLoop: {
        p99Ms: Math.max(0, ...loads.map((l) => l.eventLoop?.p99Ms ?? 0)),
        maxMs: Math.max(0, ...loads.map((l) => l.eventLoop?.maxMs ?? 0)),
      },
      loads,
      probes,
      queryMix: { distinct: searchStream.seen.size, drawn: searchStream.drawn, cursorPages: cursorStats.cursorPages },
      limitedMix: { distinct: limitedStream.seen.size, drawn: limitedStream.drawn, cursorPages: limitedStats.cursorPages },
    };
  } finally {
    clearInterval(rssTimer);
    await stopGateway(gw);
    // the snapshot and the query workers' heap reports beside it (metrics-hook.ts)
    for (const name of readdirSync(dirname(gw.metricsFile))) if (name.startsWith(basename(gw.metricsFile))) rmSync(join(dirname(gw.metricsFile), name), { force: true });
    rmSync(gatewayTmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- machine bound
/**
 * The same search mix (same seed: the same draws), answered by a bare node:http server from the gateway's recorded
 * answers in memory, with the gateway stopped: the most any server can do on this machine with these answers and
 * this load generator on the same two cores. Its health phase is the bare server's own baseline.
 */
async function bareBound(querySet: QuerySet): Promise<BareBoundResult> {
  const port = await freePort();
  const metricsFile = join(benchDir, 'corpus', `bare-metrics-${process.pid}.json`);
  rmSync(metricsFile, { force: true });
  const child = spawn(process.execPath, ['--import', './scripts/lib/bench/metrics-hook.ts', 'scripts/lib/bench/bare-server.ts', answersFile, String(port)], {
    cwd: repoRoot,
    env: { ...process.env, BENCH_METRICS: '1', BENCH_METRICS_FILE: metricsFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20000)));
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20000)));
  const server: Gateway = { child, url: `http://127.0.0.1:${port}`, metricsFile, output: () => out, seq: 0 };
  try {
    for (const deadline = performance.now() + 60_000; ; await sleep(50)) {
      if (child.exitCode !== null || performance.now() > deadline) throw new Error(`bare server did not start:\n${out}`);
      try {
        const res = await fetch(`${server.url}/api/health`);
        await res.arrayBuffer();
        if (res.ok) break;
      } catch {
        // not listening yet
      }
    }
    const stream = new QueryStream(querySet.queries, querySet.popularityExponent, `${args.seed}:search-traffic`);
    const loads = await runPhases(
      server,
      [
        { name: 'health', path: '/api/health', run: () => runLoad({ name: 'health', path: '/api/health (bare)', url: `${server.url}/api/health`, connections, durationS }) },
        { name: 'search', path: '/api/search (mix, bare)', run: () => runLoad({ name: 'search', path: '/api/search (mix, bare)', url: server.url, connections, durationS, requests: searchRequests(stream, { cursorPages: 0 }) }) },
      ],
      () => true,
    );
    return { loads };
  } finally {
    await stopGateway(server);
    rmSync(metricsFile, { force: true });
    rmSync(answersFile, { force: true });
  }
}

// ---------------------------------------------------------------- main
const result: BenchResult = {
  version: 1,
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGB: Math.round(totalmem() / 1024 ** 3),
    node: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
    loadAvgAtStart: loadavg(),
  },
  config: { pages, connections, durationS, seed: args.seed, warmBuild: args.warm },
  corpus: {},
  targets: [],
};

result.corpus = corpus();
if (!args['skip-build']) {
  log(`building ${pages} pages…`);
  result.build = await build();
  log(`build: ${result.build.wallS.toFixed(1)} s, peak RSS ${(result.build.peakRssBytes / 1024 ** 3).toFixed(2)} GB`);
} else if (!existsSync(join(siteDir, 'build-manifest.json'))) {
  throw new Error(`--skip-build: no build in ${distDir}`);
}
if (!args['skip-gateway']) result.gateway = await gateway();
if (runBound) result.bound = await bareBound(readQuerySet());
result.targets = evaluateTargets(result);

mkdirSync(resultsDir, { recursive: true });
const name = args.name ?? (pages === 10000 && !only && !args['skip-build'] ? 'latest' : `n${pages}`);
// A partial run (--skip-build) keeps the last build numbers of the same name.
if (args['skip-build'] && existsSync(join(resultsDir, `${name}.json`))) {
  const previous = JSON.parse(readFileSync(join(resultsDir, `${name}.json`), 'utf8')) as BenchResult;
  if (previous.config.pages === pages && previous.build) {
    result.build = previous.build;
    result.targets = evaluateTargets(result);
  }
}
const table = markdown(result);
writeFileSync(join(resultsDir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(join(resultsDir, `${name}.md`), table);
console.log(`\n${table}`);
log(`wrote bench/results/${name}.json and ${name}.md`);
process.exit(0);
