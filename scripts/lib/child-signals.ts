// Signals for scripts that run other processes (`npm start`, `npm run build`): a process
// manager sends SIGTERM to the script alone, not to its process group, so every signal
// is passed on to the child running at that moment, no further step starts once
// SIGINT/SIGTERM has arrived, and the script exits with its child's code. SIGHUP goes
// only to children that asked for it (the gateway reloads its build on SIGHUP; a
// build would die of it).
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';

interface Tracked {
  child: ChildProcess;
  hangup: boolean;
}

const live = new Set<Tracked>();
let stopSignal: NodeJS.Signals | undefined;
let installed = false;

/** Passes signals on to `child` while it runs; `hangup: true` also passes SIGHUP. */
export function trackChild(child: ChildProcess, opts: { hangup?: boolean } = {}): void {
  const entry: Tracked = { child, hangup: opts.hangup ?? false };
  live.add(entry);
  child.once('exit', () => live.delete(entry));
  if (stopSignal) child.kill(stopSignal);
}

/** Installs the forwarding handlers (once per process): from then on these signals no longer end the script itself. */
export function forwardSignals(): void {
  if (installed) return;
  installed = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopSignal = signal;
      for (const { child } of live) child.kill(signal);
      // nothing running (between two steps): the next step is not started, see stopRequested()
      if (!live.size) process.exit(exitCode(null, signal));
    });
  }
  process.on('SIGHUP', () => {
    for (const { child, hangup } of live) if (hangup) child.kill('SIGHUP');
  });
}

/** The SIGINT/SIGTERM received so far, if any: a script stops instead of starting its next step. */
export function stopRequested(): NodeJS.Signals | undefined {
  return stopSignal;
}

/** The shell's exit code for a child's end: its code, or 128 + the signal's number. */
export function exitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return signal ? 128 + (constants.signals[signal] ?? 0) : 1;
}
