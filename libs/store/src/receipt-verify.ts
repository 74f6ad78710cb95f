/**
 * Verification of a stored receipt's own consistency (field set, types, item shapes, counts,
 * collection and receipt hashes), without any file access.
 */
import { hashJson } from '@docforge/core';
import { collectionHash } from './receipt-hash.js';
import { NODE_FIELDS, RECEIPT_MAX_DETAIL_BYTES, RECEIPT_MAX_ITEMS, RECEIPT_SCHEMA_VERSION, type ReceiptItem, type ReceiptSummary } from './receipt-types.js';

const HEX64 = /^[0-9a-f]{64}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isHash = (v: unknown): v is string => typeof v === 'string' && HEX64.test(v);
const isString = (v: unknown): v is string => typeof v === 'string';

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

