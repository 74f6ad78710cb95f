/**
 * Producing and committing a generation receipt during a build: plan the diff before the
 * publication lock, commit (write) it inside the lock before `current.json` is replaced.
 */
import { lstatSync, rmSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { sqliteDatabase } from './sqlite.js';
import { canonicalJson, edgeIdentityKey, hashJson, type GraphNode } from '@docforge/core';
import { writeFileAtomic, type StateLayout } from '@docforge/fs-safe';
import type { Publication } from './publication-format.js';
import { rowToNode, type NodeRow } from './reader.js';
import { diffGraphs, nodeChangedFields } from './receipt-diff.js';
import {
  RECEIPT_FILE_NAME, RECEIPT_SCHEMA_VERSION,
  type GraphSnapshot, type NodeField, type Receipt, type ReceiptBinding, type ReceiptDiff, type ReceiptFields,
} from './receipt-types.js';
import { INDEX_SCHEMA_VERSION } from './schema.js';

/** Joins a diff and its binding into a receipt and computes `receipt_hash`. */
export function assembleReceipt(binding: ReceiptBinding, diff: ReceiptDiff): Receipt {
  const body = { receipt_schema_version: RECEIPT_SCHEMA_VERSION as 1, ...binding, ...diff };
  return { ...body, receipt_hash: hashJson(body) };
}

/** The stored text of a receipt: its canonical JSON and a final newline. */
export function receiptText(receipt: Receipt): string {
  return `${canonicalJson(receipt)}\n`;
}

/** Reads the graph snapshot of a published index file read-only (nodes' content hashes and edge triples). @throws on an unreadable file. */
export function loadIndexSnapshot(file: string): GraphSnapshot {
  const db = new (sqliteDatabase())(file, { readonly: true, fileMustExist: true });
  try {
    const nodes = new Map<string, string>();
    for (const row of db.prepare('SELECT id, content_hash FROM nodes ORDER BY id').raw().iterate() as IterableIterator<[string, string]>) nodes.set(row[0], row[1]);
    const edges = new Set<string>();
    for (const row of db.prepare('SELECT source_id, relation, target_id FROM edges ORDER BY source_id, relation, target_id').raw().iterate() as IterableIterator<[string, string, string]>) {
      edges.add(edgeIdentityKey({ source_id: row[0], relation: row[1], target_id: row[2] }));
    }
    return { nodes, edges };
  } finally {
    db.close();
  }
}

/** The graph a build worker wrote last (its delta state), usable as the previous side when it still describes the publication. */
export interface WrittenGraph {
  indexFile: string;
  indexIno: string;
  indexSize: number;
  nodes: ReadonlyMap<string, string>;
  edges: ReadonlyMap<string, unknown>;
  /**
   * The node and edge hashes of this graph when a receipt committed it (`commitReceipt`'s `side`),
   * so the next build's diff need not rehash its previous side; absent or null: hashed when needed.
   */
  receiptSide?: ReceiptSide | null;
}

/** The node and edge set hashes (receipt `to_node_hash`, `to_edge_hash`) of a committed graph. */
export interface ReceiptSide {
  node_hash: string;
  edge_hash: string;
}

/** What {@link commitReceipt} produced: the fields `current.json` records (empty: no receipt), and the committed side's hashes (null: no receipt). */
export interface CommittedReceipt {
  fields: ReceiptFields | Record<string, never>;
  side: ReceiptSide | null;
}

/** Inputs of {@link planReceipt}: the previous publication and the complete new graph of one build. */
export interface ReceiptPlanInput {
  layout: StateLayout;
  previous: Publication | null;
  /** The worker's last written graph (same root), or null. Used only when it matches `previous` exactly. */
  written: WrittenGraph | null;
  /** New graph nodes; nodes that changed must carry their complete fields (bodies). */
  nodes: readonly GraphNode[];
  nodeMap: ReadonlyMap<string, string>;
  edgeMap: ReadonlyMap<string, unknown>;
  projectId: string;
  root: string;
  adapterVersion: string;
  sourceIdentity: string;
}

/** A receipt diff computed before the publication lock, against one previous publication. */
export interface ReceiptPlan {
  input: ReceiptPlanInput;
  from: Publication | null;
  /** Null when the previous graph could not be read (then no receipt is published). */
  diff: ReceiptDiff | null;
}

/** The node with this id: binary search in id order (the resolver's order), else a linear scan. */
function findNode(nodes: readonly GraphNode[], id: string): GraphNode | undefined {
  let lo = 0;
  let hi = nodes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = nodes[mid]!.id;
    if (at === id) return nodes[mid];
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return nodes.find((n) => n.id === id);
}

/**
 * Computes the receipt diff of a build against `input.previous`. Uses the worker's written
 * id→hash maps when they describe the previous publication, else reads the previous index file
 * read-only; opens it again only for retained `node_changed` ids to find their changed fields.
 * Never throws: an unreadable previous graph yields `diff: null`.
 */
export function planReceipt(input: ReceiptPlanInput, previous: Publication | null = input.previous): ReceiptPlan {
  try {
    let from: GraphSnapshot | null = null;
    let previousFile: string | null = null;
    const w = input.written;
    const fromWritten = previous !== null && w !== null && w.indexFile === previous.index_file && w.indexIno === previous.index_ino && w.indexSize === previous.index_size;
    if (previous) {
      previousFile = path.join(input.layout.indexDir, previous.index_file);
      from = fromWritten ? { nodes: w!.nodes, edges: w!.edges } : loadIndexSnapshot(previousFile);
    }
    let lookup: { db: InstanceType<typeof Database>; stmt: Database.Statement<[string], unknown> } | null = null;
    try {
      const changedFields = (id: string): NodeField[] => {
        if (previousFile === null) throw new Error('no previous index');
        if (lookup === null) {
          const db = new (sqliteDatabase())(previousFile, { readonly: true, fileMustExist: true });
          lookup = { db, stmt: db.prepare<[string]>('SELECT * FROM nodes WHERE id = ?') };
        }
        const row = lookup.stmt.get(id) as NodeRow | undefined;
        const after = findNode(input.nodes, id);
        if (row === undefined || after === undefined) throw new Error(`changed node ${id} not found on both sides`);
        return nodeChangedFields(rowToNode(row), after);
      };
      const side = fromWritten ? w!.receiptSide ?? null : null;
      const cached = side !== null ? { from: side } : undefined;
      const diff = diffGraphs(from, { nodes: input.nodeMap, edges: input.edgeMap }, changedFields, cached);
      return { input, from: previous, diff };
    } finally {
      (lookup as { db: InstanceType<typeof Database> } | null)?.db.close();
    }
  } catch {
    return { input, from: previous, diff: null };
  }
}

/**
 * Writes the receipt of a committed index file (call inside the publication lock, after the new
 * index file is renamed into place and BEFORE `current.json` is replaced). When the publication
 * found under the lock is not the one the plan was computed against, the diff is recomputed
 * against it. Returns the fields `current.json` records, or an empty object when no receipt
 * could be produced (then any old receipt file is removed and the status reads `missing`), and
 * the committed graph's hashes for the next build's plan (`WrittenGraph.receiptSide`).
 */
export function commitReceipt(
  plan: ReceiptPlan,
  before: Publication | null,
  committed: { generation: number; index_file: string; index_ino: string; index_size: number },
): CommittedReceipt {
  const { layout } = plan.input;
  try {
    const same = (plan.from?.index_file ?? null) === (before?.index_file ?? null) && (plan.from?.index_ino ?? null) === (before?.index_ino ?? null);
    const effective = same ? plan : planReceipt(plan.input, before);
    if (effective.diff === null) throw new Error('no receipt diff');
    const receipt = assembleReceipt({
      project_id: plan.input.projectId,
      root: plan.input.root,
      adapter_version: plan.input.adapterVersion,
      index_schema_version: INDEX_SCHEMA_VERSION,
      from_generation: before ? before.generation : null,
      to_generation: committed.generation,
      from_source_identity: before ? before.source_identity : null,
      to_source_identity: plan.input.sourceIdentity,
      index_file: committed.index_file,
      index_ino: committed.index_ino,
      index_size: committed.index_size,
    }, effective.diff);
    writeFileAtomic(layout.receiptFile, receiptText(receipt));
    const st = lstatSync(layout.receiptFile, { bigint: true });
    return {
      fields: { receipt_file: RECEIPT_FILE_NAME, receipt_ino: String(st.ino), receipt_size: Number(st.size), receipt_hash: receipt.receipt_hash },
      side: { node_hash: receipt.to_node_hash, edge_hash: receipt.to_edge_hash },
    };
  } catch {
    try {
      rmSync(layout.receiptFile, { force: true });
    } catch {
      // Without a reference from current.json a leftover file reads as `missing` anyway.
    }
    return { fields: {}, side: null };
  }
}

