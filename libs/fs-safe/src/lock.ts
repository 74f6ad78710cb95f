/**
 * Inter-process locks with immediate takeover of a dead owner's lock (DESIGN.md section 4).
 *
 * A lock is a directory `<lockPath>` holding exactly one entry, the owner record, whose NAME is
 * `<pid>.<start>.<token>.owner` (`start`: field 22 of /proc/<pid>/stat, or `x` where unknown).
 * - Acquire: build `<lockPath>.<token>.tmp/` with the owner entry inside, then rename it onto
 *   `<lockPath>`. rename(2) fails on an existing non-empty directory, so exactly one contender
 *   creates a lock, and a lock is never visible without its owner.
 * - Takeover: when the recorded owner is gone (pid dead, a zombie, or reused with another start
 *   time), a contender renames the dead owner's entry to its own name inside the same directory.
 *   Owner tokens are never reused, so that rename succeeds for exactly one contender (the others
 *   get ENOENT) and can never hit a live owner's entry.
 * - Release: the owner renames the whole directory away (`<lockPath>.<token>.released`) and
 *   deletes it, so the lock disappears in one step.
 * A live owner is waited for, polling with backoff, up to a bounded timeout.
 * Locks assume one host: a pid from another machine cannot be checked.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '@docforge/core';
import { currentProcessIdentity, processAlive, type ProcessIdentity } from './process-identity.js';

/** Options of {@link withLock} and {@link acquireLock}. */
export interface LockOptions {
  /** How long to wait for a live owner before failing with `lock_timeout`, in milliseconds. Default 10,000. */
  timeoutMs?: number;
  /** Name reported in the `lock_timeout` error details as `lock` (default: the lock directory's base name). */
  label?: string;
}

/** A held lock. */
export interface LockHandle {
  /** The lock directory. */
  readonly path: string;
  /** Releases the lock; idempotent; never throws. */
  release(): void;
}

/** Who holds a lock, as read from its owner entry name. */
interface LockOwner extends ProcessIdentity {
  token: string;
}

const OWNER_ENTRY = /^(\d+)\.(\d+|x)\.([0-9a-f]+)\.owner$/;
const DEFAULT_TIMEOUT_MS = 10_000;
const MIN_POLL_MS = 5;
const MAX_POLL_MS = 100;

function ownerEntry(owner: LockOwner): string {
  return `${owner.pid}.${owner.start ?? 'x'}.${owner.token}.owner`;
}

function parseOwnerEntry(name: string): LockOwner | null {
  const m = OWNER_ENTRY.exec(name);
  return m ? { pid: Number(m[1]), start: m[2] === 'x' ? null : m[2]!, token: m[3]! } : null;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/** The owner entries of a lock directory; null when there is no lock; `[]` for a directory without any. */
function readOwners(lockPath: string): LockOwner[] | null {
  let names: string[];
  try {
    names = readdirSync(lockPath);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return null;
    if (errnoOf(error) === 'ENOTDIR') return [];
    throw error;
  }
  return names.map(parseOwnerEntry).filter((o): o is LockOwner => o !== null);
}

type Attempt = { kind: 'acquired' } | { kind: 'held'; owner: LockOwner | null };

/** One non-blocking attempt: create the lock, or take it over from a dead owner. */
function attempt(lockPath: string, me: LockOwner, tmpDir: string): Attempt {
  const entry = ownerEntry(me);
  mkdirSync(tmpDir, { recursive: true });
  writeFileSync(path.join(tmpDir, entry), `${JSON.stringify({ pid: me.pid, start: me.start, token: me.token, acquired_at: new Date().toISOString() })}\n`);
  try {
    // Replaces only an absent or empty directory (a leftover of another lock format); fails on a held lock.
    renameSync(tmpDir, lockPath);
    return { kind: 'acquired' };
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOTDIR') {
      // A plain file where the lock directory belongs: not a lock of this protocol; lock files live in the state dir.
      rmSync(lockPath, { force: true });
      return { kind: 'held', owner: null };
    }
    if (code !== 'EEXIST' && code !== 'ENOTEMPTY' && code !== 'EISDIR') throw error;
  }
  const owners = readOwners(lockPath);
  if (owners === null) return { kind: 'held', owner: null }; // released in between: retry at once
  if (owners.length === 0) {
    // A directory with other content (not made by this protocol): cleared, since it has no owner entry at all.
    clearForeign(lockPath);
    return { kind: 'held', owner: null };
  }
  const live = owners.find((o) => processAlive(o));
  if (live !== undefined) return { kind: 'held', owner: live };
  const owner = owners[0]!;
  try {
    renameSync(path.join(lockPath, ownerEntry(owner)), path.join(lockPath, entry));
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return { kind: 'held', owner: null }; // another contender took it first
    throw error;
  }
  rmSync(tmpDir, { recursive: true, force: true });
  return { kind: 'acquired' };
}

