/**
 * The identity of an edge: the exact `(source_id, relation, target_id)` triple (DESIGN.md section 4:
 * `edges` is unique on it). Receipts hash and compare edges by this key, and builds key their
 * delta maps by it, so there is one definition.
 */

/** The three fields that identify an edge. */
export interface EdgeIdentity {
  source_id: string;
  relation: string;
  target_id: string;
}

/** Separator of the key's fields: NUL cannot occur in node ids or relation names. */
export const EDGE_KEY_SEPARATOR = '\u0000';

/** The edge identity key `source_id\0relation\0target_id`. */
export function edgeIdentityKey(edge: EdgeIdentity): string {
  return `${edge.source_id}${EDGE_KEY_SEPARATOR}${edge.relation}${EDGE_KEY_SEPARATOR}${edge.target_id}`;
}

/**
 * The triple of an {@link edgeIdentityKey}.
 * @throws Error when `key` does not have exactly three NUL-separated fields
 */
export function parseEdgeIdentityKey(key: string): EdgeIdentity {
  const parts = key.split(EDGE_KEY_SEPARATOR);
  if (parts.length !== 3) throw new Error(`not an edge identity key: ${JSON.stringify(key)}`);
  return { source_id: parts[0]!, relation: parts[1]!, target_id: parts[2]! };
}
