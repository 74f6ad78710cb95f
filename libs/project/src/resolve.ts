/**
 * Graph resolution (DESIGN.md sections 3 and 4): merges per-source parse results into one graph with
 * unique node ids and unique edge triples whose ends both exist, turning Markdown links into
 * `relates_to` / `documents` edges and reporting duplicates, dangling relations and broken links.
 * Pure and deterministic; linear apart from the final sorts.
 */
import { ALIASED_RELATIONS, type GraphEdge, type GraphNode, type SourceIssue } from '@docforge/core';
import type { Descriptor } from './descriptor-types.js';
import { codeNames, compare, compareIssues, finishBucket, resolveSourceRefs, type CodeNames, type MentionCounts, type ResolveSource } from './resolve-refs.js';

export type { MentionCounts, ResolveSource } from './resolve-refs.js';

/** Input of {@link resolveGraph}. */
export interface ResolveInput {
  descriptor: Descriptor;
  sources: readonly ResolveSource[];
  /** Project-relative paths of the code files of the walk. */
  codePaths: ReadonlySet<string>;
  /**
   * Whether a path that is not in `codePaths` would be a code source if it existed (under a code
   * root, a code extension, not excluded: `codeSourcePathMatcher` of walk.ts). A link to such a
   * path is a `broken_link`. Omitted: links to missing code files are not checked.
   */
  isCodeSourcePath?: (path: string) => boolean;
  /**
   * Whether a project-relative path exists (lstat only, nothing is read). A link without an
   * extension that resolves to no page is a `broken_link` unless this says the path exists (a
   * directory, `LICENSE`, …). Omitted: such links are not checked.
   */
  pathExists?: (path: string) => boolean;
}

/** The resolved primary graph. */
export interface ResolvedGraph {
  /** Unique ids, sorted by id. */
  nodes: GraphNode[];
  /** Unique `(source_id, relation, target_id)` triples whose ends both exist, sorted by that triple. */
  edges: GraphEdge[];
  /** Sorted by path, line, code. */
  issues: SourceIssue[];
  /** Mention resolution counts (issue 9 item 2), see {@link resolveMentions}. */
  mentions: MentionCounts;
  /** What changed since the resolver's previous output (incremental resolution only, resolve-incremental.ts). */
  delta?: ResolveDelta;
}

/** How an incremental resolution differs from the resolver's previous output. */
export interface ResolveDelta {
  /** The token of the previous output this one is relative to; null when resolved from scratch. */
  base: object | null;
  /** The token of this output (compare with a later delta's `base`). */
  token: object;
  /** Node ids whose winning node object changed, appeared or disappeared. */
  nodes: ReadonlySet<string>;
  /** Per source id whose merged edges were recomputed: its edges before and after (in order); no other edge changed. */
  buckets: ReadonlyMap<string, { before: readonly GraphEdge[]; after: readonly GraphEdge[] }>;
}

/**
 * Resolves the graph from every source's parse result.
 * - Duplicate ids: the node of the lexicographically first source path (then first line) wins;
 *   every other yields an error `duplicate_id`, and edges and links it declared are dropped.
 * - Links: to a content source with nodes -> `relates_to` to that file's first node; to a code
 *   file -> `documents` to its module node `code:<path>` (`codeId`, when that node exists); to a
 *   missing Markdown file, or to a missing code file where the walk would have found one
 *   (`isCodeSourcePath`) -> warning `broken_link`; with a fragment naming no section or HTML
 *   anchor of a Markdown target (`anchorResolves`) -> warning `broken_link`, and the edge is
 *   still made; a link without an extension (`guides/install`) names `<path>.md`, `<path>.markdown`,
 *   `<path>/index.md` or `<path>/README.md` (Docusaurus), else it is a `broken_link` when
 *   `pathExists` says nothing is there; anything else is ignored; self-links are skipped (their fragments are checked
 *   by the parser).
 * - Declared edges to a missing node -> error `dangling_relation` (dropped); code edges
 *   (`code:` sources) to a missing node are dropped silently; relations outside the 22 aliased
 *   names and `[vocabulary].relations` (when that list is closed) -> warning `undeclared_relation`.
 * - Duplicate triples are merged, keeping the first in (source_path, line) order.
 */
export function resolveGraph(input: ResolveInput): ResolvedGraph {
  let sorted = true;
  for (let index = 1; index < input.sources.length && sorted; index += 1) {
    sorted = compare((input.sources[index - 1] as ResolveSource).path, (input.sources[index] as ResolveSource).path) <= 0;
  }
  const sources = sorted ? input.sources : [...input.sources].sort((a, b) => compare(a.path, b.path));
  const issues: SourceIssue[] = [];
  const winners = new Map<string, GraphNode>();
  /** Per source path: ids whose node in that source lost to another definition. */
  const lost = new Map<string, Set<string>>();
  const firstNodeOf = new Map<string, string>();
  const sourcePaths = new Set<string>();

  for (const source of sources) {
    sourcePaths.add(source.path);
    const nodes = source.nodes.length > 1 ? [...source.nodes].sort((a, b) => a.start_line - b.start_line) : source.nodes;
    for (const node of nodes) {
      if (!firstNodeOf.has(source.path)) firstNodeOf.set(source.path, node.id);
      const winner = winners.get(node.id);
      if (winner === undefined) {
        winners.set(node.id, node);
        continue;
      }
      let set = lost.get(source.path);
      if (set === undefined) lost.set(source.path, (set = new Set()));
      set.add(node.id);
      issues.push({
        severity: 'error',
        code: 'duplicate_id',
        message: `${source.path}:${node.start_line}: duplicate id "${node.id}" (already defined at ${winner.source_path}:${winner.start_line}); this definition is ignored`,
        path: source.path,
        line: node.start_line,
        node_id: node.id,
      });
    }
  }

  let names: CodeNames | null = null;
  const counts: MentionCounts = { edges: 0, linked: 0, bare_leaf: 0, ambiguous: 0 };
  const ctx = {
    winners, lost, firstNodeOf, sourcePaths, codePaths: input.codePaths, isCodeSourcePath: input.isCodeSourcePath, pathExists: input.pathExists,
    contentRoots: input.descriptor.sources.content_roots,
    names: (): CodeNames => (names ??= codeNames(winners, sources)),
  };
  /** Candidate edges bucketed by source id: sorting many small buckets beats one 50k-edge sort. */
  const buckets = new Map<string, GraphEdge[]>();
  const addCandidate = (edge: GraphEdge): void => {
    const bucket = buckets.get(edge.source_id);
    if (bucket === undefined) buckets.set(edge.source_id, [edge]);
    else bucket.push(edge);
  };
  for (const source of sources) resolveSourceRefs(source, ctx, addCandidate, issues, counts);

  const nodes = [...winners.values()].sort((a, b) => compare(a.id, b.id));
  const edges: GraphEdge[] = [];
  const allowed = allowedRelations(input.descriptor);
  for (const node of nodes) {
    const bucket = buckets.get(node.id);
    if (bucket !== undefined) finishBucket(bucket, allowed, edges, issues);
  }

  issues.sort(compareIssues);
  counts.edges = edges.filter((e) => e.mention !== undefined).length;
  return { nodes, edges, issues, mentions: counts };
}

/** The relations an edge may carry without an `undeclared_relation` warning, or null when the vocabulary is open. */
export function allowedRelations(descriptor: Descriptor): ReadonlySet<string> | null {
  const extra = descriptor.vocabulary.relations;
  return extra === null ? null : new Set([...ALIASED_RELATIONS, ...extra]);
}
