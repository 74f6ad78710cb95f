/**
 * Node queries of the index reader: filters, keyset pages, slim metadata rows, counts.
 * All SQL here runs on the reader's private connection through its statement cache.
 */
import type { AuthoredNodeField, GraphNode } from '@docforge/core';
import type { StatementCache } from './reader-statements.js';
import { placeholders } from './reader-statements.js';

/** Filters that narrow a search or a node filter; within a field any value matches, across fields all must. */
export interface NodeFilters {
  kinds?: readonly string[];
  families?: readonly string[];
  authorities?: readonly string[];
  statuses?: readonly string[];
  tags?: readonly string[];
  languages?: readonly string[];
  /** Capabilities compose: a node must have every requested capability. */
  capabilities?: readonly string[];
}

/** One node of a filter result (no body): the authored fields plus language, capabilities and location, typed as core's {@link GraphNode}. */
export type NodeSummary = Pick<GraphNode, AuthoredNodeField | 'language' | 'capabilities' | 'source_path' | 'start_line'>;

/** The three fields a traversal item shows of the node it reached. */
export interface NodeBrief {
  kind: string;
  title: string;
  source_path: string;
}

/** Metadata of a node for provenance checks (no body): `anchor_count` is the number of recognized anchors. */
export interface NodeProvenance {
  id: string;
  kind: string;
  title: string;
  source_path: string;
  start_line: number;
  content_hash: string;
  origin: string;
  anchor_count: number;
}

/** Appends SQL conditions and parameters for node filters on an alias of the nodes table. */
export function filterSql(alias: string, filters: NodeFilters, params: unknown[]): string {
  const parts: string[] = [];
  const inList = (column: string, values: readonly string[] | undefined): void => {
    if (!values || values.length === 0) return;
    parts.push(`${alias}.${column} IN (${placeholders(values.length)})`);
    params.push(...values);
  };
  inList('kind', filters.kinds);
  inList('family', filters.families);
  inList('authority', filters.authorities);
  inList('status', filters.statuses);
  inList('language', filters.languages);
  if (filters.tags && filters.tags.length > 0) {
    parts.push(`EXISTS (SELECT 1 FROM node_tags t WHERE t.node_id = ${alias}.id AND t.tag IN (${placeholders(filters.tags.length)}))`);
    params.push(...filters.tags);
  }
  if (filters.capabilities && filters.capabilities.length > 0) {
    for (const capability of filters.capabilities) {
      parts.push(`EXISTS (SELECT 1 FROM node_capabilities c WHERE c.node_id = ${alias}.id AND c.capability = ?)`);
      params.push(capability);
    }
  }
  return parts.length === 0 ? '' : ` AND ${parts.join(' AND ')}`;
}

/** Whether the node `id` exists and passes `filters`. */
export function nodeMatches(sql: StatementCache, id: string, filters: NodeFilters): boolean {
  const params: unknown[] = [id];
  const where = filterSql('n', filters, params);
  return sql.rows(`SELECT 1 FROM nodes n WHERE n.id = ?${where}`).get(...params) !== undefined;
}

/** Nodes passing `filters`, by id, after `afterId`; reads at most `limit + 1` rows. */
export function nodesByFilter(sql: StatementCache, filters: NodeFilters, limit: number, afterId: string | null): { items: NodeSummary[]; truncated: boolean } {
  const params: unknown[] = [];
  let where = filterSql('n', filters, params);
  if (afterId !== null) {
    where += ' AND n.id > ?';
    params.push(afterId);
  }
  params.push(limit + 1);
  const rows = sql.rows(`
    SELECT n.id, n.kind, n.title, n.family, n.authority, n.status, n.tags, n.language, n.capabilities, n.source_path, n.start_line
    FROM nodes n WHERE 1 = 1${where} ORDER BY n.id LIMIT ?`).all(...params) as (Omit<NodeSummary, 'tags' | 'capabilities'> & { tags: string; capabilities: string })[];
  const items = rows.slice(0, limit).map((r) => ({ ...r, tags: JSON.parse(r.tags) as string[], capabilities: JSON.parse(r.capabilities) as string[] }));
  return { items, truncated: rows.length > limit };
}

/** The node filter lists, each with the SQL that finds one node holding a value (`?`). */
const FILTER_VALUE_SQL: Readonly<Record<keyof NodeFilters, string>> = {
  kinds: 'SELECT 1 FROM nodes WHERE kind = ? LIMIT 1',
  languages: 'SELECT 1 FROM nodes WHERE language = ? LIMIT 1',
  tags: 'SELECT 1 FROM node_tags WHERE tag = ? LIMIT 1',
  capabilities: 'SELECT 1 FROM node_capabilities WHERE capability = ? LIMIT 1',
  families: 'SELECT 1 FROM nodes WHERE family = ? LIMIT 1',
  authorities: 'SELECT 1 FROM nodes WHERE authority = ? LIMIT 1',
  statuses: 'SELECT 1 FROM nodes WHERE status = ? LIMIT 1',
};

