/**
 * Review stamps in a build (issue 32 items 1 and 2): the stamps the sources declare attached to the
 * resolved relations (@docforge/core `attachReviews`), and the findings a build stores with the
 * other validation findings:
 * - `suspect_link` (warning): a stamped relation whose target's review hash changed since the stamp;
 * - `drift_unreviewed_change` (warning): a document's relation never stamped whose target's review
 *   hash changed since DocForge first saw the link. The first-seen hashes are the review baseline,
 *   `<state>/index/review-baseline.json` (fs-safe `reviewBaselineFile`): disposable, never
 *   canonical; a lost baseline is recorded again from the current hashes (no finding until the
 *   next change).
 * - `drift_unresolved_mention` (warning; build-mention-drift.ts): a doc mention that resolved to a
 *   code node at the baseline and names no code now, that node being gone (renamed or removed).
 * Each finding names the file and line of the document to reread, its section and the target.
 */
import { readFileSync, statSync } from 'node:fs';
import { attachReviews, type GraphEdge, type ReviewStamp, type SourceIssue } from '@docforge/core';
import { writeFileAtomic, type StateLayout } from '@docforge/fs-safe';
import type { ResolvedGraph } from '@docforge/project';
import type { CachedSource } from './build-types.js';
import { mentionDrift } from './build-mention-drift.js';
import { linkFindings, ReviewLinkState } from './build-review-links.js';

/** Version of the baseline file's layout (`mentions` was added to version 1 as an optional member: a file without it records them). */
const BASELINE_VERSION = 1;

/**
 * The review baseline: `links`, edge key -> the target's review hash when a build first saw the
 * link; `mentions`, `"<doc id>\u0000<mention text>"` -> the code node it resolved to (build-mention-drift.ts).
 */
export interface ReviewBaseline {
  links: ReadonlyMap<string, string>;
  mentions: ReadonlyMap<string, string>;
}

const EMPTY_BASELINE: ReviewBaseline = Object.freeze({ links: new Map<string, string>(), mentions: new Map<string, string>() });

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

/** Where a finding about `edge` points: the section's line for a section stamp or a mention, else the relation's line. */
function findingPlace(edge: GraphEdge, section: string | null): { line: number; section: string | null } {
  const sections = edge.mention?.sections ?? [];
  const named = section === null ? sections[0] : sections.find((s) => s.slug === section);
  if (named !== undefined) return { line: named.line, section: named.slug };
  return { line: edge.line > 0 ? edge.line : 1, section };
}

/**
 * How to review `edge` again once the target was reread (new-user trial u2: the finding named no
 * command): the CLI's `docforge review SOURCE --target TARGET` (README "review"), and the
 * `link_review` operation of MCP `docforge_register_changes`, both applied by a canonical applier.
 */
function reviewHow(edge: GraphEdge, section: string | null): string {
  const operation = JSON.stringify({ op: 'link_review', source_id: edge.source_id, ...(section === null ? {} : { section }), links: [{ relation: edge.relation, target_id: edge.target_id }] });
  return `docforge review ${shellWord(edge.source_id)} --target ${shellWord(edge.target_id)} --writer W --canonical-applier A, or the MCP docforge_register_changes operation ${operation}`;
}

/** `word` as one POSIX shell word: as is when it holds only safe characters, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./#-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

function finding(code: string, edge: GraphEdge, place: { line: number; section: string | null }, what: string): SourceIssue {
  const where = place.section === null ? `"${edge.source_id}"` : `section #${place.section} of "${edge.source_id}"`;
  return {
    severity: 'warning', code, path: edge.source_path, line: place.line, node_id: edge.source_id,
    message: `${edge.source_path}:${place.line}: ${where} ${edge.relation} ${edge.target_id}: ${what}; reread it and review the link again (${reviewHow(edge, place.section)})`,
  };
}

/**
 * The review baseline of one worker, kept between builds (build-caches.ts): the file is read again
 * only when its identity (size, mtime, inode) differs from the one this worker read or wrote, so a
 * one-file edit does not parse a baseline of tens of thousands of links (measured about 150-250 ms
 * for 25,000 links on the bench corpus).
 */
