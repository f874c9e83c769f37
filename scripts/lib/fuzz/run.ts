// The fuzz run: draws requests from the arbitraries with a seed (so a finding can be
// replayed), sends them with bounded concurrency against a running gateway, checks
// every response, and watches the gateway meanwhile: `/api/health` on a connection of
// its own every 200 ms (a request that stalls the event loop shows up there) and the
// process itself (it must never exit). Returns the report the CLI and the test print.
import fc from 'fast-check';
import { get } from 'node:http';
import { checkResponse } from './check.ts';
import { fuzzRequests, sendable, type FuzzContext, type FuzzRequest } from './requests.ts';
import { createSender } from './send.ts';

export interface FuzzOptions extends FuzzContext {
  docsUrl: string;
  assistantUrl: string;
  requests: number;
  seed: number;
  concurrency: number;
  /** True while the gateway process is alive. */
  alive: () => boolean;
  /** A health answer slower than this is a stall of the event loop (default 1 s). */
  healthStallMs?: number;
  onProgress?: (sent: number) => void;
}

export interface FuzzFinding {
  rule: string;
  count: number;
  examples: { method: string; path: string; shape: string; status: number; detail: string }[];
}

export interface FuzzReport {
  seed: number;
  requests: number;
  seconds: number;
  shapes: number;
  families: Record<string, number>;
  statuses: Record<string, number>;
  findings: FuzzFinding[];
  health: { probes: number; p50Ms: number; p99Ms: number; maxMs: number; failures: number };
  gatewayAlive: boolean;
}

const HEALTH_INTERVAL_MS = 200;
const BATCH = 500;

function probeHealth(url: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = get(`${url}/api/health`, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ ms: performance.now() - started, status: 0 }));
  });
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]! : 0);

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const arbitrary = fuzzRequests(options);
  const sender = createSender({ docs: options.docsUrl, assistant: options.assistantUrl }, options.concurrency);
  const findings = new Map<string, FuzzFinding>();
  const shapes = new Set<string>();
  const families: Record<string, number> = {};
  const statuses: Record<string, number> = {};
  const healthMs: number[] = [];
  let healthFailures = 0;
  const started = performance.now();

  const record = (rule: string, req: FuzzRequest, status: number, detail: string) => {
    const finding = findings.get(rule) ?? { rule, count: 0, examples: [] };
    finding.count++;
    // Up to eight examples, one per family, so one noisy family does not hide the others.
    const family = `${req.target}:${req.family}`;
    if (finding.examples.length < 8 && !finding.examples.some((e) => e.shape.startsWith(family + '/'))) finding.examples.push({ method: req.method, path: req.path.slice(0, 160), shape: `${family}/${req.variant}`, status, detail: detail.slice(0, 300) });
    findings.set(rule, finding);
  };

  let monitoring = true;
  const monitor = (async () => {
    while (monitoring) {
      const { ms, status } = await probeHealth(options.docsUrl);
      healthMs.push(ms);
      if (status !== 200 || ms > (options.healthStallMs ?? 1_000)) {
        healthFailures++;
        record('health', { target: 'docs', family: 'health', variant: 'probe', method: 'GET', path: '/api/health', headers: {} }, status, `health answered ${status || 'nothing'} in ${ms.toFixed(0)} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, HEALTH_INTERVAL_MS));
    }
  })();

  let sent = 0;
  for (let offset = 0; offset < options.requests && options.alive(); offset += BATCH) {
    const batch = fc.sample(arbitrary.map(sendable), { numRuns: Math.min(BATCH, options.requests - offset), seed: options.seed + offset });
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const req = batch[next++]!;
        const res = await sender.send(req);
        sent++;
        shapes.add(`${req.target}:${req.family}/${req.variant}`);
        families[`${req.target}:${req.family}`] = (families[`${req.target}:${req.family}`] ?? 0) + 1;
        const statusKey = res.failure ? res.failure.split(':')[0]! : String(res.status);
        statuses[statusKey] = (statuses[statusKey] ?? 0) + 1;
        for (const violation of checkResponse(req, res)) record(violation.rule, req, res.status, violation.detail);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    options.onProgress?.(sent);
  }
  monitoring = false;
  await monitor;
  sender.close();
  const gatewayAlive = options.alive();
  if (!gatewayAlive) record('process', { target: 'docs', family: 'process', variant: 'exit', method: '-', path: '-', headers: {} }, 0, 'the gateway process exited during the run');
  const sortedHealth = [...healthMs].sort((a, b) => a - b);
  return {
    seed: options.seed,
    requests: sent,
    seconds: (performance.now() - started) / 1000,
    shapes: shapes.size,
    families,
    statuses,
    findings: [...findings.values()].sort((a, b) => b.count - a.count),
    health: { probes: healthMs.length, p50Ms: percentile(sortedHealth, 0.5), p99Ms: percentile(sortedHealth, 0.99), maxMs: sortedHealth.at(-1) ?? 0, failures: healthFailures },
    gatewayAlive,
  };
}

/** The report as Markdown (the CLI prints it and writes it next to the JSON). */
export function fuzzReportMarkdown(report: FuzzReport): string {
  const lines = [
    `# Fuzz run (seed ${report.seed})`,
    '',
    `| measure | value |`,
    `|---|---|`,
    `| requests sent | ${report.requests.toLocaleString('en')} |`,
    `| distinct shapes | ${report.shapes} |`,
    `| duration | ${report.seconds.toFixed(1)} s (${Math.round(report.requests / report.seconds).toLocaleString('en')} req/s) |`,
    `| /api/health during the run | ${report.health.probes} probes, p50 ${report.health.p50Ms.toFixed(1)} ms, p99 ${report.health.p99Ms.toFixed(1)} ms, max ${report.health.maxMs.toFixed(1)} ms |`,
    `| gateway alive at the end | ${report.gatewayAlive ? 'yes' : 'NO'} |`,
    `| findings | ${report.findings.reduce((n, f) => n + f.count, 0)} |`,
    '',
    `Statuses: ${Object.entries(report.statuses).sort((a, b) => b[1] - a[1]).map(([status, n]) => `${status} × ${n}`).join(', ')}`,
    '',
    `Families: ${Object.entries(report.families).sort((a, b) => b[1] - a[1]).map(([family, n]) => `${family} × ${n}`).join(', ')}`,
  ];
  for (const finding of report.findings) {
    lines.push('', `## ${finding.rule} (${finding.count})`, '');
    for (const e of finding.examples) lines.push(`- \`${e.method} ${e.path.replace(/`/g, "'")}\` [${e.shape}] → ${e.status}: ${e.detail.replace(/\n/g, ' ')}`);
  }
  return lines.join('\n') + '\n';
}
