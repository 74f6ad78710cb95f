/**
 * What a change reaches (issue 32 item 3, `docforge affected`; the evidence of
 * `docforge_get_task_context` with task kind `change` can use it too): from the changed nodes, a
 * bounded breadth-first walk over the relations by which a document, requirement or test rests on
 * what changed, and the docs, requirements and tests it reaches, each with the path that reached
 * it and the section to reread.
 *
 * Which edges the walk follows, by the contract's version-1 alias categories (MCP_CONTRACT.md,
 * read tools; core `relationCategory`), so a project relation outside the alias map is never
 * followed:
 * - incoming edges of the `structure`, `implementation` and `evidence` categories: the source of
 *   `X contains|defines|defined_in|owns N`, `X implements|inherits N`, `R implemented_by N`,
 *   `D documents|governs N`, `T verifies|proves N`, `S tested_by N` rests on N;
 * - outgoing `implements`, `verifies`, `proves` and `tested_by` edges: a requirement that N
 *   implements, verifies or proves, and the tests N is tested by.
 * A reached test ends its path, and a reached requirement leads on only to its tests (its outgoing
 * `tested_by`, incoming `verifies`/`proves`): so the other implementations of a requirement, or
 * the other subjects of a test, are not reached through it. A changed node itself follows every
 * edge above, whatever its kind.
 */
import { relationCategory, type MentionSection } from '@docforge/core';
import type { EdgeRecord, IndexReader } from '@docforge/store';
import { DEFAULT_EDGE_BUDGET } from './traversal.js';

/** Categories whose incoming edges the walk follows. */
export const AFFECTED_INCOMING_CATEGORIES: readonly string[] = Object.freeze(['structure', 'implementation', 'evidence']);
/** Relations whose outgoing edges the walk follows (toward requirements and tests). */
export const AFFECTED_OUTGOING_RELATIONS: readonly string[] = Object.freeze(['implements', 'proves', 'tested_by', 'verifies']);
/** Incoming relations that lead from a reached requirement to its tests (`T verifies|proves R`). */
const TESTS_OF_INCOMING = new Set(['proves', 'verifies']);

/** One step of the path that reached an entry: `from` -`relation`-> `to` as walked; `direction` is the stored edge's direction relative to `from`. */
export interface AffectedHop {
  from: string;
  relation: string;
  direction: 'outgoing' | 'incoming';
  to: string;
  /** Where the edge is declared (file and line). */
  declared_in: { path: string; line: number };
}

/** What an affected entry is: a document to reread, a requirement to recheck, or a test to rerun. */
export type AffectedRole = 'doc' | 'requirement' | 'test';

/** One doc, requirement or test the change reaches. */
export interface AffectedEntry {
  id: string;
  kind: string;
  title: string;
  role: AffectedRole;
  source_path: string;
  /** The line to start rereading: the first section's line, else the node's start line (the whole node). */
  line: number;
  /** The doc sections that name what was reached (mention-derived `documents` edges), or [] for the whole node. */
  sections: MentionSection[];
  /** The path from a changed node to this entry, first hop first. */
  path: AffectedHop[];
  depth: number;
}

/** Options of {@link affectedFrom}. */
export interface AffectedOptions {
  /** Maximum hop count, 1-10. */
  depth: number;
  /** Most entries listed. */
  limit: number;
  edgeBudget?: number;
  /** The index's distinct relation names when the caller already holds them (task context's vocabulary), sparing a scan of the edges. */
  relations?: readonly string[];
}

/** The answer of {@link affectedFrom}: bounded like every traversal (contract: the cause of truncation). */
export interface AffectedResult {
  items: AffectedEntry[];
  truncated: boolean;
  truncation_reason: 'result_limit' | 'edge_budget' | null;
  examined_edges: number;
  edge_budget: number;
}

/** Whether a node (by kind and origin) is a requirement, a test, a document, or code (null: walked through, not listed). */
export function affectedRole(kind: string, origin: string, sourcePath: string): AffectedRole | null {
  if (kind === 'requirement') return 'requirement';
  if (kind === 'test') return 'test';
  // `[._-](test|spec)\.[^/]+$` tried on the last path segment only (it rescanned to the end from every `_test.`: issue 30).
  const lastSegment = sourcePath.slice(sourcePath.lastIndexOf('/') + 1);
  if (origin === 'code') return /(^|\/)(__tests__|tests?)\/|(^|\/)test_[^/]+\.py$/.test(sourcePath) || /[._-](test|spec)\.[^/]/.test(lastSegment) ? 'test' : null;
  return 'doc';
}

interface Reached {
  hop: AffectedHop | null;
  depth: number;
  role: AffectedRole | null;
}

