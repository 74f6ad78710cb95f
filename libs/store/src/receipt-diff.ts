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
  if (from !== null && from.edges === to.edges) {
    // The build passed the previous edge map itself: no edge changed (nothing to walk).
  } else if (!walkEdges()) {
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

