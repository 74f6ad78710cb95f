/**
 * Types and fixed limits of the latest version-1 primary-graph transition receipt (contract: MCP boundary,
 * `docforge_get_generation_diff`; DESIGN.md section 4). Every publication writes one receipt
 * beside `current.json` describing the change from the previous publication's graph to the new
 * one, and `current.json` records the receipt's file identity and hash. The status reader
 * ({@link generationReceiptStatus}) is non-repairing: it never opens SQLite, parses sources,
 * synchronizes, builds or writes.
 *
 * Hash definitions (all SHA-256 hex):
 * - node hash: over the lines `id\tcontent_hash`, sorted by id (UTF-16 code unit order), joined by LF;
 * - edge hash: over the lines `source_id\0relation\0target_id`, sorted, joined by LF;
 * - item hash: over the canonical JSON (RFC 8785) of one item;
 * - collection hash: over the concatenation of `item_hash + LF` of every item in order (the empty
 *   collection hashes the empty string). `retained_collection_hash` covers the retained items
 *   exactly as stored; `full_collection_hash` covers every item in its identity form (a
 *   `node_changed` item without `changed_fields`, which its `from_hash`/`to_hash` already determine);
 * - `receipt_hash`: over the canonical JSON of the receipt without `receipt_hash`.
 */
import { Buffer } from 'node:buffer';
import { NODE_FIELDS, type NodeField } from '@docforge/core';
/** Version of the stored receipt layout. */
export const RECEIPT_SCHEMA_VERSION = 1;
/** Fixed publication limit: at most this many detail items are retained. */
export const RECEIPT_MAX_ITEMS = 1000;
/** Fixed publication limit: the retained items' canonical JSON array is at most this many UTF-8 bytes (1 MiB). */
export const RECEIPT_MAX_DETAIL_BYTES = 1_048_576;
/** A stored receipt file larger than this (2 MiB) is `unverified` without being read. */
export const RECEIPT_MAX_FILE_BYTES = 2 * 1_048_576;
/** File name of the receipt inside `<state>/index/` (see `stateLayout().receiptFile`). */
export const RECEIPT_FILE_NAME = 'generation-receipt.json';


/**
 * Every core Node field compared for `node_changed` items, in this fixed order (a move is a
 * `source_path` change): core's one declaration, re-exported for the receipt code.
 */
export { NODE_FIELDS, type NodeField };

/** Kinds of change, in the order items are stored. */
export const CHANGE_KINDS = Object.freeze(['node_added', 'node_removed', 'node_changed', 'edge_added', 'edge_removed'] as const);

/** A node present only after the transition. */
export interface NodeAddedItem { change: 'node_added'; id: string; content_hash: string }
/** A node present only before the transition. */
export interface NodeRemovedItem { change: 'node_removed'; id: string; content_hash: string }
/** A node whose content hash changed; `changed_fields` lists every differing core field in {@link NODE_FIELDS} order. */
export interface NodeChangedItem { change: 'node_changed'; id: string; from_hash: string; to_hash: string; changed_fields: NodeField[] }
/** An edge triple present only after (`edge_added`) or only before (`edge_removed`) the transition. */
export interface EdgeItem { change: 'edge_added' | 'edge_removed'; source_id: string; relation: string; target_id: string }
/** One retained detail of a transition. */
export type ReceiptItem = NodeAddedItem | NodeRemovedItem | NodeChangedItem | EdgeItem;

/** Exact counts of the complete transition. */
export interface ReceiptSummary {
  nodes_added: number;
  nodes_removed: number;
  nodes_changed: number;
  edges_added: number;
  edges_removed: number;
}

/** Why retained details stop before the complete collection. */
export type DetailsOmittedReason = 'item_limit' | 'byte_limit';

/** The generation-independent part of a receipt: hashes, counts and the (capped) items. */
export interface ReceiptDiff {
  from_node_hash: string;
  from_node_count: number;
  from_edge_hash: string;
  from_edge_count: number;
  to_node_hash: string;
  to_node_count: number;
  to_edge_hash: string;
  to_edge_count: number;
  summary: ReceiptSummary;
  items: ReceiptItem[];
  retained_count: number;
  total_count: number;
  retained_collection_hash: string;
  full_collection_hash: string;
  details_omitted: boolean;
  details_omitted_reason: DetailsOmittedReason | null;
  detail_limits: { max_items: number; max_bytes: number };
}

/** What a receipt binds besides the diff: the project, the adapter and both publications. */
export interface ReceiptBinding {
  project_id: string;
  root: string;
  adapter_version: string;
  index_schema_version: number;
  /** Previous publication's generation; null on the first build. */
  from_generation: number | null;
  to_generation: number;
  /** Previous publication's cheap source identity; null on the first build. */
  from_source_identity: string | null;
  to_source_identity: string;
  /** The committed index file of `to_generation`: name inside `<state>/index/`, inode (decimal string), size in bytes. */
  index_file: string;
  index_ino: string;
  index_size: number;
}

/** A stored version-1 transition receipt. */
export interface Receipt extends ReceiptBinding, ReceiptDiff {
  receipt_schema_version: 1;
  /** SHA-256 of the canonical JSON of every other field (including `items`). */
  receipt_hash: string;
}

/** The receipt identity recorded in `current.json`. */
export interface ReceiptFields {
  receipt_file: string;
  receipt_ino: string;
  receipt_size: number;
  receipt_hash: string;
}

/** One side of a transition: node id → content hash, and edge identity keys (values ignored). */
export interface GraphSnapshot {
  nodes: ReadonlyMap<string, string>;
  /** Keys are `edgeIdentityKey` strings (@docforge/core). */
  edges: ReadonlyMap<string, unknown> | ReadonlySet<string>;
}

/** The edge identity key `source_id\0relation\0target_id` (the same key the build uses). */
