import type { GraphNode } from './model.js';
import { hashJson } from './hash.js';

/**
 * Fills `content_hash` from every other core field of the node.
 * @returns the same node object, for chaining.
 */
export function withContentHash(node: Omit<GraphNode, 'content_hash'> & { content_hash?: string }): GraphNode {
  const { content_hash: _ignored, ...rest } = node;
  const full = node as GraphNode;
  full.content_hash = hashJson(rest);
  return full;
}
