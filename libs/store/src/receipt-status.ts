/**
 * The non-repairing receipt status (contract: "Receipt states are fail-closed"): reads only
 * `current.json`, the receipt file and `lstat` of the index file.
 */
import { Buffer } from 'node:buffer';
import { closeSync, constants as fsConstants, fstatSync, lstatSync, openSync, readSync, realpathSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { isInside, type StateLayout } from '@docforge/fs-safe';
import { MAX_CURRENT_BYTES, parsePublication, type Publication } from './publication-format.js';
import { receiptProblem } from './receipt-verify.js';
import { RECEIPT_MAX_FILE_BYTES, type Receipt } from './receipt-types.js';
import { INDEX_SCHEMA_VERSION } from './schema.js';


/** Receipt states (contract: "Receipt states are fail-closed"). */
export type ReceiptState = 'current' | 'stale' | 'missing' | 'unsafe' | 'unverified' | 'unknown';

/** The outcome of {@link generationReceiptStatus}. */
export interface ReceiptStatus {
  state: ReceiptState;
  /** The verified receipt for `current` and `stale`; null otherwise. */
  receipt: Receipt | null;
  /** One sentence saying what was (not) proven. */
  reason: string;
  /** The publication read from `current.json` when it was safe to read and well-formed, else null. */
  publication: Publication | null;
}

/** What the caller expects the receipt to belong to (a receipt of another project or root is `unverified`). */
export interface ReceiptExpectation {
  projectId?: string;
  /** Absolute (realpath) project root; the state dir must also resolve inside it. */
  root?: string;
}

type ConfinedRead =
  | { kind: 'ok'; text: string; stat: BigIntStats }
  | { kind: 'missing' | 'unsafe' | 'unverified'; reason: string };

function isEnoent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Checks that a state file is a regular, singly linked file that resolves inside `<state>/index/`, then reads it through O_NOFOLLOW. */
function readStateFile(layout: StateLayout, file: string, maxBytes: number, label: string, expected: ReceiptExpectation): ConfinedRead {
  let st: BigIntStats;
  try {
    st = lstatSync(file, { bigint: true });
  } catch (error) {
    if (isEnoent(error)) return { kind: 'missing', reason: `${label} does not exist.` };
    return { kind: 'unsafe', reason: `${label} cannot be inspected.` };
  }
  if (st.isSymbolicLink()) return { kind: 'unsafe', reason: `${label} is a symbolic link.` };
  if (!st.isFile()) return { kind: 'unsafe', reason: `${label} is not a regular file.` };
  if (st.nlink !== 1n) return { kind: 'unsafe', reason: `${label} has other hard links.` };
  try {
    const stateReal = realpathSync(layout.stateDir);
    if (path.dirname(file) !== layout.indexDir || realpathSync(path.dirname(file)) !== path.join(stateReal, 'index')) {
      return { kind: 'unsafe', reason: `${label} resolves outside the state directory.` };
    }
    if (expected.root !== undefined) {
      const rootReal = realpathSync(expected.root);
      if (!isInside(rootReal, stateReal)) {
        return { kind: 'unsafe', reason: 'The state directory resolves outside the project root.' };
      }
    }
  } catch {
    return { kind: 'unsafe', reason: `${label} cannot be resolved for confinement.` };
  }
  if (st.size > BigInt(maxBytes)) return { kind: 'unverified', reason: `${label} is oversized (${st.size} bytes, limit ${maxBytes}).` };
  let fd: number;
  try {
    fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  } catch (error) {
    if (isEnoent(error)) return { kind: 'unverified', reason: `${label} disappeared while it was read.` };
    return { kind: 'unsafe', reason: `${label} cannot be opened without following links.` };
  }
  try {
    const fst = fstatSync(fd, { bigint: true });
    if (!fst.isFile() || fst.ino !== st.ino || fst.size !== st.size) return { kind: 'unverified', reason: `${label} changed while it was read.` };
    const size = Number(st.size);
    const buffer = Buffer.alloc(size + 1);
    let read = 0;
    for (;;) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
      if (read > size) break;
    }
    if (read !== size) return { kind: 'unverified', reason: `${label} changed size while it was read.` };
    return { kind: 'ok', text: buffer.toString('utf8', 0, size), stat: st };
  } finally {
    closeSync(fd);
  }
}

/**
 * The fail-closed state of the latest receipt (contract: "Receipt states are fail-closed" and
 * "This status boundary is non-repairing"). Reads only `current.json`, the receipt file and
 * `lstat` of the index file; never opens SQLite, parses sources, synchronizes, builds or writes.
 *
 * - `unknown`: `currentSourceIdentity` is null (the project has no cheap identity); the
 *   publication is still returned when `current.json` is safe and well-formed;
 * - `missing`: no `current.json`, no receipt file, or a publication that records no receipt;
 * - `unsafe`: a file is a symlink, not a regular file, multiply linked, or resolves outside the
 *   state directory (or the state directory outside the root), or the recorded receipt path is not the fixed one;
 * - `unverified`: corrupt or oversized JSON, a wrong schema, a foreign project/root/adapter, a
 *   receipt hash mismatch, receipt or index identities that differ from what `current.json`
 *   recorded, or files that changed while they were checked;
 * - `stale`: a verified receipt of another generation than `current.json`, or a cheap source
 *   identity that differs from the published one (sources changed since);
 * - `current`: everything above proven.
 */