export class ReviewBaselineCache {
  #stamp: string | null = null;
  #baseline: ReviewBaseline = EMPTY_BASELINE;

  /** The baseline of `file` (empty when absent or unreadable). */
  read(file: string): ReviewBaseline {
    const stamp = fileStamp(file);
    if (stamp === null || stamp !== this.#stamp) {
      this.#baseline = readBaseline(file);
      this.#stamp = stamp;
    }
    return this.#baseline;
  }

  /** Remembers what was just written to `file`. */
  wrote(file: string, baseline: ReviewBaseline): void {
    this.#baseline = baseline;
    this.#stamp = fileStamp(file);
  }
}

function fileStamp(file: string): string | null {
  try {
    const st = statSync(file, { bigint: true });
    return `${file}\u0000${st.size}:${st.mtimeNs}:${st.ino}`;
  } catch {
    // absent: read (as empty) every time until one is written
    return null;
  }
}

/** The string members of a JSON object as a map (empty when it is no object). */
function stringMap(value: unknown): Map<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return new Map();
  return new Map(Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** The baseline file as read; empty when absent, unreadable or of another layout. */
function readBaseline(file: string): ReviewBaseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // absent or damaged: a disposable record, recorded again from the current hashes
    return EMPTY_BASELINE;
  }
  const record = parsed as { v?: unknown; links?: unknown; mentions?: unknown };
  if (record.v !== BASELINE_VERSION || typeof record.links !== 'object' || record.links === null) return EMPTY_BASELINE;
  return { links: stringMap(record.links), mentions: stringMap(record.mentions) };
}

/** What {@link reviewFindings} found, and the baseline to record once the build is published (null: unchanged). */
export interface ReviewFindings {
  issues: SourceIssue[];
  baseline: ReviewBaseline | null;
  /** Edge groups whose link findings were computed in this build (build-review-links.ts); the rest were kept. */
  computed: number;
}

/**
 * The `suspect_link`, `drift_unreviewed_change` and `drift_unresolved_mention` findings of a resolved graph, and the baseline
 * brought up to date (links seen for the first time recorded, links gone dropped; text only when it
 * changed, for {@link recordBaseline}). The link findings are kept per edge group in `links`
 * between builds of one worker and recomputed only where the graph changed (build-review-links.ts);
 * the result is the one a computation from scratch (a fresh `links`) gives. Linear in the edges.
 */
export function reviewFindings(graph: ResolvedGraph, current: ReadonlyMap<string, CachedSource>, layout: StateLayout, cache: ReviewBaselineCache, links: ReviewLinkState = new ReviewLinkState()): ReviewFindings {
  const baseline = cache.read(layout.reviewBaselineFile);
  const found = linkFindings(links, graph, current, baseline, baseline.links, (code, edge, section, what) => finding(code, edge, findingPlace(edge, section), what));
  const issues = found.issues;
  const mentions = mentionDrift(graph.nodes, graph.edges, current, baseline.mentions);
  appendTo(issues, mentions.issues);
  if (found.links === null && mentions.mentions === null) {
    links.expected = baseline;
    return { issues, baseline: null, computed: found.computed };
  }
  const next = { links: found.links ?? baseline.links, mentions: mentions.mentions ?? baseline.mentions };
  // The state holds for the next build only once `next` is recorded (the cache then returns it).
  links.expected = next;
  return { issues, baseline: next, computed: found.computed };
}

function appendTo(target: SourceIssue[], items: readonly SourceIssue[]): void {
  for (const item of items) target.push(item);
}

/**
 * Records the review baseline after a publication (the index directory exists then). A state
 * directory that cannot take it only delays drift findings until a later build records it.
 */
export function recordBaseline(layout: StateLayout, baseline: ReviewBaseline | null, cache: ReviewBaselineCache): void {
  if (baseline === null) return;
  try {
    writeFileAtomic(layout.reviewBaselineFile, `${JSON.stringify({ v: BASELINE_VERSION, links: Object.fromEntries(baseline.links), mentions: Object.fromEntries(baseline.mentions) })}\n`);
    cache.wrote(layout.reviewBaselineFile, baseline);
  } catch {
    // not recorded now: the next build computes it again from the same first-seen rule
  }
}
