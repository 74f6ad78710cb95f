/**
 * `catalog` (issue 11 item 5): the selected nodes grouped by kind, then family, each with its id,
 * status and tags. Structure: `section.kind[data-kind] > section.family[data-family] > ul > li.node[data-node-id]`.
 */
import type { GraphNode } from '@docforge/core';
import { escapeHtml, nodeAnchor } from '../html.js';
import { markClass, type RenderInput } from './types.js';

/** Family label of nodes without a family. */
export const NO_FAMILY = '(no family)';

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) (groups.get(key(item)) ?? groups.set(key(item), []).get(key(item))!).push(item);
  return new Map([...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function item(node: GraphNode, input: RenderInput): string {
  const tags = node.tags.map((t) => `<span class="tag">${escapeHtml(t)}</span>`).join('');
  const status = node.status === null ? '' : ` <span class="status" data-status="${escapeHtml(node.status)}">${escapeHtml(node.status)}</span>`;
  return `<li class="node${markClass(input.marks, node.id)}" id="${nodeAnchor(node.id)}" data-node-id="${escapeHtml(node.id)}"><strong>${escapeHtml(node.title)}</strong> <code>${escapeHtml(node.id)}</code>${status} <span class="tags">${tags}</span></li>`;
}

/** The catalog body. */
export function renderCatalog(input: RenderInput): string {
  const selection = input.graph.select(input.view.select);
  const parts = [`<h1>${escapeHtml(input.view.title)}</h1>`, `<p class="meta">${selection.nodes.length} nodes</p>`];
  if (selection.truncated) parts.push('<p class="truncated">The selection was cut at the node limit.</p>');
  for (const [kind, ofKind] of groupBy(selection.nodes, (n) => n.kind)) {
    parts.push(`<section class="kind" data-kind="${escapeHtml(kind)}"><h2>${escapeHtml(kind)}</h2>`);
    for (const [family, nodes] of groupBy(ofKind, (n) => n.family ?? NO_FAMILY)) {
      parts.push(`<section class="family" data-family="${escapeHtml(family)}"><h3>${escapeHtml(family)}</h3><ul>`, ...nodes.map((n) => item(n, input)), '</ul></section>');
    }
    parts.push('</section>');
  }
  return parts.join('\n');
}
