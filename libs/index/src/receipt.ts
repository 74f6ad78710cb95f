/**
 * The latest version-1 primary-graph transition receipt (contract: MCP boundary,
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
import { createHash } from 'node:crypto';
import { closeSync, constants as fsConstants, fstatSync, lstatSync, openSync, readSync, realpathSync, rmSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { canonicalJson, hashJson, sha256, type GraphNode } from '@docforge/core';
import { INDEX_SCHEMA_VERSION } from './schema.js';
import { writeFileAtomic, type Publication, type StateLayout } from './publication.js';
import { rowToNode, type NodeRow } from './reader.js';

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

const MAX_CURRENT_BYTES = 64 * 1024;
const HEX64 = /^[0-9a-f]{64}$/;
const INDEX_FILE = /^gen-\d+-[a-z0-9]+\.sqlite$/;

/** Every core Node field compared for `node_changed` items, in this fixed order (a move is a `source_path` change). */
export const NODE_FIELDS = Object.freeze([
  'kind', 'title', 'family', 'authority', 'status', 'tags', 'summary', 'body', 'source_path',
  'start_line', 'end_line', 'anchors', 'language', 'capabilities', 'origin',
] as const);

/** A compared core Node field. */
export type NodeField = (typeof NODE_FIELDS)[number];

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
  /** Keys are {@link edgeIdentityKey} strings. */
  edges: ReadonlyMap<string, unknown> | ReadonlySet<string>;
}

/** The edge identity key `source_id\0relation\0target_id` (the same key the build uses). */
export function edgeIdentityKey(edge: { source_id: string; relation: string; target_id: string }): string {
  return `${edge.source_id}\u0000${edge.relation}\u0000${edge.target_id}`;
}

/** Keys in UTF-16 code unit order (sorted only when the input is not in that order already). */
function sortedKeys(keys: Iterable<string>): string[] {
  const list = [...keys];
  for (let i = 1; i < list.length; i += 1) {
    if (!(list[i - 1]! < list[i]!)) return list.sort();
  }
  return list;
}

/** Map entries in key order (sorted only when needed). */
function sortedEntries(map: ReadonlyMap<string, string>): [string, string][] {
  const list = [...map.entries()];
  for (let i = 1; i < list.length; i += 1) {
    if (!(list[i - 1]![0] < list[i]![0])) return list.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  }
  return list;
}

/** Hash-update granularity: hashing ~64 KiB strings is several times faster than one big join. */
const HASH_CHUNK_CHARS = 65_536;

/** SHA-256 over `text(item)` lines joined by LF, fed in chunks (no intermediate arrays). */
function hashJoined<T>(items: Iterable<T>, text: (item: T) => string): string {
  const hash = createHash('sha256');
  let chunk = '';
  let first = true;
  for (const item of items) {
    chunk += first ? text(item) : `\n${text(item)}`;
    first = false;
    if (chunk.length >= HASH_CHUNK_CHARS) {
      hash.update(chunk);
      chunk = '';
    }
  }
  return hash.update(chunk).digest('hex');
}

const entryLine = (entry: readonly [string, string]): string => `${entry[0]}\t${entry[1]}`;
const keyLine = (key: string): string => key;

/** The node hash of a snapshot (see the module comment). */
export function nodeSetHash(nodes: ReadonlyMap<string, string>): string {
  return hashJoined(sortedEntries(nodes), entryLine);
}

/** The edge hash of a snapshot (see the module comment). */
export function edgeSetHash(edges: GraphSnapshot['edges']): string {
  return hashJoined(sortedKeys(edges.keys()), keyLine);
}

/**
 * Walks two sequences in key order like a merge, reporting items only in `from`, only in `to`,
 * and in both. Returns false as soon as either sequence turns out not to be in strictly
 * increasing key order (the caller then retries on sorted copies and discards partial reports).
 * Iterating the build's maps directly avoids materializing tens of thousands of keys per build.
 */
