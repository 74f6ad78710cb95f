/**
 * Read-time status (issue 10, item 7): staleness is derived whenever a changeset is read and is
 * never written by a reader. A `draft` or `ready` changeset is `stale` when a touched node's
 * current hash differs from its captured `expected_content_hash` or a `code:` id its relations name
 * vanished from the index, when a touched source file changed, or when only the project base moved
 * (`base_changed`, which rebase can resolve).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sha256 } from '@docforge/core';
import type { ChangesetDocument, ChangesetSummary, Staleness } from './types.js';
import type { ProjectView } from './workspace.js';

/** The current content hash of a project-relative file, or null when it is absent or unreadable. */
export function currentFileHash(root: string, rel: string): string | null {
  try {
    return sha256(readFileSync(path.join(root, rel), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The `code:` ids a relationship operation names that the synchronized index no longer holds but
 * did when the changeset was last evaluated (its stored findings hold no `dangling_relation` for
 * them): a code id vanishes when its source changes or an adapter version changes how ids are
 * spelled (issue 31 item 5), and rebase must name it rather than carry a relation to nothing.
 */
function vanishedCodeTargets(doc: ChangesetDocument, view: ProjectView): string[] {
  const out: string[] = [];
  for (const op of doc.operations) {
    if (op.op !== 'relationship_update') continue;
    for (const ref of [...(op.add ?? []), ...(op.remove ?? [])]) {
      const id = ref.target_id;
      if (!id.startsWith('code:') || out.includes(id) || view.node(id) !== null) continue;
      const quoted = `"${id}"`;
      if (doc.findings.some((f) => f.code === 'dangling_relation' && f.message.includes(quoted))) continue;
      out.push(id);
    }
  }
  return out;
}

/** Why a stored changeset is stale now, or null (also null for applied and abandoned ones). */
export function deriveStaleness(doc: ChangesetDocument, view: ProjectView): Staleness | null {
  if (doc.status !== 'draft' && doc.status !== 'ready') return null;
  const nodeIds: string[] = [];
  for (const op of doc.operations) {
    // A link_review binds its targets' review hashes; its source file's captured hash covers the source.
    if (op.op === 'node_create' || op.op === 'link_review' || op.expected_content_hash === undefined) continue;
    const id = op.op === 'relationship_update' ? op.source_id : op.node_id;
    if (view.node(id)?.content_hash !== op.expected_content_hash && !nodeIds.includes(id)) nodeIds.push(id);
  }
  for (const id of vanishedCodeTargets(doc, view)) if (!nodeIds.includes(id)) nodeIds.push(id);
  if (nodeIds.length > 0) return { reason: 'touched_node_changed', node_ids: nodeIds, paths: [] };
  const paths = Object.entries(doc.captured.sources).filter(([p, hash]) => currentFileHash(view.root, p) !== hash).map(([p]) => p).sort();
  if (paths.length > 0) return { reason: 'touched_source_changed', node_ids: [], paths };
  if (doc.base !== view.sourceHash) return { reason: 'base_changed', node_ids: [], paths: [] };
  return null;
}

/** The read-time summary of a stored changeset (status `stale` when derived so). */
export function summarize(doc: ChangesetDocument, view: ProjectView): ChangesetSummary {
  const stale = deriveStaleness(doc, view);
  return {
    id: doc.id,
    writer: doc.writer,
    status: stale !== null ? 'stale' : doc.status,
    stored_status: doc.status,
    changeset_sha256: doc.changeset_sha256,
    base: doc.base,
    operation_count: doc.operations.length,
    stale,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}