/** The edges of one node the walk follows, at most `max` (+ the rows read, for the budget). */
function walkEdges(reader: IndexReader, id: string, role: AffectedRole | null, incoming: readonly string[], max: number): { edges: { edge: EdgeRecord; direction: 'incoming' | 'outgoing' }[]; read: number } {
  // A reached test ends its path; a reached requirement leads on only to its tests.
  if (role === 'test') return { edges: [], read: 0 };
  const onlyTests = role === 'requirement';
  const inRelations = onlyTests ? incoming.filter((r) => TESTS_OF_INCOMING.has(r)) : incoming;
  const outRelations = onlyTests ? AFFECTED_OUTGOING_RELATIONS.filter((r) => r === 'tested_by') : AFFECTED_OUTGOING_RELATIONS;
  const ins = inRelations.length === 0 ? [] : reader.edges(id, 'incoming', inRelations, max);
  const outs = outRelations.length === 0 || ins.length >= max ? [] : reader.edges(id, 'outgoing', outRelations, max - ins.length);
  return { edges: [...ins.map((edge) => ({ edge, direction: 'incoming' as const })), ...outs.map((edge) => ({ edge, direction: 'outgoing' as const }))], read: ins.length + outs.length };
}

/**
 * Walks from `changedIds` (nodes of the published graph; others are skipped) breadth first, in
 * the given order, each node reached once (its first path is kept), and lists the docs,
 * requirements and tests reached ({@link affectedRole}), in the order reached. Each frontier node
 * reads at most `remaining budget + 1` edges through the edge indexes; the walk stops at
 * `options.depth`, at `options.limit` entries (`result_limit`) or when the budget is spent (`edge_budget`).
 */
export function affectedFrom(reader: IndexReader, changedIds: readonly string[], options: AffectedOptions): AffectedResult {
  const budget = options.edgeBudget ?? DEFAULT_EDGE_BUDGET;
  const incoming = (options.relations ?? reader.distinctRelations()).filter((r) => AFFECTED_INCOMING_CATEGORIES.includes(relationCategory(r)));
  const reached = new Map<string, Reached>();
  let frontier: string[] = [];
  for (const id of changedIds) {
    if (reached.has(id) || !reader.hasNode(id)) continue;
    reached.set(id, { hop: null, depth: 0, role: null });
    frontier.push(id);
  }
  const items: AffectedEntry[] = [];
  let examined = 0;
  let reason: AffectedResult['truncation_reason'] = null;
  outer: for (let depth = 1; depth <= options.depth && frontier.length > 0; depth += 1) {
    const next: string[] = [];
    for (const from of frontier) {
      const remaining = budget - examined;
      const { edges, read } = walkEdges(reader, from, reached.get(from)!.role, incoming, remaining + 1);
      examined += Math.min(read, remaining);
      for (const { edge, direction } of edges.slice(0, remaining)) {
        const other = direction === 'incoming' ? edge.source_id : edge.target_id;
        if (reached.has(other)) continue;
        const brief = reader.nodeProvenance(other);
        if (brief === null) continue;
        const role = affectedRole(brief.kind, brief.origin, brief.source_path);
        const hop: AffectedHop = { from, relation: edge.relation, direction, to: other, declared_in: { path: edge.source_path, line: edge.line } };
        reached.set(other, { hop, depth, role });
        next.push(other);
        if (role === null) continue;
        if (items.length >= options.limit) {
          reason = 'result_limit';
          break outer;
        }
        items.push(entryOf(reader, other, brief, role, hop, depth, reached));
      }
      if (read > remaining) {
        reason = 'edge_budget';
        break outer;
      }
    }
    frontier = next;
  }
  return { items, truncated: reason !== null, truncation_reason: reason, examined_edges: examined, edge_budget: budget };
}

function entryOf(reader: IndexReader, id: string, brief: { kind: string; title: string; source_path: string; start_line: number }, role: AffectedRole, hop: AffectedHop, depth: number, reached: ReadonlyMap<string, Reached>): AffectedEntry {
  const path: AffectedHop[] = [];
  for (let step: AffectedHop | null = hop; step !== null; step = reached.get(step.from)?.hop ?? null) path.unshift(step);
  // A mention-derived `documents` edge beside the reaching one (which may be `defines`) names the
  // sections of this doc that talk about the node reached: those are the ones to reread.
  const sections = hop.direction === 'incoming' ? reader.edgeMention(id, 'documents', hop.from) ?? [] : [];
  const line = sections[0]?.line ?? brief.start_line;
  return { id, kind: brief.kind, title: brief.title, role, source_path: brief.source_path, line, sections, path, depth };
}
