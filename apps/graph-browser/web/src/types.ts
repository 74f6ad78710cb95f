/**
 * Shapes of the graph-browser worker's JSON API as the page reads them; they mirror the schemas in
 * protocol/schemas/viewer/v2/api/ (issue 12 item 3). The page reads only the fields named here.
 */

/** One node of a graph response: identity, kind, full title, readable leaf name and facets. */
export interface GraphNode {
  id: string;
  kind: string;
  title: string;
  /** Readable leaf name, shown without truncation. */
  leaf: string;
  family?: string;
  status?: string;
  tags: string[];
  language?: string;
  capabilities: string[];
  source_path?: string;
  start_line?: number;
}

/** One stored edge; `reversed` (Flow, Web) says the semantic direction runs target → source. */
export interface GraphEdge {
  key: string;
  source: string;
  target: string;
  relation: string;
  category: string;
  reversed?: boolean;
}

/** GET /api/nodes/{id}/{neighborhood|flow|web}. */
export interface GraphResponse {
  focus: string;
  view: 'neighborhood' | 'flow' | 'web';
  nodes: GraphNode[];
  edges: GraphEdge[];
  truncated: boolean;
  depth?: number;
}

/** GET /api/search?q=. */
export interface SearchResponse {
  query: string;
  items: { node: GraphNode; excerpt: string; score: number; match: string }[];
  truncated: boolean;
}

/** GET /api/filter. */
export interface FilterResponse {
  filters: Record<string, string[]>;
  items: GraphNode[];
  truncated: boolean;
  next_after: string | null;
}

/** A facet of the overview: bounded value counts. */
export interface Facet {
  values: { value: string; count: number }[];
  truncated: boolean;
}

/** GET /api/overview. */
export interface OverviewResponse {
  project_id: string;
  counts: { nodes: number; edges: number; issues: number; logic_steps: number };
  nodes_by_kind: Record<string, number>;
  facets: Record<string, Facet>;
  entries: GraphNode[];
  truncated: boolean;
  logic_allowed: boolean;
}

/** One relation of the full node. */
export interface NodeRelation {
  edge: GraphEdge;
  other: GraphNode | null;
  source_path: string;
  line: number;
}

/** GET /api/nodes/{id}: the full node, relations both ways, source location. */
export interface NodeResponse {
  node: Record<string, unknown> & { id: string; kind: string; title: string; leaf: string };
  body_truncated: boolean;
  outgoing: NodeRelation[];
  incoming: NodeRelation[];
  outgoing_truncated: boolean;
  incoming_truncated: boolean;
  logic_steps: number;
  source: { path: string; start_line: number; end_line: number };
}

/** One statement-level step of a Logic projection. */
export interface LogicStep {
  step: number;
  kind: string;
  label: string;
  start_line: number;
  end_line: number;
}

/** One control flow between two Logic steps. */
export interface LogicFlow {
  from_step: number;
  to_step: number;
  kind: string;
  label: string;
}

/** GET /api/nodes/{id}/logic: the bounded stored Logic projection of one function or method. */
export interface LogicResponse {
  owner: GraphNode;
  steps: LogicStep[];
  flows: LogicFlow[];
  total_steps: number;
  total_flows: number;
  truncated: boolean;
}

/** A recognized anchor (heading) of a source file. */
export interface SourceAnchor {
  slug: string;
  title: string;
  level: number;
  line: number;
  end_line: number;
}

/** GET /api/nodes/{id}/source: a bounded window of the node's indexed source. */
export interface SourceResponse {
  node_id: string;
  path: string;
  first_line: number;
  lines: string[];
  total_lines: number;
  highlight: { start_line: number; end_line: number };
  anchors: SourceAnchor[];
  truncated: boolean;
  changed: boolean;
}

/** The body of every non-2xx answer. */
export interface ApiErrorBody {
  error?: { code?: string; message?: string };
}

/** A result set shown in the left panel. */
export interface ResultSet {
  items: GraphNode[];
  truncated: boolean;
}
