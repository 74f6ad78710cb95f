/**
 * Health of a worker's snapshot by file identity alone (contract: "Health checks compare that
 * signature without opening SQLite"): read the small `current.json` beside the index file and
 * `lstat` the index file; never open SQLite.
 */
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PublicationSignature } from '@docforge/ipc';
import { validateCurrentJson } from '@docforge/protocol';

/** Largest current.json the manager reads (bytes); a larger file makes the state unknown. */
const MAX_CURRENT_BYTES = 64 * 1024;

/** `current`: still published and intact; `stale`: proven otherwise; `unknown`: current.json unreadable. */
export type SignatureState = 'current' | 'stale' | 'unknown';

/** Whether two signatures are the same five fields. */
export function sameSignature(a: PublicationSignature, b: PublicationSignature): boolean {
  return a.generation === b.generation && a.source_identity === b.source_identity && a.index_file === b.index_file && a.index_ino === b.index_ino && a.index_size === b.index_size;
}

/**
 * Compares a signature with the publication beside `indexPath` (`<dir>/current.json`) and with the
 * index file's `lstat` (inode and size). Never throws.
 */
export function signatureState(indexPath: string, signature: PublicationSignature): SignatureState {
  let published: PublicationSignature;
  try {
    const file = path.join(path.dirname(indexPath), 'current.json');
    const st = lstatSync(file);
    if (!st.isFile() || st.size > MAX_CURRENT_BYTES) return 'unknown';
    const doc: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!validateCurrentJson(doc)) return 'unknown';
    published = { generation: doc.generation, source_identity: doc.source_identity, index_file: doc.index_file, index_ino: doc.index_ino, index_size: doc.index_size };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'stale' : 'unknown';
  }
  if (!sameSignature(published, signature)) return 'stale';
  try {
    const st = lstatSync(indexPath, { bigint: true });
    return st.isFile() && String(st.ino) === signature.index_ino && Number(st.size) === signature.index_size ? 'current' : 'stale';
  } catch {
    return 'stale';
  }
}