/**
 * Whether any node holds `value` in the field of filter list `filter`. Kinds, languages, tags and
 * capabilities are answered through an index; families, authorities and statuses have none, so a
 * value no node holds costs one scan of the nodes table (callers ask only for empty pages).
 */
export function filterValueExists(sql: StatementCache, filter: keyof NodeFilters, value: string): boolean {
  return sql.rows(FILTER_VALUE_SQL[filter]).get(value) !== undefined;
}

/** Characters of an id that are LIKE wildcards or the escape character, escaped for `ESCAPE '\\'`. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Ids that `id` probably meant, at most `limit` in id order (for the `node_not_found` hint; one scan
 * of the id index at most, on the error path only): the ids equal to it ignoring ASCII case, else,
 * for a bare name (no `:` and no `#`), the code ids whose declaration is that name or ends in
 * `.name` (`transport` -> `code:lib/transport.js#transport`).
 */
export function nodeIdsNear(sql: StatementCache, id: string, limit: number): string[] {
  const folded = sql.pluck('SELECT id FROM nodes WHERE id = ? COLLATE NOCASE ORDER BY id LIMIT ?').all(id, limit) as string[];
  if (folded.length > 0 || id.includes(':') || id.includes('#') || id.trim() === '') return folded;
  const name = likeLiteral(id);
  return sql.pluck("SELECT id FROM nodes WHERE id LIKE 'code:%' AND (id LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\') ORDER BY id LIMIT ?").all(`%#${name}`, `%#%.${name}`, limit) as string[];
}

/**
 * Up to `limit` node ids that start with `prefix`, in id order (a range read of the primary key):
 * the siblings of a mistyped id (`code:lib/route.js#buildRouting.` for `…#buildRouting.rout`).
 */
export function nodeIdsWithPrefix(sql: StatementCache, prefix: string, limit: number): string[] {
  if (prefix === '') return [];
  // The first string greater than every id with the prefix: its last UTF-16 unit raised by one.
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return sql.pluck('SELECT id FROM nodes WHERE id >= ? AND id < ? ORDER BY id LIMIT ?').all(prefix, end, limit) as string[];
}

/**
 * Up to `limit` ids of the nodes defined in the source file `path` (`docs/clients.md` ->
 * `clients`), by first line then id; for a path whose last segment has no extension, those of
 * the files `path.<ext>` (`docs/clients`). Reads the `nodes_source` index (the error path only).
 */
export function nodeIdsAtPath(sql: StatementCache, path: string, limit: number): string[] {
  if (path.trim() === '') return [];
  const exact = sql.pluck('SELECT id FROM nodes WHERE source_path = ? ORDER BY start_line, id LIMIT ?').all(path, limit) as string[];
  if (exact.length > 0 || /\.[^./]+$/.test(path)) return exact;
  return sql.pluck("SELECT id FROM nodes WHERE source_path LIKE ? ESCAPE '\\' ORDER BY source_path, start_line, id LIMIT ?").all(`${likeLiteral(path)}.%`, limit) as string[];
}

/** Kind, title and source path of a node, or null. */
export function nodeBrief(sql: StatementCache, id: string): NodeBrief | null {
  return (sql.rows('SELECT kind, title, source_path FROM nodes WHERE id = ?').get(id) as NodeBrief | undefined) ?? null;
}

/** Provenance metadata of a node, or null. */
export function nodeProvenance(sql: StatementCache, id: string): NodeProvenance | null {
  const row = sql.rows('SELECT id, kind, title, source_path, start_line, content_hash, origin, json_array_length(anchors) AS anchor_count FROM nodes WHERE id = ?').get(id);
  return (row as NodeProvenance | undefined) ?? null;
}

/** The content hash of an indexed source file, or null when the file has no `sources` row. */
export function sourceHash(sql: StatementCache, sourcePath: string): string | null {
  return (sql.pluck('SELECT content_hash FROM sources WHERE path = ?').get(sourcePath) as string | undefined) ?? null;
}

/**
 * Code source files with the content of one of `paths` (the same non-empty content hash), each
 * with its hash, the given code paths included: `[path, content_hash]` rows in path order (issue 30, new-user trial on lru-cache). Index lookups by hash (`sources_content`).
 */
export function codeSourceCopies(sql: StatementCache, paths: readonly string[]): [string, string][] {
  if (paths.length === 0) return [];
  return sql.rows(`SELECT path, content_hash FROM sources WHERE role = 'code' AND content_hash <> '' AND content_hash IN (
      SELECT content_hash FROM sources WHERE path IN (SELECT value FROM json_each(?)) GROUP BY content_hash
    ) ORDER BY path`).raw().all(JSON.stringify(paths)) as [string, string][];
}

