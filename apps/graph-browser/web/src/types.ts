/**
 * Shapes of the graph-browser worker's JSON API as the page reads them: the types generated from
 * protocol/schemas/viewer/v2/api/ (issue 12 item 3), so a schema change fails this page's
 * type-check. Type-only imports: nothing of @docforge/protocol reaches the bundle.
 */
import type {
  GraphBrowserFilter, GraphBrowserGraph, GraphBrowserLogic, GraphBrowserNode, GraphBrowserOverview, GraphBrowserSearch, GraphBrowserSource, GraphBrowserStatus,
} from '@docforge/protocol';

/** GET /api/nodes/{id}/{neighborhood|flow|web}. */
export type GraphResponse = GraphBrowserGraph;
/** One node of a graph response: identity, kind, full title, readable leaf name and facets. */
export type GraphNode = GraphBrowserGraph['nodes'][number];
/** One stored edge; `reversed` (Flow, Web) says the semantic direction runs target → source. */
export type GraphEdge = GraphBrowserGraph['edges'][number];
/** GET /api/search?q=. */
export type SearchResponse = GraphBrowserSearch;
/** GET /api/filter. */
export type FilterResponse = GraphBrowserFilter;
/** GET /api/overview. */
export type OverviewResponse = GraphBrowserOverview;
/** GET /api/nodes/{id}: the full node, relations both ways, source location. */
export type NodeResponse = GraphBrowserNode;
/** GET /api/nodes/{id}/logic: the bounded stored Logic projection of one function or method. */
export type LogicResponse = GraphBrowserLogic;
/** GET /api/nodes/{id}/source: a bounded window of the node's indexed source. */
export type SourceResponse = GraphBrowserSource;

/** GET /api/status: served versus published generation. */
export type StatusResponse = GraphBrowserStatus;

/** The body of every non-2xx answer (GraphBrowserError, read defensively: a proxy may answer otherwise). */
export interface ApiErrorBody {
  error?: { code?: string; message?: string };
}

/** A result set shown in the left panel. */
export interface ResultSet {
  items: GraphNode[];
  truncated: boolean;
  /** Loads the next bounded page and re-renders; absent when there is no way to continue. */
  more?: () => void;
}