/** Removes a lock directory that holds no owner entry of this protocol (never one that does). */
function clearForeign(lockPath: string): void {
  try {
    const names = readdirSync(lockPath);
    if (names.some((n) => parseOwnerEntry(n) !== null)) return;
    const aside = `${lockPath}.${randomBytes(6).toString('hex')}.foreign`;
    renameSync(lockPath, aside);
    rmSync(aside, { recursive: true, force: true });
  } catch {
    // gone or changed meanwhile: the next attempt looks again
  }
}

/** Removes leftovers of crashed acquisitions and releases beside the lock whose process is gone. */
function sweep(lockPath: string): void {
  const dir = path.dirname(lockPath);
  const base = path.basename(lockPath);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(`${base}.`) || !(name.endsWith('.tmp') || name.endsWith('.released') || name.endsWith('.foreign'))) continue;
    const full = path.join(dir, name);
    try {
      const owners = name.endsWith('.tmp') ? readOwners(full) ?? [] : [];
      if (owners.some((o) => processAlive(o))) continue;
      // A directory without an owner entry may be one being built right now: only old ones go.
      if (owners.length === 0 && Date.now() - lstatSync(full).mtimeMs < 1_000) continue;
      rmSync(full, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Acquires the lock at `lockPath` (a directory path; its parent is created). Takes a dead owner's
 * lock over at once; waits for a live owner, polling with backoff, up to `timeoutMs`.
 * @throws DocforgeError `lock_timeout` (details: `lock`, `timeout_ms`, `owner_pid`) when a live
 *   owner still holds it after `timeoutMs`; the Node errno error when the lock's directory cannot
 *   be created or written
 */
export async function acquireLock(lockPath: string, options: LockOptions = {}): Promise<LockHandle> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const me: LockOwner = { ...currentProcessIdentity(), token: randomBytes(8).toString('hex') };
  const tmpDir = `${lockPath}.${me.token}.tmp`;
  mkdirSync(path.dirname(lockPath), { recursive: true });
  let poll = MIN_POLL_MS;
  let lastOwner: LockOwner | null = null;
  let retriedAtOnce = false;
  try {
    for (;;) {
      const result = attempt(lockPath, me, tmpDir);
      if (result.kind === 'acquired') {
        sweep(lockPath);
        return handleFor(lockPath, me);
      }
      const left = deadline - Date.now();
      if (result.owner === null) {
        // The lock changed hands or vanished: look again at once (once), then back off as for a live owner.
        if (!retriedAtOnce) {
          retriedAtOnce = true;
          continue;
        }
      } else {
        lastOwner = result.owner;
      }
      if (left <= 0) break;
      retriedAtOnce = false;
      await sleep(Math.min(poll, left));
      poll = Math.min(MAX_POLL_MS, poll * 2);
    }
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }
  // The holder's pid and the time waited are details; the message is the registry sentence.
  throw errors.lockTimeout(options.label ?? path.basename(lockPath), { details: { timeout_ms: timeoutMs, owner_pid: lastOwner?.pid ?? null } });
}

function handleFor(lockPath: string, me: LockOwner): LockHandle {
  let released = false;
  return {
    path: lockPath,
    release(): void {
      if (released) return;
      released = true;
      try {
        // Only our own lock is moved away: our entry must still be the owner.
        lstatSync(path.join(lockPath, ownerEntry(me)));
        const aside = `${lockPath}.${me.token}.released`;
        renameSync(lockPath, aside);
        rmSync(aside, { recursive: true, force: true });
      } catch {
        // Already gone: nothing to release.
      }
    },
  };
}

/**
 * Runs `fn` while holding the lock at `lockPath` and releases it afterwards, also when `fn` throws.
 * @throws DocforgeError `lock_timeout` (see {@link acquireLock}); whatever `fn` throws
 */
export async function withLock<T>(lockPath: string, fn: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  const handle = await acquireLock(lockPath, options);
  try {
    return await fn();
  } finally {
    handle.release();
  }
}
