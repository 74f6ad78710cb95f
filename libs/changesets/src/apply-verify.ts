/**
 * The read-back of canonical application (issue 11, item 2): after every file is written, the
 * files are read again as the index build reads them and compared with the approved projection;
 * any mismatch, and any failure while checking, rolls every file back (apply-write.ts `rollBack`).
 */
import { canonicalJson, sha256 } from '@docforge/core';
import { faultSet, filesAfter } from './journal.js';
import { journalRecord, reasonOf, rollBack, type ApplyRun, type StagedApply } from './apply-write.js';
import { Workspace } from './workspace.js';

/** What the canonical loader reads from one source path: its complete parse (nodes with every field, edges, links, issues), hashed; `absent` when the walk finds no file there. */
function readBack(ws: Workspace, rel: string): { digest: string; ids: string[] } {
  const parsed = ws.parse(rel);
  if (parsed === null) return { digest: 'absent', ids: [] };
  return { digest: sha256(canonicalJson(parsed)), ids: parsed.nodes.map((n) => n.id) };
}

/** The first difference between the written files and the approved projection, or null. */
async function mismatch(run: ApplyRun, projected: Workspace, staged: StagedApply, touched: readonly string[]): Promise<string | null> {
  if (!(await filesAfter(run.dirs, journalRecord(staged.journal)))) return 'a written file does not hold the staged bytes';
  const fresh = new Workspace(run.view);
  for (const file of staged.journal.files) {
    const want = readBack(projected, file.path);
    const got = readBack(fresh, file.path);
    if (want.digest !== got.digest) {
      const lost = want.ids.filter((id) => !got.ids.includes(id));
      return `${file.path} read back by the canonical loader does not reproduce the approved projection${lost.length > 0 ? ` (node${lost.length > 1 ? 's' : ''} ${lost.slice(0, 5).join(', ')} missing)` : ''}`;
    }
  }
  for (const id of new Set(touched)) {
    const want = projected.locate(id)?.node.content_hash ?? null;
    const got = fresh.locate(id)?.node.content_hash ?? null;
    if (want !== got) return `node ${id} read back from the files does not reproduce the approved projection`;
  }
  return null;
}

/**
 * Re-reads every written file as the index build reads it (through the verified folders for the
 * bytes; a fresh {@link Workspace} for the source walk, strict UTF-8 decoding and the canonical
 * loader) and compares it with the approved projection: each file must hash to its staged bytes,
 * each written path must give exactly the projected parse (every node with its content hash,
 * edges, links and issues; a node that vanished, e.g. a file the loader refuses as
 * `invalid_encoding` or one the walk does not reach, is a mismatch), and each touched node must
 * have the projected content hash (or be absent as projected).
 * @throws DocforgeError `application_failed` with stage `verify` after the rollback (`restored` says whether it completed)
 */
export async function verify(run: ApplyRun, projected: Workspace, staged: StagedApply, touched: readonly string[]): Promise<void> {
  let problem: string | null;
  try {
    problem = await mismatch(run, projected, staged, touched);
    // Test fault point: the read-back is treated as a mismatch. The files keep the staged bytes, so the
    // rollback rewrites them (a file changed by hand would hold neither state and is never overwritten).
    if (faultSet(run.faults, 'apply_verify_mismatch')) problem ??= 'test fault point apply_verify_mismatch: the read-back is treated as a mismatch';
  } catch (error) {
    problem = `the written files could not be read back: ${reasonOf(error)}`;
  }
  if (problem !== null) await rollBack(run, staged, 'verify', problem);
}