/** The stat identity (`size:mtime_ns:ctime_ns:ino`) of every indexed source file, by path. */
export function sourceStats(sql: StatementCache): Map<string, string> {
  const rows = sql.rows('SELECT path, size, mtime_ns, ctime_ns, ino FROM sources').raw().all() as [string, number, string, string, string][];
  return new Map(rows.map(([path, size, mtime, ctime, ino]) => [path, `${size}:${mtime}:${ctime}:${ino}`]));
}

/** Node counts per kind, by kind, for at most `limit` kinds. */
export function countsByKind(sql: StatementCache, limit: number): Record<string, number> {
  const rows = sql.rows('SELECT kind, count(*) AS n FROM nodes GROUP BY kind ORDER BY kind LIMIT ?').all(limit) as { kind: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.kind, r.n]));
}

/** Most ids one {@link nodeSummaries} statement binds (SQLite's default variable limit is far above). */
export const SUMMARY_BATCH = 500;

/** Summaries (no body) of the nodes with these ids, in the order of `ids`; unknown ids are left out. Runs one statement per {@link SUMMARY_BATCH} ids. */
export function nodeSummaries(sql: StatementCache, ids: readonly string[]): NodeSummary[] {
  const byId = new Map<string, NodeSummary>();
  for (let at = 0; at < ids.length; at += SUMMARY_BATCH) {
    const batch = ids.slice(at, at + SUMMARY_BATCH);
    const rows = sql.rows(`
      SELECT id, kind, title, family, authority, status, tags, language, capabilities, source_path, start_line
      FROM nodes WHERE id IN (${placeholders(batch.length)})`).all(...batch) as (Omit<NodeSummary, 'tags' | 'capabilities'> & { tags: string; capabilities: string })[];
    for (const r of rows) byId.set(r.id, { ...r, tags: JSON.parse(r.tags) as string[], capabilities: JSON.parse(r.capabilities) as string[] });
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A node field whose distinct values {@link facetValues} counts. */
export type FacetField = 'kind' | 'family' | 'authority' | 'status' | 'language' | 'tag' | 'capability';

/** Distinct values of one facet with node counts, by value, and whether the list was cut. */
export interface FacetCounts {
  values: { value: string; count: number }[];
  truncated: boolean;
}

/** Facets read through an index (kind, language) or their own table (tag, capability). */
const INDEXED_FACET_SQL: Readonly<Record<'kind' | 'language' | 'tag' | 'capability', string>> = {
  kind: 'SELECT kind AS value, count(*) AS n FROM nodes GROUP BY kind ORDER BY kind LIMIT ?',
  language: 'SELECT language AS value, count(*) AS n FROM nodes WHERE language IS NOT NULL GROUP BY language ORDER BY language LIMIT ?',
  tag: 'SELECT tag AS value, count(*) AS n FROM node_tags GROUP BY tag ORDER BY tag LIMIT ?',
  capability: 'SELECT capability AS value, count(*) AS n FROM node_capabilities GROUP BY capability ORDER BY capability LIMIT ?',
};

/** Most (family, authority, status) combinations {@link facetValues} aggregates; beyond it every one of the three facets says truncated. */
export const FACET_COMBINATIONS_CAP = 10_000;

/**
 * Distinct values of every facet with node counts, by value, at most `limit` per facet. Kind and
 * language use their indexes, tags and capabilities their tables; family, authority and status
 * share ONE scan of the nodes table (they have no index), grouped by their combination (at most
 * {@link FACET_COMBINATIONS_CAP} combinations).
 */
export function facetValues(sql: StatementCache, limit: number): Record<FacetField, FacetCounts> {
  const out = {} as Record<FacetField, FacetCounts>;
  for (const field of ['kind', 'language', 'tag', 'capability'] as const) {
    const rows = sql.rows(INDEXED_FACET_SQL[field]).all(limit + 1) as { value: string; n: number }[];
    out[field] = { values: rows.slice(0, limit).map((r) => ({ value: r.value, count: r.n })), truncated: rows.length > limit };
  }
  const combos = sql.rows('SELECT family, authority, status, count(*) AS n FROM nodes GROUP BY family, authority, status LIMIT ?').all(FACET_COMBINATIONS_CAP + 1) as { family: string | null; authority: string | null; status: string | null; n: number }[];
  const cut = combos.length > FACET_COMBINATIONS_CAP;
  for (const field of ['family', 'authority', 'status'] as const) {
    const counts = new Map<string, number>();
    for (const combo of combos.slice(0, FACET_COMBINATIONS_CAP)) {
      const value = combo[field];
      if (value !== null) counts.set(value, (counts.get(value) ?? 0) + combo.n);
    }
    const sorted = [...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    out[field] = { values: sorted.slice(0, limit).map(([value, count]) => ({ value, count })), truncated: cut || sorted.length > limit };
  }
  return out;
}
