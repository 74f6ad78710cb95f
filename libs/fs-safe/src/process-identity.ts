import { readFileSync } from 'node:fs';

/**
 * The start time of a live process as the kernel records it, or null when it cannot be known.
 * Linux: field 22 (`starttime`, clock ticks since boot) of `/proc/<pid>/stat`; null for a zombie
 * (state `Z`/`X`: it is gone, only not reaped) and for a pid that does not exist. Elsewhere null.
 * Together with the pid it names one process for its whole life: a reused pid has another start time.
 */
export function processStartTime(pid: number): string | null {
  if (process.platform !== 'linux') return null;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Field 2 (comm) is parenthesized and may contain spaces or ')': split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); field 22 is fields[19].
  if (fields[0] === 'Z' || fields[0] === 'X' || fields[0] === 'x') return null;
  const start = fields[19];
  return start !== undefined && /^\d+$/.test(start) ? start : null;
}

/** The identity of a process that may own a lock: pid, and start time when the platform has one. */
export interface ProcessIdentity {
  pid: number;
  /** `processStartTime(pid)` taken by the process itself; null where the platform has none. */
  start: string | null;
}

/** This process's start time, read once: it never changes (issue 14: each read of /proc took 10-15 ms under load). */
let ownStart: { pid: number; start: string } | null = null;

/** The identity of the calling process. */
export function currentProcessIdentity(): ProcessIdentity {
  if (ownStart !== null && ownStart.pid === process.pid) return { pid: ownStart.pid, start: ownStart.start };
  const start = processStartTime(process.pid);
  // A failed read is not remembered: the next call tries again.
  if (start !== null) ownStart = { pid: process.pid, start };
  return { pid: process.pid, start };
}

/**
 * Whether the process that recorded `owner` is still running. With a start time (Linux) the pid
 * must exist, not be a zombie, and have the same start time (a reused pid is another process);
 * without one, liveness falls back to `process.kill(pid, 0)` (EPERM counts as alive).
 */
export function processAlive(owner: ProcessIdentity): boolean {
  if (!Number.isSafeInteger(owner.pid) || owner.pid <= 0) return false;
  if (owner.start !== null && process.platform === 'linux') return processStartTime(owner.pid) === owner.start;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
