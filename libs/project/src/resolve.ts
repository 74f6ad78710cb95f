/**
 * Graph resolution (DESIGN.md sections 3 and 4): merges per-source parse results into one graph with
 * unique node ids and unique edge triples whose ends both exist, turning Markdown links into
 * `relates_to` / `documents` edges and reporting duplicates, dangling relations and broken links.
 * Pure and deterministic; linear apart from the final sorts.
 */
import { ALIASED_RELATIONS, MAX_MENTION_SECTIONS, codeId, type GraphEdge, type GraphNode, type SourceIssue } from '@docforge/core';
import type { Descriptor } from './descriptor-types.js';
import type { LinkRef } from './content.js';
import { anchorIds, anchorResolves } from './sections.js';

/** What one source contributed (content or code), as input to {@link resolveGraph}. */
export interface ResolveSource {
  /** Project-relative POSIX path. */
  path: string;
  nodes: readonly GraphNode[];
  edges: readonly GraphEdge[];
  links: readonly LinkRef[];
}

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

/** Whether the last segment of a path has no extension (`guides/install`, `guides/`). */
function extensionless(target: string): boolean {
  const name = target.slice(target.lastIndexOf('/') + 1);
  return name === '' || name === '.' || name.lastIndexOf('.') <= 0;
}

/**
 * The pages an extensionless link may name, as Docusaurus resolves them: `<path>.md`,
 * `<path>.markdown`, `<path>/index.md`, `<path>/README.md` (for the root `.`: `index.md`, `README.md`).
 */
function pageCandidates(target: string): string[] {
  const base = target === '.' ? '' : `${target}/`;
  return target === '.' ? ['index.md', 'README.md'] : [`${target}.md`, `${target}.markdown`, `${base}index.md`, `${base}README.md`];
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
}

/**
 * How the inline code spans and link texts of documents resolved: `edges` mention-derived
 * `documents` edges, `linked` mentions behind them, `bare_leaf` mentions that are only a leaf name
 * of some code node (`refund`: never linked), `ambiguous` mentions naming more than one node
 * (linked to none).
 */
export interface MentionCounts {
  edges: number;
  linked: number;
  bare_leaf: number;
  ambiguous: number;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return (
    compare(a.source_id, b.source_id) ||
    compare(a.relation, b.relation) ||
    compare(a.target_id, b.target_id) ||
    compare(a.source_path, b.source_path) ||
    a.line - b.line
  );
}

function compareIssues(a: SourceIssue, b: SourceIssue): number {
  return (
    compare(a.path ?? '', b.path ?? '') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compare(a.code, b.code) ||
    compare(a.node_id ?? '', b.node_id ?? '') ||
    compare(a.message, b.message)
  );
}

