/**
 * The page's only way to the worker: same-origin GETs of bounded JSON endpoints (issue 12 item 3).
 * Node ids travel as one encoded path segment. Every function rejects with an ApiError carrying the
 * worker's error code (e.g. `snapshot_replaced`) when the answer is not 2xx.
 */
import type { ApiErrorBody, FilterResponse, GraphResponse, LogicResponse, NodeResponse, OverviewResponse, SearchResponse, SourceResponse, StatusResponse } from './types.js';

/** A failed API call: HTTP status plus the worker's structured error code and message. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

/** The three bounded graph views the worker serves for one focus node. */
export type GraphKind = 'neighborhood' | 'flow' | 'web';

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const err = (body ?? {}) as ApiErrorBody;
    const code = err.error?.code ?? `http_${response.status}`;
    const message = err.error?.message ?? (text.slice(0, 200) || response.statusText);
    throw new ApiError(response.status, code, message);
  }
  return body as T;
}

function nodePath(id: string, suffix: string): string {
  return `/api/nodes/${encodeURIComponent(id)}${suffix}`;
}

/** GET /api/nodes/{id}/{neighborhood|flow|web}: a bounded graph around `id`. */
export function fetchGraph(kind: GraphKind, id: string): Promise<GraphResponse> {
  return getJson<GraphResponse>(nodePath(id, `/${kind}`));
}

/** GET /api/nodes/{id}: the full node with its relations both ways. */
export function fetchNode(id: string): Promise<NodeResponse> {
  return getJson<NodeResponse>(nodePath(id, ''));
}

/** GET /api/nodes/{id}/logic: the lazy, bounded Logic projection of one function or method. */
export function fetchLogic(id: string): Promise<LogicResponse> {
  return getJson<LogicResponse>(nodePath(id, '/logic'));
}

/** GET /api/nodes/{id}/source: the bounded, project-confined source read of one node. */
export function fetchSource(id: string): Promise<SourceResponse> {
  return getJson<SourceResponse>(nodePath(id, '/source'));
}

/** GET /api/search?q=&limit=: one bounded lexical query (`limit` at most 200, the worker's bound). */
export function fetchSearch(query: string, limit = 50): Promise<SearchResponse> {
  return getJson<SearchResponse>(`/api/search?${new URLSearchParams({ q: query, limit: String(limit) }).toString()}`);
}

/** GET /api/filter with exact or composable criteria (family, authority, status, tag, kind, language, capability). */
export function fetchFilter(criteria: Record<string, string>, after: string | null = null): Promise<FilterResponse> {
  const params = new URLSearchParams(criteria);
  if (after !== null) params.set('after', after);
  return getJson<FilterResponse>(`/api/filter?${params.toString()}`);
}

/** GET /api/status: the served generation and the one the project publishes now. */
export function fetchStatus(): Promise<StatusResponse> {
  return getJson<StatusResponse>('/api/status');
}

/**
 * GET /api/overview[?expand=…]: the project overview with its architecture map; `expand` lists
 * group ids an earlier answer minted (the map's expanded state; empty: the automatic first screen).
 */
export function fetchOverview(expand: readonly string[] = []): Promise<OverviewResponse> {
  const params = new URLSearchParams();
  for (const id of expand) params.append('expand', id);
  const query = params.toString();
  return getJson<OverviewResponse>(`/api/overview${query ? `?${query}` : ''}`);
}
