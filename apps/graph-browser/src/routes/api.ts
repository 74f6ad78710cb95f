/**
 * The worker's JSON endpoints as fastify plugins (contract: Visualization boundary; answers in
 * protocol/schemas/viewer/v2/api/). Each route declares its query string, node id and answer
 * schema ({@link requestValidation}, {@link answerSchema}); node ids travel as ONE path segment
 * (`encodeURIComponent`). Every route but /api/status is snapshot-bound: a `preHandler` hook proves
 * the snapshot unchanged ({@link Snapshot.reader}) and hands its reader to the handler, so once the
 * index file is replaced or altered each answers 409 `snapshot_replaced`.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { errors } from '@docforge/core';
import type { IndexReader, NodeFilters } from '@docforge/store';
import type { GraphBrowserOverview } from '@docforge/protocol';
import { flow, neighborhood, web } from '../graph.js';
import { filter, logic, nodeDetail, overview, search } from '../inspect.js';
import { MapSource, validateExpansions, MAP_BOUNDS } from '../map.js';
import { buildMap } from '../map-layout.js';
import { MAX_GROUP_ID_CHARS } from '../map-ids.js';
import { sourceWindow, SOURCE_MAX_LINES, type SourceScope } from '../source.js';
import type { GraphBrowserWorkerConfig } from '../config.js';
import type { Snapshot } from '../snapshot.js';
import { PublicationWatch } from '../status.js';
import { answerSchema, answerSerializer, type AnswerTitle } from './answers.js';
import { integerParameter, requestValidation, stringParameter, textParameter, valuesParameter, type QueryParameter, type RequestShape } from './request.js';

/** Most characters of a search query. */
export const MAX_QUERY_CHARS = 500;
/** Most values per filter field. */
export const MAX_FILTER_VALUES = 20;
/** Most characters of one filter value. */
const MAX_FILTER_VALUE_CHARS = 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The snapshot's reader, set by the snapshot hook once the file is proven unchanged (snapshot-bound routes only; null elsewhere). */
    snapshotReader: IndexReader | null;
  }
}

/** Filter query parameters and the {@link NodeFilters} field each fills, in the order they are checked. */
const FILTER_FIELDS: readonly [string, keyof NodeFilters][] = [
  ['family', 'families'], ['authority', 'authorities'], ['status', 'statuses'], ['tag', 'tags'],
  ['kind', 'kinds'], ['language', 'languages'], ['capability', 'capabilities'],
];

/** Graph size of a request: `limit` nodes (default 150, at most 500). */
const graphLimit = integerParameter('limit', 1, 500, 150);
/** Graph depth of a request (Flow: default 8, Web: default 3). */
const graphDepth = (fallback: number): QueryParameter => integerParameter('depth', 1, 16, fallback);

/** Every route's request shape. */
const SHAPES = {
  none: { parameters: [] },
  overview: { parameters: [valuesParameter('expand', MAP_BOUNDS.expand, MAX_GROUP_ID_CHARS)] },
  search: { parameters: [textParameter('q', MAX_QUERY_CHARS), integerParameter('limit', 1, 200, 50)], required: ['q'] },
  filter: { parameters: [...FILTER_FIELDS.map(([name]) => valuesParameter(name, MAX_FILTER_VALUES, MAX_FILTER_VALUE_CHARS)), integerParameter('limit', 1, 500, 100), stringParameter('after')] },
  node: { parameters: [], nodeId: true },
  neighborhood: { parameters: [graphLimit], nodeId: true },
  flow: { parameters: [graphLimit, graphDepth(8)], nodeId: true },
  web: { parameters: [graphLimit, graphDepth(3)], nodeId: true },
  logic: { parameters: [integerParameter('limit', 1, 2000, 200)], nodeId: true },
  source: { parameters: [integerParameter('from', 1, 100_000_000), integerParameter('count', 1, SOURCE_MAX_LINES)], nodeId: true },
} as const satisfies Record<string, RequestShape>;

/** Route options of a route: its request validation and its protocol answer. */
function route(shape: RequestShape, answer: AnswerTitle): ReturnType<typeof requestValidation> & { schema: { response: ReturnType<typeof answerSchema> } } {
  const validation = requestValidation(shape);
  return { ...validation, schema: { ...validation.schema, response: answerSchema(answer) } };
}

/** Query strings after validation (defaults applied). */
interface Limit { limit: number }
interface OverviewQuery { expand?: string[] }
interface GraphQuery { limit: number; depth: number }
interface SearchQuery { q: string; limit: number }
type FilterQuery = Partial<Record<string, string[]>> & { limit: number; after?: string };
interface SourceQuery { from?: number; count?: number }
interface NodeParams { id: string }

/** Options of {@link apiRoutes}. */
export interface ApiOptions {
  snapshot: Snapshot;
  scope: SourceScope;
}

