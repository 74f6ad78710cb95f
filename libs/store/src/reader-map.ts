/**
 * Architecture-map aggregates of the index reader (issue 34 item 1: the graph browser's first
 * screen). Everything is aggregated in SQL: per-folder file and node counts from the `sources`
 * table, and dependency edges counted per (source folder, target folder, relation) pair, so no
 * caller ever receives the edge table. Folders are written with a trailing `/` (`src/lib/`); the
 * project root is `''`. The folder of a path is `rtrim(path, replace(path, '/', ''))`: the path up
 * to and including its last `/`.
 */
import { placeholders, type StatementCache } from './reader-statements.js';

/** Files and nodes of one folder (its own files only, not its subfolders'), split by source role. */
export interface MapFolderCount {
  /** The folder with a trailing `/`, `''` for the project root. */
  folder: string;
  /** The source role of the files (`code`, `content`, ...). */
  role: string;
  /** Indexed files of that role directly in the folder. */
  files: number;
  /** Nodes those files declare. */
  nodes: number;
}

/** Edges of one relation between nodes of two folders (or two files, for {@link mapFileEdges}). */
export interface MapEdgeCount {
  /** The source end's folder (`src/a/`) or file (`src/a/x.ts`). */
  source: string;
  /** The target end's folder or file. */
  target: string;
  relation: string;
  /** Stored edges aggregated into this row. */
  count: number;
}

/** The folder expression of a path column (SQL). */
const folderOf = (column: string): string => `rtrim(${column}, replace(${column}, '/', ''))`;

/**
 * Files and nodes per folder and source role, from the `sources` table (one row per indexed
 * file), at most `limit` rows (by folder), and whether more exist.
 */
export function mapFolderCounts(sql: StatementCache, limit: number): { rows: MapFolderCount[]; truncated: boolean } {
  const rows = sql.rows(`SELECT ${folderOf('path')} AS folder, role, count(*) AS files, sum(node_count) AS nodes FROM sources GROUP BY folder, role ORDER BY folder, role LIMIT ?`).all(limit + 1) as MapFolderCount[];
  return { rows: rows.slice(0, limit), truncated: rows.length > limit };
}

/**
 * Edges between nodes of different folders, counted per (source folder, target folder, relation),
 * leaving out `excluded` relations (structure inside a file), the heaviest `limit` rows first.
 * One pass over the edge table joined to both ends' source paths; the answer is bounded by `limit`.
 */
export function mapFolderEdges(sql: StatementCache, excluded: readonly string[], limit: number): { rows: MapEdgeCount[]; truncated: boolean } {
  const rows = sql.rows(`SELECT source, target, relation, count FROM (
      SELECT ${folderOf('s.source_path')} AS source, ${folderOf('t.source_path')} AS target, e.relation AS relation, count(*) AS count
      FROM edges e JOIN nodes s ON s.id = e.source_id JOIN nodes t ON t.id = e.target_id
      WHERE e.relation NOT IN (${placeholders(excluded.length)})
      GROUP BY 1, 2, 3
    ) WHERE source <> target ORDER BY count DESC, source, target, relation LIMIT ?`).all(...excluded, limit + 1) as MapEdgeCount[];
  return { rows: rows.slice(0, limit), truncated: rows.length > limit };
}

/**
 * Edges with at least one end in a file directly inside `folder` (with its trailing `/`; `''` for
 * the root), counted per (source file, target file, relation), without `excluded` relations and
 * without edges inside one file, the heaviest `limit` rows first. Reads only that folder's nodes
 * (the `nodes_source` index) and their edges both ways.
 */
export function mapFileEdges(sql: StatementCache, folder: string, excluded: readonly string[], limit: number): { rows: MapEdgeCount[]; truncated: boolean } {
  // Paths directly in the folder: under the prefix, with no further '/'. '0' sorts right after '/'.
  const inFolder = folder === '' ? `instr(n.source_path, '/') = 0` : `n.source_path >= ? AND n.source_path < ? AND instr(substr(n.source_path, ?), '/') = 0`;
  const bounds = folder === '' ? [] : [folder, `${folder.slice(0, -1)}0`, folder.length + 1];
  const rows = sql.rows(`WITH here AS (SELECT n.id AS id, n.source_path AS path FROM nodes n WHERE ${inFolder}),
    pairs AS (
      SELECT h.path AS source, t.source_path AS target, e.relation AS relation FROM here h JOIN edges e ON e.source_id = h.id JOIN nodes t ON t.id = e.target_id
        WHERE e.relation NOT IN (${placeholders(excluded.length)})
      UNION ALL
      SELECT s.source_path AS source, h.path AS target, e.relation AS relation FROM here h JOIN edges e ON e.target_id = h.id JOIN nodes s ON s.id = e.source_id
        WHERE e.relation NOT IN (${placeholders(excluded.length)}) AND NOT (${folder === '' ? `instr(s.source_path, '/') = 0` : `s.source_path >= ? AND s.source_path < ? AND instr(substr(s.source_path, ?), '/') = 0`})
    )
    SELECT source, target, relation, count(*) AS count FROM pairs WHERE source <> target GROUP BY 1, 2, 3 ORDER BY count DESC, source, target, relation LIMIT ?`)
    .all(...bounds, ...excluded, ...excluded, ...bounds, limit + 1) as MapEdgeCount[];
  return { rows: rows.slice(0, limit), truncated: rows.length > limit };
}

/**
 * The files directly in `folder` (trailing `/`; `''` for the root) with their role and node count,
 * largest first (node count descending, then path), at most `limit` from position `offset`, and
 * whether more exist after them.
 */
export function mapFolderFiles(sql: StatementCache, folder: string, limit: number, offset = 0): { rows: { path: string; role: string; nodes: number }[]; truncated: boolean } {
  const where = folder === '' ? `instr(path, '/') = 0` : `path >= ? AND path < ? AND instr(substr(path, ?), '/') = 0`;
  const bounds = folder === '' ? [] : [folder, `${folder.slice(0, -1)}0`, folder.length + 1];
  // Largest files first (then by path): a bound leaves out the smallest files, never the ones holding most of the folder's nodes.
  const rows = sql.rows(`SELECT path, role, node_count AS nodes FROM sources WHERE ${where} ORDER BY node_count DESC, path LIMIT ? OFFSET ?`).all(...bounds, limit + 1, offset) as { path: string; role: string; nodes: number }[];
  return { rows: rows.slice(0, limit), truncated: rows.length > limit };
}

/** Up to `limit` node ids declared in the file `path`, module-like nodes (no `#` member part) first. */
export function nodesOfFile(sql: StatementCache, path: string, limit: number): string[] {
  return sql.pluck(`SELECT id FROM nodes WHERE source_path = ? ORDER BY instr(id, '#') > 0, start_line, id LIMIT ?`).all(path, limit) as string[];
}
