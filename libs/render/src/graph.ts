/**
 * The graph a renderer reads (issue 11 item 5): a small read interface over either the published
 * index (through {@link IndexReader}, the CLI's `docforge render` and the status oracle) or the
 * published index overlaid with a changeset's projected content graph (the preview). Renderers
 * never see SQL, files or the changeset store.
 */
import type { GraphEdge, GraphNode } from '@docforge/core';
import type { IndexReader, NodeFilters } from '@docforge/store';
import type { ViewSelector } from '@docforge/project';

/** Most nodes one view selects; a larger selection is cut at this many (ordered by id) and says so. */
export const MAX_VIEW_NODES = 2000;
/** Most edges read per node and direction. */
export const MAX_NODE_EDGES = 500;

/** A relation between two nodes as renderers see it. */
export interface RenderEdge {
  source_id: string;
  relation: string;
  target_id: string;
}

/** A selection: the nodes (ordered by id) and whether {@link MAX_VIEW_NODES} cut it. */
export interface Selection {
  nodes: GraphNode[];
  truncated: boolean;
}

/** Read access a renderer has to one graph snapshot. */
export interface RenderGraph {
  /** Nodes matching the selector, ordered by id, at most {@link MAX_VIEW_NODES}. */
  select(selector: ViewSelector): Selection;
  /** The node with this exact id, or null. */
  node(id: string): GraphNode | null;
  /** Edges leaving (`outgoing`) or reaching (`incoming`) a node, ordered by (source, relation, target), at most {@link MAX_NODE_EDGES}. */
  edges(id: string, direction: 'outgoing' | 'incoming'): RenderEdge[];
}

function filtersOf(selector: ViewSelector): NodeFilters {
  const { ids: _ids, ...filters } = selector;
  return filters;
}

/** Whether a node passes a selector (the in-memory twin of the index reader's filters). */
export function nodeMatchesSelector(node: GraphNode, selector: ViewSelector): boolean {
  const any = (values: readonly string[] | undefined, value: string | null): boolean => values === undefined || values.length === 0 || (value !== null && values.includes(value));
  if (!any(selector.ids, node.id) || !any(selector.kinds, node.kind) || !any(selector.families, node.family) || !any(selector.authorities, node.authority)) return false;
  if (!any(selector.statuses, node.status) || !any(selector.languages, node.language)) return false;
  if (selector.tags !== undefined && selector.tags.length > 0 && !selector.tags.some((tag) => node.tags.includes(tag))) return false;
  if (selector.capabilities !== undefined && !selector.capabilities.every((c) => node.capabilities.includes(c))) return false;
  return true;
}

function byEdgeKey(a: RenderEdge, b: RenderEdge): number {
  return a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : a.relation < b.relation ? -1 : a.relation > b.relation ? 1 : a.target_id < b.target_id ? -1 : a.target_id > b.target_id ? 1 : 0;
}

/**
 * The graph of one published index generation. Selections page through the reader's keyset
 * filter; a selector with `ids` reads those nodes one by one.
 */
export function readerGraph(reader: IndexReader): RenderGraph {
  return {
    select(selector) {
      const nodes: GraphNode[] = [];
      if (selector.ids !== undefined && selector.ids.length > 0) {
        for (const id of [...selector.ids].sort()) {
          const node = reader.getNode(id);
          if (node !== null && nodeMatchesSelector(node, selector)) nodes.push(node);
        }
        return { nodes: nodes.slice(0, MAX_VIEW_NODES), truncated: nodes.length > MAX_VIEW_NODES };
      }
      let after: string | null = null;
      for (;;) {
        const page = reader.nodesByFilter(filtersOf(selector), Math.min(200, MAX_VIEW_NODES + 1 - nodes.length), after);
        for (const item of page.items) {
          const node = reader.getNode(item.id);
          if (node !== null) nodes.push(node);
        }
        if (nodes.length > MAX_VIEW_NODES) return { nodes: nodes.slice(0, MAX_VIEW_NODES), truncated: true };
        if (!page.truncated || page.items.length === 0) return { nodes, truncated: false };
        after = page.items[page.items.length - 1]!.id;
      }
    },
    node: (id) => reader.getNode(id),
    edges(id, direction) {
      return reader.edges(id, direction, null, MAX_NODE_EDGES).map((e) => ({ source_id: e.source_id, relation: e.relation, target_id: e.target_id })).sort(byEdgeKey);
    },
  };
}

/** What a changeset's projection contributes to a preview graph. */
export interface ContentOverlay {
  /** Every content (non-`code:`) node of the projected state. */
  nodes: readonly GraphNode[];
  /** Every edge of the projected state whose source is a content node. */
  edges: readonly GraphEdge[];
}

/**
 * The published graph with its content part replaced by a projection (the preview's graph): content
 * nodes and the edges they declare come from `overlay`; code nodes and the edges code nodes
 * declare come from `base`. Nothing is written.
 */
export function overlayGraph(base: RenderGraph, overlay: ContentOverlay): RenderGraph {
  const nodes = new Map(overlay.nodes.filter((n) => !n.id.startsWith('code:')).map((n) => [n.id, n]));
  const outgoing = new Map<string, RenderEdge[]>();
  const incoming = new Map<string, RenderEdge[]>();
  for (const e of overlay.edges) {
    if (e.source_id.startsWith('code:')) continue;
    const edge = { source_id: e.source_id, relation: e.relation, target_id: e.target_id };
    (outgoing.get(e.source_id) ?? outgoing.set(e.source_id, []).get(e.source_id)!).push(edge);
    (incoming.get(e.target_id) ?? incoming.set(e.target_id, []).get(e.target_id)!).push(edge);
  }
  const isCode = (id: string): boolean => id.startsWith('code:');
  return {
    select(selector) {
      const fromBase = base.select(selector).nodes.filter((n) => isCode(n.id));
      const fromOverlay = [...nodes.values()].filter((n) => nodeMatchesSelector(n, selector));
      const all = [...fromBase, ...fromOverlay].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return { nodes: all.slice(0, MAX_VIEW_NODES), truncated: all.length > MAX_VIEW_NODES };
    },
    node(id) {
      return isCode(id) ? base.node(id) : (nodes.get(id) ?? null);
    },
    edges(id, direction) {
      if (direction === 'outgoing') {
        const list = isCode(id) ? base.edges(id, 'outgoing') : (outgoing.get(id) ?? []);
        return [...list].sort(byEdgeKey).slice(0, MAX_NODE_EDGES);
      }
      // Incoming: declared by code nodes (base) or by content nodes (overlay).
      const list = [...base.edges(id, 'incoming').filter((e) => isCode(e.source_id)), ...(incoming.get(id) ?? [])];
      return list.sort(byEdgeKey).slice(0, MAX_NODE_EDGES);
    },
  };
}