function mergeOrdered<T>(from: Iterable<T>, to: Iterable<T>, key: (item: T) => string, onlyFrom: (item: T) => void, onlyTo: (item: T) => void, inBoth: (a: T, b: T) => void): boolean {
  const fi = from[Symbol.iterator]();
  const ti = to[Symbol.iterator]();
  let a = fi.next();
  let b = ti.next();
  let ka = a.done ? '' : key(a.value);
  let kb = b.done ? '' : key(b.value);
  const nextA = (): boolean => {
    const previous = ka;
    a = fi.next();
    if (a.done) return true;
    ka = key(a.value);
    return previous < ka;
  };
  const nextB = (): boolean => {
    const previous = kb;
    b = ti.next();
    if (b.done) return true;
    kb = key(b.value);
    return previous < kb;
  };
  while (!a.done || !b.done) {
    if (!a.done && (b.done || ka < kb)) {
      onlyFrom(a.value);
      if (!nextA()) return false;
    } else if (!b.done && (a.done || kb < ka)) {
      onlyTo(b.value);
      if (!nextB()) return false;
    } else {
      inBoth(a.value as T, b.value as T);
      if (!nextA() || !nextB()) return false;
    }
  }
  return true;
}

const q = JSON.stringify;

/**
 * RFC 8785 canonical JSON of one item, written directly for these fixed shapes (equal to
 * `canonicalJson(item)`, pinned by a test) because a first build can produce tens of thousands.
 */
export function receiptItemJson(item: ReceiptItem): string {
  switch (item.change) {
    case 'node_added':
    case 'node_removed':
      return `{"change":${q(item.change)},"content_hash":${q(item.content_hash)},"id":${q(item.id)}}`;
    case 'node_changed':
      return `{"change":"node_changed","changed_fields":[${item.changed_fields.map((f) => q(f)).join(',')}],"from_hash":${q(item.from_hash)},"id":${q(item.id)},"to_hash":${q(item.to_hash)}}`;
    default:
      return `{"change":${q(item.change)},"relation":${q(item.relation)},"source_id":${q(item.source_id)},"target_id":${q(item.target_id)}}`;
  }
}

/** SHA-256 of the canonical JSON of one item (used by collection hashes and response-limit omissions). */
export function receiptItemHash(item: ReceiptItem): string {
  return sha256(receiptItemJson(item));
}

