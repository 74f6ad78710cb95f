import path from 'node:path';
import type Database from 'better-sqlite3';
import { sqliteDatabase } from '@docforge/store';
import { edgeIdentityKey, type GraphNode, type SourceIssue } from '@docforge/core';
import type { StateLayout } from '@docforge/fs-safe';
import type { SourceEntry } from '@docforge/project';
import type { CachedSource, PersistedParse, WrittenState } from './build-types.js';
import { unresolvedCallsHash } from './index-writer.js';
import { issuesHash } from './project-adapter.js';
import type { Publication } from '@docforge/store';
import { publicationFileIntact } from '@docforge/store';
import { readParseCache } from '@docforge/store';
import { withLazyLinkData, type LinkDataCounters } from './lazy-link-data.js';
import { rowToNode, type NodeRow } from '@docforge/store';
import { INDEX_SCHEMA_VERSION } from '@docforge/store';

/** What a previous publication must match to be reused as the starting point of a build. */
export interface WarmExpectation {
  root: string;
  logicAllowed: boolean;
  /** SHA-256 of the descriptor file the build loaded. */
  descriptorHash: string;
  /** The build's adapter version (a cached parse of another adapter version is not used). */
  adapterVersion: string;
}

/**
 * Rebuilds a build worker's incremental state (per-source parses, stripped of bodies, with link
 * data parsed on first read, and the written graph) from the index file of `publication` (the
 * build's one read of current.json), read-only, and the parse cache (parse-cache.ts). Returns null when that file is not intact, or
 * was built for another root, descriptor, schema or Logic policy; the caller then parses
 * everything. A source without a matching cached parse is left out of `sources` (parsed again);
 * `written` still describes the whole published file. Reads of the link data are counted in
 * `counters` (the caches that will hold the sources). Never throws.
 */
export function warmFromPublication(
  layout: StateLayout, publication: Publication, expected: WarmExpectation, counters: LinkDataCounters,
): { sources: Map<string, CachedSource>; written: WrittenState } | null {
  if (!publicationFileIntact(layout, publication)) return null;
  let db: InstanceType<typeof Database> | null = null;
  try {
    db = new (sqliteDatabase())(path.join(layout.indexDir, publication.index_file), { readonly: true, fileMustExist: true });
    const meta = Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    if (meta.schema_version !== String(INDEX_SCHEMA_VERSION) || meta.root !== expected.root || meta.descriptor_hash !== expected.descriptorHash
      || meta.logic_allowed !== (expected.logicAllowed ? '1' : '0')) return null;
    const nodes = new Map<string, GraphNode>();
    const nodeHashes = new Map<string, string>();
    for (const row of db.prepare(`SELECT id, kind, title, family, authority, status, tags, summary, '' AS body, source_path, start_line, end_line, anchors, language, capabilities, origin, content_hash FROM nodes`).iterate() as IterableIterator<NodeRow>) {
      nodes.set(row.id, rowToNode(row));
      nodeHashes.set(row.id, row.content_hash);
    }
    const sources = new Map<string, CachedSource>();
    const sourceKeys = new Map<string, string>();
    const rows = db.prepare('SELECT path, role, size, mtime_ns, ino, content_hash FROM sources').all() as { path: string; role: SourceEntry['role']; size: number; mtime_ns: string; ino: string; content_hash: string }[];
    for (const row of rows) sourceKeys.set(row.path, `${row.size}:${row.mtime_ns}:${row.ino}:${row.content_hash}`);
    const cached = readParseCache(layout, { root: expected.root, descriptorHash: expected.descriptorHash, logicAllowed: expected.logicAllowed, adapterVersion: expected.adapterVersion }, sourceKeys);
    for (const row of rows) {
      const text = cached.get(row.path);
      if (text === undefined) continue;
      const parse = JSON.parse(text.parse) as PersistedParse;
      if (parse.v !== 3) continue;
      const lost = new Map(parse.lost_nodes.map((n) => [n.id, n]));
      const sourceNodes: GraphNode[] = [];
      let complete = true;
      for (const id of parse.node_ids) {
        const node = lost.get(id) ?? nodes.get(id);
        if (!node) complete = false;
        else sourceNodes.push(node);
      }
      if (!complete) continue;
      const entry: SourceEntry = { path: row.path, role: row.role, size: row.size, mtime_ns: row.mtime_ns, ino: row.ino };
      // The link data is parsed when first read (lazy-link-data.ts): an edit links only what it can affect.
      sources.set(row.path, withLazyLinkData({
        entry, content_hash: row.content_hash, nodes: sourceNodes, edges: parse.edges, links: parse.links, issues: parse.issues,
        logic_steps: [], logic_flows: [], adapter: parse.adapter, stripped: true, logic_count: parse.logic_steps,
      }, text.linkData, counters));
    }
    const edges = new Map<string, string>();
    for (const e of db.prepare('SELECT source_id, relation, target_id, source_path, line FROM edges').iterate() as IterableIterator<{ source_id: string; relation: string; target_id: string; source_path: string; line: number }>) {
      edges.set(edgeIdentityKey(e), `${e.source_path}\u0000${e.line}`);
    }
    const issues = db.prepare('SELECT severity, code, message, path, line, node_id FROM issues ORDER BY seq').all() as SourceIssue[];
    const unresolved = db.prepare('SELECT node_id, count FROM unresolved_calls').raw().all() as [string, number][];
    const written: WrittenState = {
      root: expected.root,
      indexFile: publication.index_file,
      indexIno: publication.index_ino,
      indexSize: publication.index_size,
      logicAllowed: expected.logicAllowed,
      descriptorHash: expected.descriptorHash,
      adapterVersion: expected.adapterVersion,
      nodes: nodeHashes,
      edges,
      sources: sourceKeys,
      issuesHash: issuesHash(issues),
      unresolvedHash: unresolvedCallsHash(unresolved),
    };
    return { sources, written };
  } catch {
    return null;
  } finally {
    db?.close();
  }
}
