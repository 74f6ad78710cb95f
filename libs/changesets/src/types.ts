/**
 * The changeset model (issue 10; contract "Isolated proposal tools"): operations, the stored
 * document, findings and the read-time view. The wire shapes are the JSON Schemas
 * protocol/schemas/v1/changeset-operation.schema.json and changeset.schema.json.
 */

/** The operation names (the five of the contract, then issue 32's `link_review`), in the order the contract and issue list them. */
export const OPERATION_NAMES = Object.freeze(['node_create', 'node_update', 'node_move', 'relationship_update', 'node_delete', 'link_review'] as const);

/** One operation name. */
export type OperationName = (typeof OPERATION_NAMES)[number];

/** A relation reference of `relationship_update`. */
export interface RelationRef {
  relation: string;
  target_id: string;
}

/** Metadata fields a `node_update` may set. */
export interface NodeSet {
  title?: string;
  kind?: string;
  family?: string;
  authority?: string;
  status?: string;
  tags?: string[];
}

/** `node_create`: a new `.md` file with TOML front matter, or a `[[node]]` record in a `.toml` file. */
export interface NodeCreateOp {
  op: 'node_create';
  node: { id: string; kind: string; title: string; family?: string; authority?: string; status?: string; tags?: string[]; relations?: Record<string, string[]> };
  /** Project-relative POSIX path inside a content root. */
  path: string;
  body: string;
}

/** `node_update`: metadata and/or body of an existing node. */
export interface NodeUpdateOp {
  op: 'node_update';
  node_id: string;
  expected_content_hash?: string;
  set?: NodeSet;
  body?: string;
}

/** `node_move`: a node's source moves to `new_path`. */
export interface NodeMoveOp {
  op: 'node_move';
  node_id: string;
  expected_content_hash?: string;
  new_path: string;
}

/** `relationship_update`: queued relation additions and removals of one source node. */
export interface RelationshipUpdateOp {
  op: 'relationship_update';
  source_id: string;
  expected_content_hash?: string;
  add?: RelationRef[];
  remove?: RelationRef[];
}

/** `node_delete`. */
export interface NodeDeleteOp {
  op: 'node_delete';
  node_id: string;
  expected_content_hash?: string;
}

/** One relation a `link_review` stamps: relation, target and the target's review hash (captured when omitted). */
export interface ReviewRef {
  relation: string;
  target_id: string;
  hash?: string;
}

/**
 * `link_review` (issue 32): review stamps of relations of one source node, of the section `section`
 * (its mention-derived `documents` edges, or the links of a plain page's section) when given. Its
 * binding is the review hash of each target, not the source's content hash (the source file's
 * captured hash makes a changed source stale, as for every operation).
 */
export interface LinkReviewOp {
  op: 'link_review';
  source_id: string;
  section?: string;
  links: ReviewRef[];
}

/** One changeset operation. */
export type Operation = NodeCreateOp | NodeUpdateOp | NodeMoveOp | RelationshipUpdateOp | NodeDeleteOp | LinkReviewOp;

/** Stored lifecycle status; `stale` is derived when read and never stored. */
export type StoredStatus = 'draft' | 'ready' | 'applied' | 'abandoned';

/** A status as reported by reads. */
export type ReadStatus = StoredStatus | 'stale';

/** One validation finding: operation index, node id, code and remediation. */
export interface Finding {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  remediation: string;
  /** Index of the operation the finding concerns, or null for a changeset-wide finding. */
  operation_index: number | null;
  node_id: string | null;
  path?: string | null;
  /** For `conflict`: this changeset's id and the other one's. */
  changeset_ids?: string[];
}

/** A lifecycle receipt (audit record), bound to the hash it concerns. */
export interface LifecycleReceipt {
  event: 'created' | 'registered' | 'operation_added' | 'rebased' | 'abandoned' | 'applied';
  /** ISO-8601 time. */
  at: string;
  writer: string;
  changeset_sha256: string;
  details?: Record<string, unknown>;
}

/** The stored document `<state>/changesets/<id>.json` (canonical JSON). */
export interface ChangesetDocument {
  schema_version: 1;
  id: string;
  writer: string;
  /** Source hash of the synchronized publication the operations were made against. */
  base: string;
  operations: Operation[];
  /** SHA-256 of the canonical JSON of `{id, writer, base, operations}` ({@link changesetSha256}). */
  changeset_sha256: string;
  status: StoredStatus;
  /** Content hashes (null: absent) of every touched source path at the base. */
  captured: { sources: Record<string, string | null> };
  /** Findings of the last stored validation. */
  findings: Finding[];
  receipts: LifecycleReceipt[];
  created_at: string;
  updated_at: string;
}

/** Why a changeset is stale (derived when read). */
export interface Staleness {
  /** `base_changed`: only other sources changed (rebase can move it); the others name what it touched. */
  reason: 'base_changed' | 'touched_node_changed' | 'touched_source_changed';
  node_ids: string[];
  paths: string[];
}

/** The read-time summary of one changeset. */
export interface ChangesetSummary {
  id: string;
  writer: string;
  status: ReadStatus;
  stored_status: StoredStatus;
  changeset_sha256: string;
  base: string;
  operation_count: number;
  stale: Staleness | null;
  created_at: string;
  updated_at: string;
}
