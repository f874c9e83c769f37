// Memory and CPU of process trees, read from /proc (Linux), for the build (it waits for
// the Pagefind process to be gone) and the bench and soak reports. The build is a tree
// (node → astro → the Pagefind binary, …), so its footprint is the sum over the
// tree, sampled at an interval; the peak is the largest such sum.
import { readdirSync, readFileSync } from 'node:fs';

/** VmRSS (or another /proc/<pid>/status field) in bytes; 0 when the process is gone. */
export function statusBytes(pid: number, field = 'VmRSS'): number {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

interface ProcInfo {
  pid: number;
  ppid: number;
  comm: string;
  /** CPU seconds (user + system) of the process and of its children it has waited for. */
  cpuS: number;
}

/** A /proc stat line: the command name and the fields after it (fields[0] is field 3, the state; clock ticks of 1/100 s). */
function parseStat(text: string): { comm: string; fields: string[] } {
  const close = text.lastIndexOf(')'); // the command name may itself hold ')' or spaces
  return { comm: text.slice(text.indexOf('(') + 1, close), fields: text.slice(close + 2).split(' ') };
}

const ticks = (...values: (string | undefined)[]) => values.reduce((sum, value) => sum + Number(value), 0) / 100;

function readStat(pid: number): ProcInfo | undefined {
  try {
    const { comm, fields } = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    // utime, stime, cutime, cstime (fields 14–17)
    return { pid, ppid: Number(fields[1]), comm, cpuS: ticks(fields[11], fields[12], fields[13], fields[14]) };
  } catch {
    return undefined;
  }
}

/** Every live descendant of `root` (not root itself). */
export function descendants(root: number): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readStat(Number(name));
    if (!info) continue;
    const list = children.get(info.ppid) ?? [];
    list.push(info);
    children.set(info.ppid, list);
  }
  const out: ProcInfo[] = [];
  const queue = [root];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c.pid);
    }
  }
  return out;
}

/** Thread groups of the gateway process, by thread name: what a load phase keeps busy. */
export type ThreadGroup = 'main' | 'workers' | 'v8' | 'other';

function threadGroup(comm: string): ThreadGroup {
  if (comm === 'MainThread' || comm === 'node') return 'main';
  if (/^search-\d+$/.test(comm)) return 'workers'; // the engine's query workers (gateway/engine/search.ts)
  if (comm.startsWith('V8') || comm.startsWith('DelayedTask')) return 'v8'; // V8's GC and compiler helpers
  return 'other'; // libuv's pool, the inspector, signal handling
}

/**
 * CPU seconds (user + system) of each thread group of `pid` so far, from /proc/<pid>/task/* (Linux; clock ticks of
 * 1/100 s, the x86-64 and arm64 default). Threads that exit between two readings drop out of the difference.
 */
export function threadCpuSeconds(pid: number): Record<ThreadGroup, number> {
  const out: Record<ThreadGroup, number> = { main: 0, workers: 0, v8: 0, other: 0 };
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    try {
      const { comm, fields } = parseStat(readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8'));
      out[threadGroup(comm)] += ticks(fields[11], fields[12]); // utime, stime
    } catch {
      /* the thread exited */
    }
  }
  return out;
}

/** Children's CPU seconds (user + system) of this process: counts every waited-for descendant. */
export function childCpuSeconds(): number {
  const { fields } = parseStat(readFileSync('/proc/self/stat', 'utf8'));
  return ticks(fields[13], fields[14]); // cutime, cstime (fields 16 and 17)
}

/** CPU seconds (user + system) this process's descendants have used so far, the exited (waited-for) ones included. */
export function treeCpuSeconds(): number {
  return childCpuSeconds() + descendants(process.pid).reduce((sum, p) => sum + p.cpuS, 0);
}

export interface TreeSampler {
  stop(): { peakBytes: number; peakByCommand: Record<string, number>; samples: number };
}

/**
 * Samples the summed RSS of every descendant of `root` every `intervalMs`.
 * peakByCommand: the largest RSS seen per command name (node, pagefind, …).
 */
export function sampleTree(root: number, intervalMs = 100): TreeSampler {
  let peakBytes = 0;
  let samples = 0;
  const peakByCommand: Record<string, number> = {};
  const tick = () => {
    let sum = 0;
    const perCommand: Record<string, number> = {};
    for (const p of descendants(root)) {
      const rss = statusBytes(p.pid);
      sum += rss;
      perCommand[p.comm] = (perCommand[p.comm] ?? 0) + rss;
    }
    for (const [c, v] of Object.entries(perCommand)) peakByCommand[c] = Math.max(peakByCommand[c] ?? 0, v);
    peakBytes = Math.max(peakBytes, sum);
    samples++;
  };
  const timer = setInterval(tick, intervalMs);
  tick();
  return {
    stop() {
      clearInterval(timer);
      return { peakBytes, peakByCommand, samples };
    },
  };
}
