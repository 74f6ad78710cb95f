/** What every built-in renderer receives and returns (issue 11 item 5). */
import type { GraphNode } from '@docforge/core';
import type { ViewDeclaration } from '@docforge/project';
import type { RenderEdge, RenderGraph } from '../graph.js';

/** How a preview marks a node or relation against the published graph. */
export type ChangeMark = 'added' | 'changed' | 'removed';

/** Preview marks: node id -> mark, edge key (see {@link edgeKey}) -> mark. */
export interface ChangeMarks {
  nodes: ReadonlyMap<string, ChangeMark>;
  edges: ReadonlyMap<string, ChangeMark>;
}

/** The input of one renderer run. */
export interface RenderInput {
  view: ViewDeclaration;
  graph: RenderGraph;
  /** Marks of a changeset preview; absent for declared output. */
  marks?: ChangeMarks;
}

/** A renderer: the `<body>` HTML of one view (the registry wraps it into a document). */
export type Renderer = (input: RenderInput) => string | Promise<string>;

/** The identity key of an edge: `source\0relation\0target`. */
export function edgeKey(edge: RenderEdge): string {
  return `${edge.source_id}\u0000${edge.relation}\u0000${edge.target_id}`;
}

/** The mark class attribute fragment of a node (` added` etc.), or ''. */
export function markClass(marks: ChangeMarks | undefined, id: string): string {
  const mark = marks?.nodes.get(id);
  return mark === undefined ? '' : ` ${mark}`;
}

/** Nodes by source path (first id wins) and the set of ids, for link resolution. */
export function linkTables(nodes: readonly GraphNode[]): { present: Set<string>; nodeByPath: Map<string, string> } {
  const present = new Set(nodes.map((n) => n.id));
  const nodeByPath = new Map<string, string>();
  for (const n of nodes) if (!n.id.startsWith('code:') && !nodeByPath.has(n.source_path)) nodeByPath.set(n.source_path, n.id);
  return { present, nodeByPath };
}
