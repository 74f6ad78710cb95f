/**
 * Review stamps in a build (issue 32 items 1 and 2): the stamps the sources declare attached to the
 * resolved relations (@docforge/project `attachReviews`), and the findings a build stores with the
 * other validation findings:
 * - `suspect_link` (warning): a stamped relation whose target's review hash changed since the stamp;
 * - `drift_unreviewed_change` (warning): a document's relation never stamped whose target's review
 *   hash changed since DocForge first saw the link. The first-seen hashes are the review baseline,
 *   `<state>/index/review-baseline.json` (fs-safe `reviewBaselineFile`): disposable, never
 *   canonical; a lost baseline is recorded again from the current hashes (no finding until the
 *   next change).
 * Each finding names the file and line of the document to reread, its section and the target.
 */
import { readFileSync } from 'node:fs';
import { edgeIdentityKey, type GraphEdge, type GraphNode, type ReviewStamp, type SourceIssue } from '@docforge/core';
import { writeFileAtomic, type StateLayout } from '@docforge/fs-safe';
import { attachReviews, type ResolvedGraph } from '@docforge/project';
import type { CachedSource } from './build-types.js';

/** Version of the baseline file's layout. */
const BASELINE_VERSION = 1;

/** Every stamp the sources declare, in source order. */
function stampsOf(current: ReadonlyMap<string, CachedSource>): ReviewStamp[] {
  const stamps: ReviewStamp[] = [];
  for (const source of current.values()) if (source.reviews !== undefined) for (const stamp of source.reviews) stamps.push(stamp);
  return stamps;
}

/**
 * The graph with each stamp attached to the relations it names (stamped edges are new objects) and
 * a `review_stamp_unmatched` warning per stamp naming none.
 */
export function withReviews(graph: ResolvedGraph, current: ReadonlyMap<string, CachedSource>): { graph: ResolvedGraph; issues: SourceIssue[] } {
  const attached = attachReviews(graph.edges, stampsOf(current));
  if (attached.stamped === 0 && attached.issues.length === 0) return { graph, issues: [] };
  return { graph: { ...graph, edges: attached.edges }, issues: attached.issues };
}

/** The review hash of each node of the graph, from the source that defines the winning node. */
function reviewHashes(nodes: readonly GraphNode[], current: ReadonlyMap<string, CachedSource>): Map<string, string> {
  const bySource = new Map<string, Map<string, string>>();
  const out = new Map<string, string>();
  for (const node of nodes) {
    let hashes = bySource.get(node.source_path);
    if (hashes === undefined) {
      hashes = new Map((current.get(node.source_path)?.review_hashes ?? []).map((r) => [r.node_id, r.hash]));
      bySource.set(node.source_path, hashes);
    }
    const hash = hashes.get(node.id);
    if (hash !== undefined) out.set(node.id, hash);
  }
  return out;
}

/** Where a finding about `edge` points: the section's line for a section stamp or a mention, else the relation's line. */
function findingPlace(edge: GraphEdge, section: string | null): { line: number; section: string | null } {
  const sections = edge.mention?.sections ?? [];
  const named = section === null ? sections[0] : sections.find((s) => s.slug === section);
  if (named !== undefined) return { line: named.line, section: named.slug };
  return { line: edge.line > 0 ? edge.line : 1, section };
}

function finding(code: string, edge: GraphEdge, place: { line: number; section: string | null }, what: string): SourceIssue {
  const where = place.section === null ? `"${edge.source_id}"` : `section #${place.section} of "${edge.source_id}"`;
  return {
    severity: 'warning', code, path: edge.source_path, line: place.line, node_id: edge.source_id,
    message: `${edge.source_path}:${place.line}: ${where} ${edge.relation} ${edge.target_id}: ${what}; reread it and review the link again`,
  };
}

/** The baseline file as read: edge key -> review hash; empty when absent, unreadable or of another layout. */
function readBaseline(file: string): Map<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // absent or damaged: a disposable record, recorded again from the current hashes
    return new Map();
  }
  const record = parsed as { v?: unknown; links?: unknown };
  if (record.v !== BASELINE_VERSION || typeof record.links !== 'object' || record.links === null) return new Map();
  return new Map(Object.entries(record.links as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** What {@link reviewFindings} found, and the baseline text to record once the build is published (null: unchanged). */
export interface ReviewFindings {
  issues: SourceIssue[];
  baseline: string | null;
}

/**
 * The `suspect_link` and `drift_unreviewed_change` findings of a resolved graph, and the baseline
 * brought up to date (links seen for the first time recorded, links gone dropped; text only when it
 * changed, for {@link recordBaseline}). Linear in the edges.
 */
export function reviewFindings(graph: ResolvedGraph, current: ReadonlyMap<string, CachedSource>, layout: StateLayout): ReviewFindings {
  const hashes = reviewHashes(graph.nodes, current);
  const origin = new Map(graph.nodes.map((n) => [n.id, n.origin]));
  const before = readBaseline(layout.reviewBaselineFile);
  const after = new Map<string, string>();
  const issues: SourceIssue[] = [];
  for (const edge of graph.edges) {
    const sourceOrigin = origin.get(edge.source_id);
    const target = hashes.get(edge.target_id);
    if (target === undefined || sourceOrigin === undefined || (sourceOrigin === 'code' && edge.reviews === undefined)) continue;
    for (const review of edge.reviews ?? []) {
      if (review.hash !== target) issues.push(finding('suspect_link', edge, findingPlace(edge, review.section), `suspect link: its review hash changed from ${review.hash} (stamped on line ${review.line}) to ${target}`));
    }
    if (sourceOrigin === 'code') continue;
    const key = edgeIdentityKey(edge);
    const first = before.get(key) ?? target;
    after.set(key, first);
    if (edge.reviews === undefined && first !== target) {
      issues.push(finding('drift_unreviewed_change', edge, findingPlace(edge, null), `changed since DocForge first saw this link (review hash ${first}, now ${target}) and the link was never reviewed`));
    }
  }
  const changed = after.size !== before.size || [...after].some(([k, v]) => before.get(k) !== v);
  return { issues, baseline: changed ? `${JSON.stringify({ v: BASELINE_VERSION, links: Object.fromEntries(after) })}\n` : null };
}

/**
 * Records the review baseline after a publication (the index directory exists then). A state
 * directory that cannot take it only delays drift findings until a later build records it.
 */
export function recordBaseline(layout: StateLayout, text: string | null): void {
  if (text === null) return;
  try {
    writeFileAtomic(layout.reviewBaselineFile, text);
  } catch {
    // not recorded now: the next build computes it again from the same first-seen rule
  }
}
