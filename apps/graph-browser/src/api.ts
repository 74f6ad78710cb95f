/**
 * The worker's JSON endpoints (contract: Visualization boundary; schemas in
 * protocol/schemas/viewer/v2/api/). Node ids travel as ONE path segment (`encodeURIComponent`).
 * Every endpoint first proves the snapshot is unchanged ({@link Snapshot.reader}), so once the
 * index file is replaced or altered each answers 409 `snapshot_replaced`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '@docforge/core';
import type { NodeFilters } from '@docforge/store';
import type { GraphBrowserOverview } from '@docforge/protocol';
import { flow, neighborhood, web, type GraphBounds } from './graph.js';
import { filter, logic, nodeDetail, overview, search } from './inspect.js';
import { sourceWindow, SOURCE_MAX_LINES, type SourceScope } from './source.js';
import type { Snapshot } from './snapshot.js';
import { PublicationWatch } from './status.js';

/** Most characters of a search query. */
export const MAX_QUERY_CHARS = 500;
/** Most values per filter field. */
export const MAX_FILTER_VALUES = 20;

type Query = Record<string, string | string[] | undefined>;

/**
 * The single value of a query parameter, or null when absent.
 * @throws DocforgeError `invalid_arguments` when it is given more than once (never "the first one wins")
 */
function one(query: Query, name: string): string | null {
  const value = query[name];
  if (value === undefined) return null;
  if (Array.isArray(value)) {
    if (value.length > 1) throw errors.invalidArguments(`Query parameter ${JSON.stringify(name)} is given more than once; give it once.`, { parameter: name });
    return value[0] ?? null;
  }
  return value;
}

/** Every value of a repeatable query parameter. */
function many(query: Query, name: string): string[] {
  const value = query[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * An integer query parameter in [min, max], or `fallback` when absent.
 * @throws DocforgeError `invalid_arguments`
 */
function integer(query: Query, name: string, fallback: number, min: number, max: number): number {
  const raw = one(query, name);
  if (raw === null) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) throw errors.invalidArguments(`${name} must be an integer from ${min} to ${max}.`, { parameter: name });
  return Number(raw);
}

/** @throws DocforgeError `invalid_arguments` when the query names a parameter outside `allowed`. */
function onlyParams(query: Query, allowed: readonly string[]): void {
  for (const name of Object.keys(query)) {
    if (!allowed.includes(name)) throw errors.invalidArguments(`Unknown query parameter ${JSON.stringify(name)}; allowed: ${allowed.join(', ')}.`, { parameter: name });
  }
}

const FILTER_FIELDS: readonly [string, keyof NodeFilters][] = [
  ['family', 'families'], ['authority', 'authorities'], ['status', 'statuses'], ['tag', 'tags'],
  ['kind', 'kinds'], ['language', 'languages'], ['capability', 'capabilities'],
];

/** Graph bounds of a request: `limit` nodes (default 150, at most 500), `depth`, fan-out 50 per node and direction. */
function bounds(query: Query, defaultDepth: number): GraphBounds {
  return { maxNodes: integer(query, 'limit', 150, 1, 500), maxDepth: integer(query, 'depth', defaultDepth, 1, 16), fanout: 50 };
}

/** Registers the API routes. */
export function registerApi(app: FastifyInstance, snapshot: Snapshot, scope: SourceScope): void {
  const config = snapshot.config;
  let cachedOverview: GraphBrowserOverview | null = null;
  const nodeId = (request: FastifyRequest): string => {
    const id = (request.params as { id?: string }).id ?? '';
    if (id === '' || id.length > 4096) throw errors.invalidArguments('The node id must be one non-empty path segment (encodeURIComponent).');
    return id;
  };
  const query = (request: FastifyRequest): Query => request.query as Query;

  app.get('/api/overview', async (request) => {
    onlyParams(query(request), []);
    const reader = snapshot.reader();
    cachedOverview ??= overview(reader, config);
    return cachedOverview;
  });
  // Deliberately not through snapshot.reader(): the status still answers once the snapshot is replaced.
  const watch = new PublicationWatch(config);
  app.get('/api/status', async (request) => {
    onlyParams(query(request), []);
    return watch.status();
  });
  app.get('/api/search', async (request) => {
    const q = query(request);
    onlyParams(q, ['q', 'limit']);
    const text = one(q, 'q')?.trim() ?? '';
    if (text === '' || text.length > MAX_QUERY_CHARS) throw errors.invalidArguments(`q must hold 1 to ${MAX_QUERY_CHARS} characters.`, { parameter: 'q' });
    return search(snapshot.reader(), text, integer(q, 'limit', 50, 1, 200));
  });
  app.get('/api/filter', async (request) => {
    const q = query(request);
    onlyParams(q, [...FILTER_FIELDS.map(([name]) => name), 'limit', 'after']);
    const filters: NodeFilters = {};
    for (const [name, field] of FILTER_FIELDS) {
      const values = many(q, name);
      if (values.length > MAX_FILTER_VALUES || values.some((v) => v === '' || v.length > 1024)) {
        throw errors.invalidArguments(`${name} takes 1 to ${MAX_FILTER_VALUES} non-empty values.`, { parameter: name });
      }
      if (values.length > 0) (filters as Record<string, string[]>)[field] = values;
    }
    return filter(snapshot.reader(), filters, integer(q, 'limit', 100, 1, 500), one(q, 'after'));
  });
  app.get('/api/nodes/:id', async (request) => {
    onlyParams(query(request), []);
    return nodeDetail(snapshot.reader(), nodeId(request));
  });
  app.get('/api/nodes/:id/neighborhood', async (request) => {
    const q = query(request);
    onlyParams(q, ['limit']);
    return neighborhood(snapshot.reader(), nodeId(request), { ...bounds(q, 1), fanout: Math.min(250, integer(q, 'limit', 150, 1, 500)) });
  });
  app.get('/api/nodes/:id/flow', async (request) => {
    const q = query(request);
    onlyParams(q, ['limit', 'depth']);
    return flow(snapshot.reader(), nodeId(request), bounds(q, 8));
  });
  app.get('/api/nodes/:id/web', async (request) => {
    const q = query(request);
    onlyParams(q, ['limit', 'depth']);
    return web(snapshot.reader(), nodeId(request), bounds(q, 3));
  });
  app.get('/api/nodes/:id/logic', async (request) => {
    const q = query(request);
    onlyParams(q, ['limit']);
    return logic(snapshot.reader(), config, nodeId(request), integer(q, 'limit', 200, 1, 2000));
  });
  app.get('/api/nodes/:id/source', async (request) => {
    const q = query(request);
    onlyParams(q, ['from', 'count']);
    const from = one(q, 'from') === null ? null : integer(q, 'from', 1, 1, 100_000_000);
    const count = one(q, 'count') === null ? null : integer(q, 'count', 1, 1, SOURCE_MAX_LINES);
    return sourceWindow(snapshot.reader(), scope, nodeId(request), from, count);
  });
}