const MARKDOWN_TARGET = /\.(md|markdown)$/i;

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

  /** Anchor ids per linked Markdown node, built on first use (a large file is linked many times). */
  const anchorCache = new Map<string, ReadonlySet<string>>();
  const idsOf = (node: GraphNode): ReadonlySet<string> => {
    let ids = anchorCache.get(node.id);
    if (ids === undefined) anchorCache.set(node.id, (ids = anchorIds(node.anchors)));
    return ids;
  };
  let names: CodeNames | null = null;
  const counts: MentionCounts = { edges: 0, linked: 0, bare_leaf: 0, ambiguous: 0 };
  const mentionEdges = new Map<string, GraphEdge>();
  /** Candidate edges bucketed by source id: sorting many small buckets beats one 50k-edge sort. */
  const buckets = new Map<string, GraphEdge[]>();
  const addCandidate = (edge: GraphEdge): void => {
    const bucket = buckets.get(edge.source_id);
    if (bucket === undefined) buckets.set(edge.source_id, [edge]);
    else bucket.push(edge);
  };
  for (const source of sources) {
    const lostHere = lost.get(source.path);
    const ownedElsewhere = (id: string): boolean => lostHere !== undefined && lostHere.has(id) && winners.get(id)?.source_path !== source.path;
    for (const edge of source.edges) {
      if (ownedElsewhere(edge.source_id)) continue;
      if (!winners.has(edge.source_id)) continue;
      if (!winners.has(edge.target_id)) {
        if (!edge.source_id.startsWith('code:')) {
          issues.push({
            severity: 'error',
            code: 'dangling_relation',
            message: `${edge.source_path}:${edge.line}: relation "${edge.relation}" of "${edge.source_id}" targets "${edge.target_id}", which is not a node`,
            path: edge.source_path,
            line: edge.line,
            node_id: edge.source_id,
          });
        }
        continue;
      }
      addCandidate(edge);
    }
    for (let link of source.links) {
      if (ownedElsewhere(link.from_id) || !winners.has(link.from_id)) continue;
      if (link.mention !== undefined) {
        names ??= codeNames(winners, sources);
        const target = resolveMention(link.mention.text, names, counts);
        if (target === null || target === link.from_id) continue;
        const key = `${link.from_id}\u0000${target}`;
        const section = link.mention.section;
        const entry = { slug: section?.slug ?? null, title: section?.title ?? null, line: link.line };
        const existing = mentionEdges.get(key);
        if (existing === undefined) {
          const edge: GraphEdge = { source_id: link.from_id, relation: 'documents', target_id: target, source_path: source.path, line: link.line, mention: { sections: [entry] } };
          mentionEdges.set(key, edge);
          addCandidate(edge);
        } else if (existing.mention!.sections.length < MAX_MENTION_SECTIONS && !existing.mention!.sections.some((x) => x.slug === entry.slug)) {
          existing.mention!.sections.push(entry);
        }
        continue;
      }
      const broken = (message: string): void => {
        issues.push({ severity: 'warning', code: 'broken_link', message: `${source.path}:${link.line}: ${message}`, path: source.path, line: link.line, node_id: link.from_id });
      };
      let relation: string;
      let target: string | undefined;
      if (!input.codePaths.has(link.target_path) && !firstNodeOf.has(link.target_path) && !sourcePaths.has(link.target_path) && extensionless(link.target_path)) {
        // Docusaurus-style link without `.md`: the page it names, else broken unless something is there.
        const page = pageCandidates(link.target_path).find((candidate) => sourcePaths.has(candidate));
        if (page !== undefined) {
          link = { ...link, target_path: page };
        } else if (input.pathExists !== undefined && !input.pathExists(link.target_path)) {
          broken(`link to "${link.target_path}" does not resolve to a page (tried ${pageCandidates(link.target_path).map((c) => `"${c}"`).join(', ')}) or any file in the project`);
          continue;
        } else {
          continue;
        }
      }
      if (input.codePaths.has(link.target_path)) {
        relation = 'documents';
        target = codeId(link.target_path);
        if (!winners.has(target)) continue;
      } else if (firstNodeOf.has(link.target_path)) {
        relation = 'relates_to';
        target = firstNodeOf.get(link.target_path);
        const targetNode = target === undefined ? undefined : winners.get(target);
        if (link.anchor !== null && targetNode !== undefined && targetNode.source_path === link.target_path && MARKDOWN_TARGET.test(link.target_path) && !anchorResolves(idsOf(targetNode), link.anchor)) {
          broken(`link to "${link.target_path}#${link.anchor}": that file has no section or anchor "${link.anchor}"`);
        }
      } else {
        if (MARKDOWN_TARGET.test(link.target_path) && !sourcePaths.has(link.target_path)) {
          broken(`link to "${link.target_path}" does not resolve to a Markdown source under the content roots`);
        } else if (input.isCodeSourcePath !== undefined && !sourcePaths.has(link.target_path) && input.isCodeSourcePath(link.target_path)) {
          broken(`link to "${link.target_path}" does not resolve to a code file under the code roots`);
        }
        continue;
      }
      if (target === undefined || target === link.from_id) continue;
      addCandidate({ source_id: link.from_id, relation, target_id: target, source_path: source.path, line: link.line });
    }
  }

  const nodes = [...winners.values()].sort((a, b) => compare(a.id, b.id));
  const edges: GraphEdge[] = [];
  const extra = input.descriptor.vocabulary.relations;
  const allowed = extra === null ? null : new Set([...ALIASED_RELATIONS, ...extra]);
  for (const node of nodes) {
    const bucket = buckets.get(node.id);
    if (bucket === undefined) continue;
    if (bucket.length > 1) bucket.sort(compareEdges);
    let previous: GraphEdge | null = null;
    for (const edge of bucket) {
      if (previous !== null && previous.relation === edge.relation && previous.target_id === edge.target_id) continue;
      previous = edge;
      edges.push(edge);
      if (allowed !== null && !allowed.has(edge.relation)) {
        issues.push({
          severity: 'warning',
          code: 'undeclared_relation',
          message: `${edge.source_path}:${edge.line}: relation "${edge.relation}" is neither an aliased relation nor declared in [vocabulary].relations of docforge.toml`,
          path: edge.source_path,
          line: edge.line,
          node_id: edge.source_id,
        });
      }
    }
  }

  issues.sort(compareIssues);
  counts.edges = edges.filter((e) => e.mention !== undefined).length;
  return { nodes, edges, issues, mentions: counts };
}