export function generationReceiptStatus(layout: StateLayout, currentSourceIdentity: string | null, expected: ReceiptExpectation = {}): ReceiptStatus {
  const result = (state: ReceiptState, reason: string, publication: Publication | null = null, receipt: Receipt | null = null): ReceiptStatus => ({ state, receipt, reason, publication });
  const noIdentity = 'The project cannot provide a cheap source identity, so no receipt can be proven current.';
  const cur = readStateFile(layout, layout.currentFile, MAX_CURRENT_BYTES, 'current.json', expected);
  if (cur.kind !== 'ok') {
    if (currentSourceIdentity === null) return result('unknown', noIdentity);
    return result(cur.kind, cur.kind === 'missing' ? `No publication exists: ${cur.reason}` : cur.reason);
  }
  const checked = parsePublication(cur.text);
  const foreign = checked.ok && expected.projectId !== undefined && checked.publication.project_id !== expected.projectId;
  // Without a cheap identity nothing can be proven; a safe, well-formed publication still names the served generation.
  if (currentSourceIdentity === null) return result('unknown', noIdentity, checked.ok && !foreign ? checked.publication : null);
  if (!checked.ok) return result('unverified', `${checked.problem}.`);
  if (foreign) return result('unverified', 'current.json belongs to another project.');
  const pub = checked.publication;

  const recorded = [pub.receipt_file, pub.receipt_ino, pub.receipt_size, pub.receipt_hash];
  if (recorded.every((x) => x === undefined)) return result('missing', 'The current publication records no receipt.', pub);
  if (pub.receipt_file !== path.basename(layout.receiptFile)) return result('unsafe', 'current.json records a receipt path other than the fixed receipt file.', pub);

  const rec = readStateFile(layout, layout.receiptFile, RECEIPT_MAX_FILE_BYTES, 'The receipt file', expected);
  if (rec.kind !== 'ok') return result(rec.kind, rec.reason, pub);
  let value: unknown;
  try {
    value = JSON.parse(rec.text);
  } catch {
    return result('unverified', 'The receipt file is not valid JSON (corrupt or truncated).', pub);
  }
  const problem = receiptProblem(value);
  if (problem !== null) return result('unverified', `The receipt is not a valid version-1 receipt: ${problem}.`, pub);
  const receipt = value as Receipt;
  if (receipt.project_id !== pub.project_id || (expected.projectId !== undefined && receipt.project_id !== expected.projectId)) {
    return result('unverified', 'The receipt belongs to another project.', pub);
  }
  if (expected.root !== undefined && receipt.root !== expected.root) return result('unverified', 'The receipt belongs to another project root.', pub);
  if (receipt.index_schema_version !== INDEX_SCHEMA_VERSION) return result('unverified', 'The receipt was written for another index schema version.', pub);
  if (receipt.to_generation !== pub.generation) {
    return result('stale', `The receipt describes generation ${receipt.to_generation}, but generation ${pub.generation} is published.`, pub, receipt);
  }
  if (receipt.adapter_version !== pub.adapter_version) return result('unverified', 'The receipt was written for another adapter version.', pub);
  if (String(rec.stat.ino) !== pub.receipt_ino || Number(rec.stat.size) !== pub.receipt_size || receipt.receipt_hash !== pub.receipt_hash) {
    return result('unverified', 'The receipt file is not the one current.json recorded (concurrently changed).', pub);
  }
  if (receipt.index_file !== pub.index_file || receipt.index_ino !== pub.index_ino || receipt.index_size !== pub.index_size
    || receipt.to_source_identity !== pub.source_identity) {
    return result('unverified', 'The receipt binds another index file or source identity than current.json.', pub);
  }
  let ist: BigIntStats;
  try {
    ist = lstatSync(path.join(layout.indexDir, pub.index_file), { bigint: true });
  } catch {
    return result('unverified', 'The published index file is gone.', pub);
  }
  if (ist.isSymbolicLink() || !ist.isFile()) return result('unsafe', 'The published index file is not a regular file.', pub);
  if (String(ist.ino) !== pub.index_ino || Number(ist.size) !== pub.index_size) {
    return result('unverified', 'The published index file differs from the recorded identity (concurrently changed).', pub);
  }
  if (pub.source_identity !== currentSourceIdentity) {
    return result('stale', 'The sources changed since this receipt was published (cheap source identity differs).', pub, receipt);
  }
  // Both files must still be the ones read: a publication in between makes the evidence unverified.
  const unchanged = (file: string, before: BigIntStats): boolean => {
    try {
      const now = lstatSync(file, { bigint: true });
      return now.ino === before.ino && now.size === before.size && now.mtimeNs === before.mtimeNs;
    } catch {
      return false;
    }
  };
  if (!unchanged(layout.currentFile, cur.stat) || !unchanged(layout.receiptFile, rec.stat)) {
    return result('unverified', 'current.json or the receipt changed while they were checked.', pub);
  }
  return result('current', 'The receipt is proven against the cheap source identity and the exact index and receipt files.', pub, receipt);
}

