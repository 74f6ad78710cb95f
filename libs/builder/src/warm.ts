import path from 'node:path';
import { edgeIdentityKey, type GraphNode, type SourceIssue } from '@docforge/core';
import type { StateLayout } from '@docforge/fs-safe';
import type { CachedSource, PersistedParse, WrittenState } from './build-types.js';
import { unresolvedCallsHash } from './rows.js';
import { issuesHash } from './project-adapter.js';
import type { Publication } from '@docforge/store';
import { publicationFileIntact } from '@docforge/store';
import { readParseCache } from '@docforge/store';
import { withLazyLinkData, type LinkDataCounters } from './lazy-link-data.js';
import { edgeRowValue } from './written-compare.js';
import { readIndexRows, type SourceRowRead } from '@docforge/store';
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
  try {
    const nodes = new Map<string, GraphNode>();
    const nodeHashes = new Map<string, string>();
    const reviewHashes = new Map<string, string>();
    const sourceKeys = new Map<string, string>();
    let sources = new Map<string, CachedSource>();
    const edges = new Map<string, string>();
    let issues: SourceIssue[] = [];
    let unresolved: [string, number][] = [];
    const read = readIndexRows(path.join(layout.indexDir, publication.index_file), {
      meta: (meta) => meta.schema_version === String(INDEX_SCHEMA_VERSION) && meta.root === expected.root && meta.descriptor_hash === expected.descriptorHash
        && meta.logic_allowed === (expected.logicAllowed ? '1' : '0'),
      node: (node, row) => {
        nodes.set(node.id, node);
        nodeHashes.set(node.id, row.content_hash);
        if (row.review_hash !== null) reviewHashes.set(node.id, row.review_hash);
      },
      sources: (rows) => {
        for (const row of rows) sourceKeys.set(row.entry.path, `${row.entry.size}:${row.entry.mtime_ns}:${row.entry.ctime_ns}:${row.entry.ino}:${row.content_hash}`);
        sources = cachedSources(layout, expected, rows, sourceKeys, { nodes, reviewHashes }, counters);
      },
      edge: (e) => edges.set(edgeIdentityKey(e), edgeRowValue(e.source_path, e.line, e.mention, e.review)),
      issues: (rows) => (issues = rows),
      unresolved: (rows) => (unresolved = rows),
    });
    if (!read) return null;
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
  }
}

/**
 * The sources with a matching cached parse (parse-cache.ts), stripped of bodies, their link data
 * read and parsed on first read; a source whose parse is missing, of another version, or names a
 * node the file does not hold is left out (parsed again).
 */
function cachedSources(
  layout: StateLayout, expected: WarmExpectation, rows: readonly SourceRowRead[], sourceKeys: ReadonlyMap<string, string>,
  index: { nodes: ReadonlyMap<string, GraphNode>; reviewHashes: ReadonlyMap<string, string> }, counters: LinkDataCounters,
): Map<string, CachedSource> {
  const { nodes, reviewHashes } = index;
  const sources = new Map<string, CachedSource>();
  const cached = readParseCache(layout, { root: expected.root, descriptorHash: expected.descriptorHash, logicAllowed: expected.logicAllowed, adapterVersion: expected.adapterVersion }, sourceKeys);
  for (const row of rows) {
    const text = cached.get(row.entry.path);
    if (text === undefined) continue;
    const parse = JSON.parse(text.parse) as PersistedParse;
    if (parse.v !== 3) continue;
    const lost = new Map(parse.lost_nodes.map((n) => [n.id, n]));
    const sourceNodes: GraphNode[] = [];
    const review_hashes: { node_id: string; hash: string }[] = [];
    let complete = true;
    for (const id of parse.node_ids) {
      const node = lost.get(id) ?? nodes.get(id);
      // The stored review hash (of the row's node: for a duplicate id, the winner's, as its other fields).
      const hash = reviewHashes.get(id);
      if (!node || hash === undefined) complete = false;
      else {
        sourceNodes.push(node);
        review_hashes.push({ node_id: id, hash });
      }
    }
    if (!complete) continue;
    // The link data is parsed when first read (lazy-link-data.ts): an edit links only what it can affect.
    sources.set(row.entry.path, withLazyLinkData({
      entry: row.entry, content_hash: row.content_hash, nodes: sourceNodes, edges: parse.edges, links: parse.links, issues: parse.issues,
      logic_steps: [], logic_flows: [], code_text: [], review_hashes, ...(parse.reviews !== undefined ? { reviews: parse.reviews } : {}),
      adapter: parse.adapter, stripped: true, logic_count: parse.logic_steps,
    }, text.linkData, counters));
  }
  return sources;
}
