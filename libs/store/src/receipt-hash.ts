/**
 * Receipt hashing (definitions in receipt-types.ts): node and edge set hashes, item canonical JSON
 * and item/collection hashes.
 */
import { createHash } from 'node:crypto';
import { sha256 } from '@docforge/core';
import type { GraphSnapshot, ReceiptItem } from './receipt-types.js';

/** Keys in UTF-16 code unit order (sorted only when the input is not in that order already). */
export function sortedKeys(keys: Iterable<string>): string[] {
  const list = [...keys];
  for (let i = 1; i < list.length; i += 1) {
    if (!(list[i - 1]! < list[i]!)) return list.sort();
  }
  return list;
}

/** Map entries in key order (sorted only when needed). */
export function sortedEntries(map: ReadonlyMap<string, string>): [string, string][] {
  const list = [...map.entries()];
  for (let i = 1; i < list.length; i += 1) {
    if (!(list[i - 1]![0] < list[i]![0])) return list.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  }
  return list;
}

/** Hash-update granularity: hashing ~64 KiB strings is several times faster than one big join. */
const HASH_CHUNK_CHARS = 65_536;

/** SHA-256 over `text(item)` lines joined by LF, fed in chunks (no intermediate arrays). */
export function hashJoined<T>(items: Iterable<T>, text: (item: T) => string): string {
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

export const entryLine = (entry: readonly [string, string]): string => `${entry[0]}\t${entry[1]}`;
export const keyLine = (key: string): string => key;

/** The node hash of a snapshot (see the module comment). */
export function nodeSetHash(nodes: ReadonlyMap<string, string>): string {
  return hashJoined(sortedEntries(nodes), entryLine);
}

/** The edge hash of a snapshot (see the module comment). */
export function edgeSetHash(edges: GraphSnapshot['edges']): string {
  return hashJoined(sortedKeys(edges.keys()), keyLine);
}

/** JSON string literal of a value (RFC 8785 string form for these fixed shapes). */
export const q = JSON.stringify;

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
