/**
 * The receipt diff: compares two graph snapshots by a merge walk in key order and produces exact
 * counts and hashes plus the retained item prefix under the fixed limits.
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { canonicalJson, parseEdgeIdentityKey, sha256, type GraphNode } from '@docforge/core';
import { entryLine, hashJoined, keyLine, q, receiptItemJson, sortedEntries, sortedKeys } from './receipt-hash.js';
import {
  NODE_FIELDS, RECEIPT_MAX_DETAIL_BYTES, RECEIPT_MAX_ITEMS,
  type DetailsOmittedReason, type EdgeItem, type GraphSnapshot, type NodeChangedItem, type NodeField, type ReceiptDiff, type ReceiptItem,
} from './receipt-types.js';

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
  return { change, ...parseEdgeIdentityKey(key) };
}

type NodeEntry = [string, string];

/** The node side of a diff: added, removed and changed nodes, and both sides in key order (for hashing). */
interface NodeWalk {
  added: NodeEntry[];
  removed: NodeEntry[];
  changed: [string, string, string][];
  fromOrdered: Iterable<NodeEntry>;
  toOrdered: Iterable<NodeEntry>;
}

/**
 * Walks both node maps in key order like a merge: exact, and much cheaper than hash lookups of
 * every key at 10,000 nodes. Build maps are in key order; anything else is walked again on sorted copies.
 */
function walkNodes(from: GraphSnapshot | null, to: GraphSnapshot): NodeWalk {
  const run = (fromNodes: Iterable<NodeEntry>, toNodes: Iterable<NodeEntry>): { ok: boolean; walk: NodeWalk } => {
    const walk: NodeWalk = { added: [], removed: [], changed: [], fromOrdered: fromNodes, toOrdered: toNodes };
    const ok = mergeOrdered(fromNodes, toNodes, (e) => e[0], (e) => walk.removed.push(e), (e) => walk.added.push(e), (x, y) => {
      if (x[1] !== y[1]) walk.changed.push([x[0], x[1], y[1]]);
    });
    return { ok, walk };
  };
  const first = run(from ? from.nodes.entries() : [], to.nodes.entries());
  // The walked iterators are spent: hashing walks fresh ones, in the same (key) order.
  if (first.ok) return { ...first.walk, fromOrdered: from ? from.nodes.entries() : [], toOrdered: to.nodes.entries() };
  return run(from ? sortedEntries(from.nodes) : [], sortedEntries(to.nodes)).walk;
}

/** The edge side of a diff: added and removed edge keys, and both sides in key order (for hashing). */
interface EdgeWalk {
  added: string[];
  removed: string[];
  fromOrdered: Iterable<string>;
  toOrdered: Iterable<string>;
}

/** Walks both edge key sets in key order like {@link walkNodes}; nothing when the build passed the previous edge map itself. */
function walkEdges(from: GraphSnapshot | null, to: GraphSnapshot): EdgeWalk {
  const fresh = (): EdgeWalk => ({ added: [], removed: [], fromOrdered: from ? from.edges.keys() : [], toOrdered: to.edges.keys() });
  // The same map on both sides: no edge changed (nothing to walk).
  if (from !== null && from.edges === to.edges) return fresh();
  const run = (fromEdges: Iterable<string>, toEdges: Iterable<string>): { ok: boolean; walk: EdgeWalk } => {
    const walk: EdgeWalk = { added: [], removed: [], fromOrdered: fromEdges, toOrdered: toEdges };
    const ok = mergeOrdered(fromEdges, toEdges, keyLine, (k) => walk.removed.push(k), (k) => walk.added.push(k), () => undefined);
    return { ok, walk };
  };
  const first = run(from ? from.edges.keys() : [], to.edges.keys());
  if (first.ok) return { ...fresh(), added: first.walk.added, removed: first.walk.removed };
  return run(from ? sortedKeys(from.edges.keys()) : [], sortedKeys(to.edges.keys())).walk;
}

/**
 * The receipt's items: every item offered is hashed into the full collection hash; the first ones
 * are retained while they fit the fixed limits (1,000 items or 1 MiB of canonical JSON), and the
 * first item that does not fit ends the retained prefix.
 */
class RetainedItems {
  readonly items: ReceiptItem[] = [];
  reason: DetailsOmittedReason | null = null;
  total = 0;
  readonly #full = createHash('sha256');
  readonly #retained = createHash('sha256');
  #bytes = 2; // "[" and "]"

