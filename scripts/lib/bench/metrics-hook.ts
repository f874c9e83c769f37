// Benchmark metrics from inside the gateway process: event-loop delay
// (perf_hooks.monitorEventLoopDelay) and memory. Off unless BENCH_METRICS=1. It lives
// with the benchmark, not in the gateway (no serving code imports it): the benchmark
// registers it in the gateway's process with
//   node --import ./scripts/lib/bench/metrics-hook.ts gateway/server.ts
// On SIGUSR2 it writes a JSON snapshot to BENCH_METRICS_FILE (default
// ./bench-metrics.json) and starts a fresh histogram, so each load phase is
// measured on its own; it writes a last snapshot on exit. The worst stall of a window
// is attributed: how much of it the main thread spent running (JavaScript, garbage
// collection, system calls) and how much waiting for a core (the OS scheduler). A query
// worker cannot receive the signal: each writes its heap's size to a file of its own every
// half second, and the main thread's snapshot sums them.
import { readdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { isMainThread, threadId } from 'node:worker_threads';

export interface BenchMetricsSnapshot {
  seq: number;
  pid: number;
  /** Milliseconds since the previous snapshot (or start). */
  windowMs: number;
  eventLoopDelayMs: { min: number; mean: number; p50: number; p99: number; max: number; samples: number };
  /** The longest gap between two ticks of a 5 ms timer, and the main thread's CPU time within it (the rest: waiting). */
  worstStall?: { ms: number; ranMs: number; /** when it ended, ms into the window */ atMs?: number };
  memory: {
    rssBytes: number;
    heapUsedBytes: number;
    heapTotalBytes: number;
    externalBytes: number;
    arrayBuffersBytes: number;
    anonBytes?: number;
    anonHugeBytes?: number;
    fileBytes?: number;
    heapSpaces?: Record<string, number>;
    /** The query workers' V8 heaps, summed over the live ones (as of their last report: every half second when idle, later when busy). */
    workerHeaps?: WorkerHeaps;
  };
}

interface WorkerHeaps { count: number; usedBytes: number; totalBytes: number }

/** Write-then-rename, so a reader never sees half a file. */
function writeWhole(file: string, data: unknown): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(data));
  renameSync(`${file}.tmp`, file);
}

const WORKER_REPORT_MS = 500;
const WORKER_REPORT_STALE_MS = 30_000;
const workerFilePrefix = (file: string) => `${basename(file)}.thread-`;

/** The sum of the worker heap reports next to `file` (their threads write them; see below). */
function workerHeaps(file: string): WorkerHeaps {
  const sum: WorkerHeaps = { count: 0, usedBytes: 0, totalBytes: 0 };
  const dir = dirname(file);
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(workerFilePrefix(file)) || name.endsWith('.tmp')) continue;
    try {
      const heap = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { usedBytes: number; totalBytes: number; at: number };
      // a worker that is gone; a live one at nice 10 on a saturated machine can fall seconds behind its timer
      if (Date.now() - heap.at > WORKER_REPORT_STALE_MS) continue;
      sum.count++;
      sum.usedBytes += heap.usedBytes;
      sum.totalBytes += heap.totalBytes;
    } catch {
      /* being replaced */
    }
  }
  return sum;
}

// In a query worker: its heap's size, every half second, to a file of its own.
if (process.env.BENCH_METRICS === '1' && !isMainThread) {
  const file = `${process.env.BENCH_METRICS_FILE || 'bench-metrics.json'}.thread-${threadId}`;
  setInterval(() => {
    const heap = getHeapStatistics();
    writeWhole(file, { usedBytes: heap.used_heap_size, totalBytes: heap.total_heap_size, at: Date.now() });
  }, WORKER_REPORT_MS).unref();
}

/** Anonymous (heap, malloc, index), of it in transparent huge pages, and file-backed resident bytes (Linux only). */
function residentKinds(): { anonBytes?: number; anonHugeBytes?: number; fileBytes?: number } {
  try {
    const text = readFileSync('/proc/self/smaps_rollup', 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
    const anon = kb('Anonymous');
    return { anonBytes: anon, anonHugeBytes: kb('AnonHugePages'), fileBytes: kb('Rss') - anon };
  } catch {
    return {};
  }
}

// --import is inherited by worker threads: measure the main thread's loop only (a query worker's loop is meant to be busy)
if (process.env.BENCH_METRICS === '1' && isMainThread) {
  const file = process.env.BENCH_METRICS_FILE || 'bench-metrics.json';
  const resolutionMs = 5;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  let seq = 0;
  let since = performance.now();
  // the worst stall, from a timer of our own: the histogram cannot say what the thread did meanwhile
  let worst = { ms: 0, ranMs: 0, atMs: 0 };
  let tick = performance.now();
  let tickCpu = process.threadCpuUsage();
  setInterval(() => {
    const now = performance.now();
    const gap = now - tick;
    if (gap > worst.ms) {
      const cpu = process.threadCpuUsage(tickCpu);
      worst = { ms: gap, ranMs: (cpu.user + cpu.system) / 1000, atMs: now - since };
    }
    tick = now;
    tickCpu = process.threadCpuUsage();
  }, resolutionMs).unref();

  const ms = (ns: number) => ns / 1e6;
  const snapshot = (): void => {
    const mem = process.memoryUsage();
    // The histogram records how late each `resolution` tick fired; subtract the tick itself.
    const late = (ns: number) => Math.round(Math.max(0, ms(ns) - resolutionMs) * 10) / 10;
    const samples = histogram.count;
    const data: BenchMetricsSnapshot = {
      seq: ++seq,
      pid: process.pid,
      windowMs: Math.round(performance.now() - since),
      eventLoopDelayMs: {
        min: samples ? late(histogram.min) : 0,
        mean: samples ? late(histogram.mean) : 0,
        p50: samples ? late(histogram.percentile(50)) : 0,
        p99: samples ? late(histogram.percentile(99)) : 0,
        max: samples ? late(histogram.max) : 0,
        samples,
      },
      worstStall: { ms: Math.round(worst.ms * 10) / 10, ranMs: Math.round(Math.min(worst.ranMs, worst.ms) * 10) / 10, atMs: Math.round(worst.atMs) },
      memory: { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed, heapTotalBytes: mem.heapTotal, externalBytes: mem.external, arrayBuffersBytes: mem.arrayBuffers, ...residentKinds(), heapSpaces: Object.fromEntries(getHeapSpaceStatistics().map((h) => [h.space_name, h.physical_space_size])), workerHeaps: workerHeaps(file) },
    };
    histogram.reset();
    worst = { ms: 0, ranMs: 0, atMs: 0 };
    since = performance.now();
    writeWhole(file, data);
  };

  process.on('SIGUSR2', snapshot);
  process.on('exit', snapshot);
}