/** The API: /api/status, then the snapshot-bound routes in their own encapsulated plugin. */
export const apiRoutes: FastifyPluginAsync<ApiOptions> = async (api, options) => {
  api.setSerializerCompiler(answerSerializer);
  // Deliberately not snapshot-bound: the status still answers once the snapshot is replaced.
  const watch = new PublicationWatch(options.snapshot.config);
  api.get('/api/status', route(SHAPES.none, 'GraphBrowserStatus'), async () => watch.status());
  await api.register(snapshotRoutes, options);
};

/** The reader the snapshot hook set. @throws DocforgeError `internal_error` on a route outside the snapshot-bound plugin */
function readerOf(request: FastifyRequest): IndexReader {
  if (request.snapshotReader === null) throw errors.internalError('a snapshot-bound handler ran without the snapshot hook');
  return request.snapshotReader;
}

/** Overview, search, filter and the node routes, each behind the snapshot check. */
const snapshotRoutes: FastifyPluginAsync<ApiOptions> = async (bound, { snapshot, scope }) => {
  bound.decorateRequest('snapshotReader', null);
  bound.addHook('preHandler', async (request) => {
    request.snapshotReader = snapshot.reader();
  });
  const config = snapshot.config;
  let cachedOverview: GraphBrowserOverview | null = null;
  // The map's ids are bound to this snapshot; the folder tree and folder-pair edges are computed once.
  const maps = new MapSource(JSON.stringify(config.signature));
  bound.get<{ Querystring: OverviewQuery }>('/api/overview', route(SHAPES.overview, 'GraphBrowserOverview'), async (request) => {
    const reader = readerOf(request);
    cachedOverview ??= overview(reader, config, buildMap(maps, reader, null));
    const expand = request.query.expand;
    if (expand === undefined || expand.length === 0) return cachedOverview;
    return { ...cachedOverview, map: buildMap(maps, reader, validateExpansions(maps, reader, expand)) };
  });
  // Warm the map once the worker listens (the first screen then reads a cached answer); the timer
  // lets the worker report `ready` first. unref: it never keeps a stopping worker alive.
  bound.addHook('onListen', async () => {
    setTimeout(() => {
      try {
        cachedOverview ??= overview(snapshot.reader(), config, buildMap(maps, snapshot.reader(), null));
      } catch (error) {
        // A replaced snapshot answers its own error on the first request; only the warm-up is lost.
        bound.log.warn({ err: error }, 'the architecture map was not computed ahead of the first request');
      }
    }, 20).unref();
  });
  bound.get<{ Querystring: SearchQuery }>('/api/search', route(SHAPES.search, 'GraphBrowserSearch'), async (request) => search(readerOf(request), request.query.q.trim(), request.query.limit));
  bound.get<{ Querystring: FilterQuery }>('/api/filter', route(SHAPES.filter, 'GraphBrowserFilter'), async (request) => {
    const filters: Record<string, string[]> = {};
    for (const [name, field] of FILTER_FIELDS) {
      const values = request.query[name];
      if (values !== undefined) filters[field] = values;
    }
    return filter(readerOf(request), filters as NodeFilters, request.query.limit, request.query.after ?? null);
  });
  registerNodeRoutes(bound, config, scope);
};

/** The routes under /api/nodes/:id (one encoded node id). */
function registerNodeRoutes(bound: FastifyInstance, config: GraphBrowserWorkerConfig, scope: SourceScope): void {
  bound.get<{ Params: NodeParams }>('/api/nodes/:id', route(SHAPES.node, 'GraphBrowserNode'), async (request) => nodeDetail(readerOf(request), request.params.id));
  bound.get<{ Params: NodeParams; Querystring: Limit }>('/api/nodes/:id/neighborhood', route(SHAPES.neighborhood, 'GraphBrowserGraph'), async (request) => {
    const { limit } = request.query;
    return neighborhood(readerOf(request), request.params.id, { maxNodes: limit, maxDepth: 1, fanout: Math.min(250, limit) });
  });
  bound.get<{ Params: NodeParams; Querystring: GraphQuery }>('/api/nodes/:id/flow', route(SHAPES.flow, 'GraphBrowserGraph'), async (request) => (
    flow(readerOf(request), request.params.id, { maxNodes: request.query.limit, maxDepth: request.query.depth, fanout: 50 })
  ));
  bound.get<{ Params: NodeParams; Querystring: GraphQuery }>('/api/nodes/:id/web', route(SHAPES.web, 'GraphBrowserGraph'), async (request) => (
    web(readerOf(request), request.params.id, { maxNodes: request.query.limit, maxDepth: request.query.depth, fanout: 50 })
  ));
  bound.get<{ Params: NodeParams; Querystring: Limit }>('/api/nodes/:id/logic', route(SHAPES.logic, 'GraphBrowserLogic'), async (request) => (
    logic(readerOf(request), config, request.params.id, request.query.limit)
  ));
  bound.get<{ Params: NodeParams; Querystring: SourceQuery }>('/api/nodes/:id/source', route(SHAPES.source, 'GraphBrowserSource'), async (request) => (
    sourceWindow(readerOf(request), scope, request.params.id, request.query.from ?? null, request.query.count ?? null)
  ));
}