  /** Offers an item by its identity text; `complete` builds it (and its canonical text) only when it may be retained. */
  offer(identityText: string, complete: () => { item: ReceiptItem; text: string }): void {
    this.total += 1;
    this.#full.update(`${sha256(identityText)}\n`);
    if (this.reason !== null) return;
    if (this.items.length >= RECEIPT_MAX_ITEMS) {
      this.reason = 'item_limit';
      return;
    }
    const { item, text } = complete();
    const size = Buffer.byteLength(text, 'utf8') + (this.items.length > 0 ? 1 : 0);
    if (this.#bytes + size > RECEIPT_MAX_DETAIL_BYTES) {
      this.reason = 'byte_limit';
      return;
    }
    this.items.push(item);
    this.#bytes += size;
    this.#retained.update(`${sha256(text)}\n`);
  }

  /** Offers an item whose identity is its whole canonical text. */
  simple(item: ReceiptItem): void {
    const text = receiptItemJson(item);
    this.offer(text, () => ({ item, text }));
  }

  /** Hex SHA-256 of the retained and of all items. */
  hashes(): { retained: string; full: string } {
    return { retained: this.#retained.digest('hex'), full: this.#full.digest('hex') };
  }
}

/** Offers every change in the receipt's order: nodes added, removed, changed, then edges added, removed. */
function collectItems(nodes: NodeWalk, edges: EdgeWalk, changedFields: (id: string) => NodeField[]): RetainedItems {
  const out = new RetainedItems();
  for (const [id, content_hash] of nodes.added) out.simple({ change: 'node_added', id, content_hash });
  for (const [id, content_hash] of nodes.removed) out.simple({ change: 'node_removed', id, content_hash });
  for (const [id, from_hash, to_hash] of nodes.changed) {
    const identity = `{"change":"node_changed","from_hash":${q(from_hash)},"id":${q(id)},"to_hash":${q(to_hash)}}`;
    out.offer(identity, () => {
      const item: NodeChangedItem = { change: 'node_changed', id, from_hash, to_hash, changed_fields: changedFields(id) };
      return { item, text: receiptItemJson(item) };
    });
  }
  for (const key of edges.added) out.simple(edgeItem('edge_added', key));
  for (const key of edges.removed) out.simple(edgeItem('edge_removed', key));
  return out;
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
  const nodes = walkNodes(from, to);
  const edges = walkEdges(from, to);
  const collected = collectItems(nodes, edges, changedFields);
  const hashes = collected.hashes();
  const empty = sha256('');
  const fromNodeHash = from ? (cached?.from?.node_hash ?? hashJoined(nodes.fromOrdered, entryLine)) : empty;
  const fromEdgeHash = from ? (cached?.from?.edge_hash ?? hashJoined(edges.fromOrdered, keyLine)) : empty;
  // An unchanged side is the same set, so it has the same hash: a one-file edit rarely rehashes edges.
  const nodesSame = from !== null && nodes.added.length === 0 && nodes.removed.length === 0 && nodes.changed.length === 0;
  const edgesSame = from !== null && edges.added.length === 0 && edges.removed.length === 0;
  return {
    from_node_hash: fromNodeHash,
    from_node_count: from ? from.nodes.size : 0,
    from_edge_hash: fromEdgeHash,
    from_edge_count: from ? from.edges.size : 0,
    to_node_hash: nodesSame ? fromNodeHash : hashJoined(nodes.toOrdered, entryLine),
    to_node_count: to.nodes.size,
    to_edge_hash: edgesSame ? fromEdgeHash : hashJoined(edges.toOrdered, keyLine),
    to_edge_count: to.edges.size,
    summary: { nodes_added: nodes.added.length, nodes_removed: nodes.removed.length, nodes_changed: nodes.changed.length, edges_added: edges.added.length, edges_removed: edges.removed.length },
    items: collected.items,
    retained_count: collected.items.length,
    total_count: collected.total,
    retained_collection_hash: hashes.retained,
    full_collection_hash: hashes.full,
    details_omitted: collected.reason !== null,
    details_omitted_reason: collected.reason,
    detail_limits: { max_items: RECEIPT_MAX_ITEMS, max_bytes: RECEIPT_MAX_DETAIL_BYTES },
  };
}