/** The collection hash of items in order (see the module comment). */
export function collectionHash(items: readonly ReceiptItem[]): string {
  const hash = createHash('sha256');
  for (const item of items) hash.update(`${receiptItemHash(item)}\n`);
  return hash.digest('hex');
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** Every core Node field (of {@link NODE_FIELDS}) whose value differs between two versions of a node. */
export function nodeChangedFields(before: GraphNode, after: GraphNode): NodeField[] {
  return NODE_FIELDS.filter((field) => !sameValue(before[field], after[field]));
}

function edgeItem(change: 'edge_added' | 'edge_removed', key: string): EdgeItem {
  const [source_id, relation, target_id] = key.split('\u0000') as [string, string, string];
  return { change, source_id, relation, target_id };
}

/**
 * Compares two graph snapshots and produces the generation-independent receipt part: exact
 * counts and hashes over everything, and the deterministic item prefix retained under the fixed
 * limits (1,000 items or 1 MiB of canonical JSON, whichever comes first).
 * @param from the previous graph, or null on the first build (then every node and edge is added)
 * @param to the new graph
 * @param changedFields called only for `node_changed` items that are retained (at most 1,000)
 * @throws whatever `changedFields` throws
 */
export function diffGraphs(from: GraphSnapshot | null, to: GraphSnapshot, changedFields: (id: string) => NodeField[], cached?: { from?: { node_hash: string; edge_hash: string } | null }): ReceiptDiff {
  // Both sides are walked in key order like a merge: exact, and much cheaper than hash lookups
  // of every key at 10,000 nodes and tens of thousands of edges. Build maps are in key order;
  // anything else is walked again on sorted copies.
  let fromNodes: Iterable<[string, string]> = from ? from.nodes.entries() : [];
  let toNodes: Iterable<[string, string]> = to.nodes.entries();
  let added: [string, string][] = [];
  let removed: [string, string][] = [];
  let changed: [string, string, string][] = [];
  const entryKey = (e: [string, string]): string => e[0];
  const walkNodes = (): boolean => mergeOrdered(fromNodes, toNodes, entryKey, (e) => removed.push(e), (e) => added.push(e), (x, y) => {
    if (x[1] !== y[1]) changed.push([x[0], x[1], y[1]]);
  });
  if (!walkNodes()) {
    fromNodes = from ? sortedEntries(from.nodes) : [];
    toNodes = sortedEntries(to.nodes);
    added = [];
    removed = [];
    changed = [];
    walkNodes();
  } else {
    fromNodes = from ? from.nodes.entries() : [];
    toNodes = to.nodes.entries();
  }
  let fromEdges: Iterable<string> = from ? from.edges.keys() : [];
  let toEdges: Iterable<string> = to.edges.keys();
  let edgesAdded: string[] = [];
  let edgesRemoved: string[] = [];
  const walkEdges = (): boolean => mergeOrdered(fromEdges, toEdges, keyLine, (k) => edgesRemoved.push(k), (k) => edgesAdded.push(k), () => undefined);
  if (!walkEdges()) {
    fromEdges = from ? sortedKeys(from.edges.keys()) : [];
    toEdges = sortedKeys(to.edges.keys());
    edgesAdded = [];
    edgesRemoved = [];
    walkEdges();
  } else {
    fromEdges = from ? from.edges.keys() : [];
    toEdges = to.edges.keys();
  }

  const full = createHash('sha256');
  const retainedHash = createHash('sha256');
  const items: ReceiptItem[] = [];
  let bytes = 2; // "[" and "]"
  let reason: DetailsOmittedReason | null = null;
  let total = 0;
  const offer = (identityText: string, complete: () => { item: ReceiptItem; text: string }): void => {
    total += 1;
    full.update(`${sha256(identityText)}\n`);
    if (reason !== null) return;
    if (items.length >= RECEIPT_MAX_ITEMS) {
      reason = 'item_limit';
      return;
    }
    const { item, text } = complete();
    const size = Buffer.byteLength(text, 'utf8') + (items.length > 0 ? 1 : 0);
    if (bytes + size > RECEIPT_MAX_DETAIL_BYTES) {
      reason = 'byte_limit';
      return;
    }
    items.push(item);
    bytes += size;
    retainedHash.update(`${sha256(text)}\n`);
  };
  const simple = (item: ReceiptItem): void => {
    const text = receiptItemJson(item);
    offer(text, () => ({ item, text }));
  };
  for (const [id, content_hash] of added) simple({ change: 'node_added', id, content_hash });
  for (const [id, content_hash] of removed) simple({ change: 'node_removed', id, content_hash });
  for (const [id, from_hash, to_hash] of changed) {
    const identity = `{"change":"node_changed","from_hash":${q(from_hash)},"id":${q(id)},"to_hash":${q(to_hash)}}`;
    offer(identity, () => {
      const item: NodeChangedItem = { change: 'node_changed', id, from_hash, to_hash, changed_fields: changedFields(id) };
      return { item, text: receiptItemJson(item) };
    });
  }
  for (const key of edgesAdded) simple(edgeItem('edge_added', key));
  for (const key of edgesRemoved) simple(edgeItem('edge_removed', key));

  const empty = sha256('');
  const fromNodeHash = from ? (cached?.from?.node_hash ?? hashJoined(fromNodes, entryLine)) : empty;
  const fromEdgeHash = from ? (cached?.from?.edge_hash ?? hashJoined(fromEdges, keyLine)) : empty;
  // An unchanged side is the same set, so it has the same hash: a one-file edit rarely rehashes edges.
  const nodesSame = from !== null && added.length === 0 && removed.length === 0 && changed.length === 0;
  const edgesSame = from !== null && edgesAdded.length === 0 && edgesRemoved.length === 0;
  return {
    from_node_hash: fromNodeHash,
    from_node_count: from ? from.nodes.size : 0,
    from_edge_hash: fromEdgeHash,
    from_edge_count: from ? from.edges.size : 0,
    to_node_hash: nodesSame ? fromNodeHash : hashJoined(toNodes, entryLine),
    to_node_count: to.nodes.size,
    to_edge_hash: edgesSame ? fromEdgeHash : hashJoined(toEdges, keyLine),
    to_edge_count: to.edges.size,
    summary: { nodes_added: added.length, nodes_removed: removed.length, nodes_changed: changed.length, edges_added: edgesAdded.length, edges_removed: edgesRemoved.length },
    items,
    retained_count: items.length,
    total_count: total,
    retained_collection_hash: retainedHash.digest('hex'),
    full_collection_hash: full.digest('hex'),
    details_omitted: reason !== null,
    details_omitted_reason: reason,
    detail_limits: { max_items: RECEIPT_MAX_ITEMS, max_bytes: RECEIPT_MAX_DETAIL_BYTES },
  };
}

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
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const nodes = new Map<string, string>();
    for (const row of db.prepare('SELECT id, content_hash FROM nodes ORDER BY id').raw().iterate() as IterableIterator<[string, string]>) nodes.set(row[0], row[1]);
    const edges = new Set<string>();
    for (const row of db.prepare('SELECT source_id, relation, target_id FROM edges ORDER BY source_id, relation, target_id').raw().iterate() as IterableIterator<[string, string, string]>) {
      edges.add(`${row[0]}\u0000${row[1]}\u0000${row[2]}`);
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

/** Hashes of the last published `to` side in this worker, so the next build need not rehash it. */
let lastSide: { index_file: string; index_ino: string; node_hash: string; edge_hash: string } | null = null;

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
    if (previous) {
      previousFile = path.join(input.layout.indexDir, previous.index_file);
      const w = input.written;
      from = w && w.indexFile === previous.index_file && w.indexIno === previous.index_ino && w.indexSize === previous.index_size
        ? { nodes: w.nodes, edges: w.edges }
        : loadIndexSnapshot(previousFile);
    }
    let lookup: { db: InstanceType<typeof Database>; stmt: Database.Statement<[string], unknown> } | null = null;
    try {
      const changedFields = (id: string): NodeField[] => {
        if (previousFile === null) throw new Error('no previous index');
        if (lookup === null) {
          const db = new Database(previousFile, { readonly: true, fileMustExist: true });
          lookup = { db, stmt: db.prepare<[string]>('SELECT * FROM nodes WHERE id = ?') };
        }
        const row = lookup.stmt.get(id) as NodeRow | undefined;
        const after = findNode(input.nodes, id);
        if (row === undefined || after === undefined) throw new Error(`changed node ${id} not found on both sides`);
        return nodeChangedFields(rowToNode(row), after);
      };
      const cached = previous && lastSide && lastSide.index_file === previous.index_file && lastSide.index_ino === previous.index_ino ? { from: lastSide } : undefined;
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
 * could be produced (then any old receipt file is removed and the status reads `missing`).
 */
export function commitReceipt(
  plan: ReceiptPlan,
  before: Publication | null,
  committed: { generation: number; index_file: string; index_ino: string; index_size: number },
): ReceiptFields | Record<string, never> {
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
    lastSide = { index_file: committed.index_file, index_ino: committed.index_ino, node_hash: receipt.to_node_hash, edge_hash: receipt.to_edge_hash };
    return { receipt_file: RECEIPT_FILE_NAME, receipt_ino: String(st.ino), receipt_size: Number(st.size), receipt_hash: receipt.receipt_hash };
  } catch {
    lastSide = null;
    try {
      rmSync(layout.receiptFile, { force: true });
    } catch {
      // Without a reference from current.json a leftover file reads as `missing` anyway.
    }
    return {};
  }
}

// ---------------------------------------------------------------------------------------------
// Status (non-repairing)

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
function readConfined(layout: StateLayout, file: string, maxBytes: number, label: string, expected: ReceiptExpectation): ConfinedRead {
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
      if (stateReal !== rootReal && !stateReal.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep)) {
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

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isHash = (v: unknown): v is string => typeof v === 'string' && HEX64.test(v);
const isString = (v: unknown): v is string => typeof v === 'string';

/** Why a publication object lacks the shape the status needs, or null. */
function publicationProblem(value: unknown): string | null {
  if (!isObject(value)) return 'current.json is not an object';
  if (value.schema_version !== 1) return 'current.json has another schema version';
  if (!isCount(value.generation)) return 'current.json has no valid generation';
  if (!isString(value.index_file) || !INDEX_FILE.test(value.index_file)) return 'current.json has no valid index file name';
  for (const key of ['source_identity', 'source_hash', 'index_ino', 'adapter_version', 'project_id'] as const) {
    if (!isString(value[key])) return `current.json has no valid ${key}`;
  }
  if (!isCount(value.index_size)) return 'current.json has no valid index_size';
  return null;
}

const ITEM_KEYS: Readonly<Record<ReceiptItem['change'], readonly string[]>> = {
  node_added: ['change', 'content_hash', 'id'],
  node_removed: ['change', 'content_hash', 'id'],
  node_changed: ['change', 'changed_fields', 'from_hash', 'id', 'to_hash'],
  edge_added: ['change', 'relation', 'source_id', 'target_id'],
  edge_removed: ['change', 'relation', 'source_id', 'target_id'],
};

function itemProblem(item: unknown): string | null {
  if (!isObject(item) || typeof item.change !== 'string' || !Object.prototype.hasOwnProperty.call(ITEM_KEYS, item.change)) return 'an item has no known change kind';
  const keys = ITEM_KEYS[item.change as ReceiptItem['change']];
  if (Object.keys(item).length !== keys.length || keys.some((k) => !Object.prototype.hasOwnProperty.call(item, k))) return `a ${item.change} item has other fields`;
  switch (item.change) {
    case 'node_added':
    case 'node_removed':
      return isString(item.id) && isHash(item.content_hash) ? null : `a ${item.change} item is malformed`;
    case 'node_changed': {
      const fields = item.changed_fields;
      const ok = isString(item.id) && isHash(item.from_hash) && isHash(item.to_hash) && Array.isArray(fields)
        && fields.every((f) => (NODE_FIELDS as readonly unknown[]).includes(f));
      return ok ? null : 'a node_changed item is malformed';
    }
    default:
      return isString(item.source_id) && isString(item.relation) && isString(item.target_id) ? null : `a ${item.change} item is malformed`;
  }
}

const RECEIPT_KEYS = [
  'receipt_schema_version', 'project_id', 'root', 'adapter_version', 'index_schema_version', 'from_generation', 'to_generation',
  'from_source_identity', 'to_source_identity', 'index_file', 'index_ino', 'index_size', 'from_node_hash', 'from_node_count',
  'from_edge_hash', 'from_edge_count', 'to_node_hash', 'to_node_count', 'to_edge_hash', 'to_edge_count', 'summary', 'items',
  'retained_count', 'total_count', 'retained_collection_hash', 'full_collection_hash', 'details_omitted', 'details_omitted_reason',
  'detail_limits', 'receipt_hash',
] as const;

/**
 * Checks that a parsed value is a self-consistent version-1 receipt: exact field set and types,
 * item shapes, counts that add up, the retained collection hash and the receipt hash.
 * @returns null when valid, else why not
 */
export function receiptProblem(value: unknown): string | null {
  if (!isObject(value)) return 'the receipt is not a JSON object';
  if (value.receipt_schema_version !== RECEIPT_SCHEMA_VERSION) return 'the receipt has another schema version';
  const keys = Object.keys(value);
  if (keys.length !== RECEIPT_KEYS.length || RECEIPT_KEYS.some((k) => !Object.prototype.hasOwnProperty.call(value, k))) return 'the receipt does not have the version-1 field set';
  const v = value;
  if (![v.project_id, v.root, v.adapter_version, v.to_source_identity, v.index_file, v.index_ino].every(isString)) return 'a receipt string field is malformed';
  if (!(v.from_generation === null || isCount(v.from_generation)) || !isCount(v.to_generation)) return 'the receipt generations are malformed';
  if (!(v.from_source_identity === null || isString(v.from_source_identity))) return 'the receipt from_source_identity is malformed';
  if ((v.from_generation === null) !== (v.from_source_identity === null)) return 'the receipt from side is half present';
  if (![v.index_schema_version, v.index_size, v.from_node_count, v.from_edge_count, v.to_node_count, v.to_edge_count, v.retained_count, v.total_count].every(isCount)) {
    return 'a receipt count is malformed';
  }
  if (![v.from_node_hash, v.from_edge_hash, v.to_node_hash, v.to_edge_hash, v.retained_collection_hash, v.full_collection_hash, v.receipt_hash].every(isHash)) {
    return 'a receipt hash is malformed';
  }
  const s = v.summary;
  if (!isObject(s) || Object.keys(s).length !== 5 || ![s.nodes_added, s.nodes_removed, s.nodes_changed, s.edges_added, s.edges_removed].every(isCount)) return 'the receipt summary is malformed';
  const summary = s as unknown as ReceiptSummary;
  if (summary.nodes_added + summary.nodes_removed + summary.nodes_changed + summary.edges_added + summary.edges_removed !== v.total_count) return 'the receipt summary does not add up to total_count';
  const limits = v.detail_limits;
  if (!isObject(limits) || Object.keys(limits).length !== 2 || limits.max_items !== RECEIPT_MAX_ITEMS || limits.max_bytes !== RECEIPT_MAX_DETAIL_BYTES) return 'the receipt detail limits are not the version-1 limits';
  if (!Array.isArray(v.items) || v.items.length !== v.retained_count || v.retained_count > (v.total_count as number) || v.items.length > RECEIPT_MAX_ITEMS) return 'the receipt items do not match retained_count';
  for (const item of v.items) {
    const problem = itemProblem(item);
    if (problem !== null) return problem;
  }
  if (typeof v.details_omitted !== 'boolean' || v.details_omitted !== (v.retained_count !== v.total_count)) return 'the receipt details_omitted flag is inconsistent';
  if (v.details_omitted ? v.details_omitted_reason !== 'item_limit' && v.details_omitted_reason !== 'byte_limit' : v.details_omitted_reason !== null) return 'the receipt details_omitted_reason is inconsistent';
  const { receipt_hash: stored, ...body } = v;
  if (hashJson(body) !== stored) return 'the receipt hash does not match its content';
  if (collectionHash(v.items as ReceiptItem[]) !== v.retained_collection_hash) return 'the retained collection hash does not match the items';
  return null;
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
  const cur = readConfined(layout, layout.currentFile, MAX_CURRENT_BYTES, 'current.json', expected);
  if (cur.kind !== 'ok') {
    if (currentSourceIdentity === null) return result('unknown', noIdentity);
    return result(cur.kind, cur.kind === 'missing' ? `No publication exists: ${cur.reason}` : cur.reason);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(cur.text);
  } catch {
    parsed = null;
  }
  const pubProblem = publicationProblem(parsed);
  const foreign = pubProblem === null && expected.projectId !== undefined && (parsed as Publication).project_id !== expected.projectId;
  // Without a cheap identity nothing can be proven; a safe, well-formed publication still names the served generation.
  if (currentSourceIdentity === null) return result('unknown', noIdentity, pubProblem === null && !foreign ? (parsed as Publication) : null);
  if (pubProblem !== null) return result('unverified', parsed === null ? 'current.json is not valid JSON.' : `${pubProblem}.`);
  if (foreign) return result('unverified', 'current.json belongs to another project.');
  const pub = parsed as Publication;

  const recorded = [pub.receipt_file, pub.receipt_ino, pub.receipt_size, pub.receipt_hash];
  if (recorded.every((x) => x === undefined)) return result('missing', 'The current publication records no receipt.', pub);
  if (!isString(pub.receipt_file) || !isString(pub.receipt_ino) || !isCount(pub.receipt_size) || !isHash(pub.receipt_hash)) {
    return result('unverified', 'current.json records a malformed receipt identity.', pub);
  }
  if (pub.receipt_file !== path.basename(layout.receiptFile)) return result('unsafe', 'current.json records a receipt path other than the fixed receipt file.', pub);

  const rec = readConfined(layout, layout.receiptFile, RECEIPT_MAX_FILE_BYTES, 'The receipt file', expected);
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