/** Lookup tables of code names for mentions: module paths, qualified names, `module.export` forms and leaf names. */
interface CodeNames {
  paths: Map<string, string>;
  qualified: Map<string, string[]>;
  exports: Map<string, string[]>;
  leaves: Set<string>;
}

function push(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [id]);
  else if (!list.includes(id)) list.push(id);
}

/**
 * Builds the name tables from the code nodes (`code:<path>` modules, `code:<path>#<qualified>`
 * declarations; a `~n` duplicate suffix is dropped, so duplicates are ambiguous) and from the
 * `defines` edges of modules (their exports): `<module>.<export>` where `<module>` is the file's
 * base name without extension (`pino.js` gives `pino`).
 */
function codeNames(winners: ReadonlyMap<string, GraphNode>, sources: readonly ResolveSource[]): CodeNames {
  const names: CodeNames = { paths: new Map(), qualified: new Map(), exports: new Map(), leaves: new Set() };
  for (const id of winners.keys()) {
    if (!id.startsWith('code:')) continue;
    const hash = id.indexOf('#');
    if (hash < 0) {
      names.paths.set(id.slice(5), id);
      continue;
    }
    const qualified = id.slice(hash + 1).replace(/~\d+$/, '');
    push(names.qualified, qualified, id);
    names.leaves.add(qualified.split('.').pop()!);
  }
  for (const source of sources) {
    for (const edge of source.edges) {
      if (edge.relation !== 'defines' || !edge.source_id.startsWith('code:') || edge.source_id.includes('#') || !winners.has(edge.target_id)) continue;
      const base = posixBase(edge.source_id.slice(5));
      const hash = edge.target_id.indexOf('#');
      if (hash < 0) continue;
      push(names.exports, `${base}.${edge.target_id.slice(hash + 1).replace(/~\d+$/, '')}`, edge.target_id);
    }
  }
  return names;
}

function posixBase(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1);
  const dot = file.indexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

/**
 * The code node a mention names (issue 9 item 2), or null. A trailing call (`()`,
 * `(paymentId, amount)`) is dropped first; the span then names a node when it equals a module's
 * code path (`src/ledger/ledger.ts`, a leading `./` dropped), a qualified name (`Ledger.refund`)
 * or a `module.export` form resolved through the module's `defines` edges (`pino.transport`).
 * A bare leaf name (`refund`) never links and a name matching several nodes links to none; both
 * are counted in `counts`.
 */
export function resolveMention(text: string, names: CodeNames, counts: MentionCounts): string | null {
  const name = text.replace(/\s*\([^()]*\)\s*$/, '').replace(/^\.\//, '').trim();
  if (name === '' || /\s/.test(name)) return null;
  const path = names.paths.get(name);
  if (path !== undefined) {
    counts.linked += 1;
    return path;
  }
  if (!name.includes('.')) {
    if (/^[\w$#]+$/.test(name) && names.leaves.has(name)) counts.bare_leaf += 1;
    return null;
  }
  const ids = [...new Set([...(names.qualified.get(name) ?? []), ...(names.exports.get(name) ?? [])])];
  if (ids.length === 1) {
    counts.linked += 1;
    return ids[0]!;
  }
  if (ids.length > 1) counts.ambiguous += 1;
  return null;
}
