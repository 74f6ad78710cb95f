/**
 * Review stamps as sources declare them (issue 32 item 1; /work/wt/ISSUE32-SHARED.md "Where stamps
 * live"), and their matching to the resolved relations:
 * - front matter (TOML `[[reviews]]`, YAML `reviews:`): entries `{ relation, target, hash, section? }`;
 * - plain Markdown: `<!-- docforge-reviewed: TARGET=HASH ... -->` on the line after a section's
 *   heading (or before the first heading), covering every relation of that section to each target.
 * A stamp that names no relation of the resolved graph is a `review_stamp_unmatched` warning; a
 * malformed entry is a `malformed_review_stamp` warning. Pure; never throws.
 */
import type { Anchor, EdgeReview, GraphEdge, ReviewStamp, SourceIssue } from './model.js';
import { parseStampComment, REVIEW_HASH_CHARS, REVIEW_HASH_PATTERN } from './review.js';

/** One front matter review entry as read, with its 1-based file line. */
export interface RawReviewEntry {
  value: unknown;
  line: number;
}

function warning(code: string, path: string, line: number, message: string, nodeId: string | null): SourceIssue {
  return { severity: 'warning', code, message: `${path}:${line}: ${message}`, path, line, node_id: nodeId };
}

/** An anchor slug as sections are named (GitHub-style: letters, marks, digits, `-`, `_`; at most 200). */
const SECTION_SLUG = /^[\p{L}\p{M}\p{N}_-]{1,200}$/u;

/**
 * The stamps of front matter review entries of node `sourceId`; a malformed entry is a warning and
 * is ignored (the relation stays unreviewed).
 */
export function frontMatterStamps(entries: readonly RawReviewEntry[], sourceId: string, path: string, issues: SourceIssue[]): ReviewStamp[] {
  const stamps: ReviewStamp[] = [];
  for (const { value, line } of entries) {
    const entry = typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : null;
    const text = (key: string): string | null => (entry !== null && typeof entry[key] === 'string' && (entry[key] as string).trim() !== '' ? (entry[key] as string) : null);
    const relation = text('relation');
    const target = text('target');
    const hash = text('hash');
    const given = entry !== null && entry['section'] !== undefined ? text('section') : null;
    // A section is an anchor slug (letters, digits, `-` and `_`): `../../etc` or `a b` names none.
    const section = given !== null && SECTION_SLUG.test(given) ? given : null;
    const badSection = entry !== null && entry['section'] !== undefined && section === null;
    if (relation === null || target === null || hash === null || !REVIEW_HASH_PATTERN.test(hash) || badSection) {
      issues.push(warning('malformed_review_stamp', path, line, `review stamp of "${sourceId}" needs "relation", "target" and "hash" (${REVIEW_HASH_CHARS} lowercase hex characters) and an optional "section" slug; ignored`, sourceId));
      continue;
    }
    stamps.push({ source_id: sourceId, relation, target_id: target.normalize('NFC'), section, hash, path, line });
  }
  return stamps;
}

/**
 * The stamps of a Markdown body's stamp comments (see the module comment); each comment covers the
 * section of the heading before it (null: text before the first heading).
 * @param lines the file's lines; `bodyFrom` the 0-based index of the first body line
 * @param anchors the body's heading anchors (file lines)
 */
export function commentStamps(lines: readonly string[], bodyFrom: number, anchors: readonly Anchor[], sourceId: string, path: string, issues: SourceIssue[]): ReviewStamp[] {
  const stamps: ReviewStamp[] = [];
  let inFence: string | null = null;
  for (let index = bodyFrom; index < lines.length; index += 1) {
    const text = lines[index]!;
    const fence = /^[ ]{0,3}(`{3,}|~{3,})/.exec(text);
    if (fence !== null) {
      if (inFence === null) inFence = fence[1]![0]!;
      else if (fence[1]![0] === inFence) inFence = null;
      continue;
    }
    if (inFence !== null || !text.includes('docforge-reviewed:')) continue;
    const pairs = parseStampComment(text);
    if (pairs === null) continue;
    const line = index + 1;
    let section: string | null = null;
    for (const anchor of anchors) if (anchor.line < line) section = anchor.slug;
    if (pairs.length === 0) issues.push(warning('malformed_review_stamp', path, line, 'review stamp comment names no TARGET=HASH pair; ignored', sourceId));
    for (const pair of pairs) {
      if ('problem' in pair) issues.push(warning('malformed_review_stamp', path, line, `review stamp comment: ${pair.problem}; ignored`, sourceId));
      else stamps.push({ source_id: sourceId, relation: null, target_id: pair.target.normalize('NFC'), section, hash: pair.hash, path, line });
    }
  }
  return stamps;
}

/** The stamps of a graph's edges, and the stamps that matched none. */
export interface AttachedReviews {
  /** The edges, stamped ones replaced by copies carrying `reviews` (others the same objects). */
  edges: GraphEdge[];
  /** How many edges carry stamps. */
  stamped: number;
  issues: SourceIssue[];
}

/** Whether an edge covers a stamp's section: any section for a declared or linked relation, a mentioned section for a mention-derived edge. */
function coversSection(edge: GraphEdge, section: string | null): boolean {
  if (edge.mention === undefined || section === null) return true;
  return edge.mention.sections.some((s) => s.slug === section);
}

/**
 * Attaches each stamp to the relations it names: `(source, relation, target)` for a front matter
 * stamp, every relation from the source to the target for a stamp comment; a stamp with a section
 * only to an edge that covers it. Edges are never mutated (the builder caches rows per edge object).
 * Linear in the edges plus the stamps.
 */
export function attachReviews(edges: readonly GraphEdge[], stamps: readonly ReviewStamp[]): AttachedReviews {
  if (stamps.length === 0) return { edges: edges as GraphEdge[], stamped: 0, issues: [] };
  const byPair = new Map<string, ReviewStamp[]>();
  for (const stamp of stamps) {
    const key = `${stamp.source_id}\u0000${stamp.target_id}`;
    const list = byPair.get(key);
    if (list === undefined) byPair.set(key, [stamp]);
    else list.push(stamp);
  }
  const used = new Set<ReviewStamp>();
  let stamped = 0;
  const out = edges.map((edge) => {
    const list = byPair.get(`${edge.source_id}\u0000${edge.target_id}`);
    if (list === undefined) return edge;
    const reviews: EdgeReview[] = [];
    for (const stamp of list) {
      if ((stamp.relation !== null && stamp.relation !== edge.relation) || !coversSection(edge, stamp.section)) continue;
      used.add(stamp);
      reviews.push({ section: stamp.section, hash: stamp.hash, line: stamp.line });
    }
    if (reviews.length === 0) return edge;
    stamped += 1;
    return { ...edge, reviews };
  });
  const issues: SourceIssue[] = [];
  for (const stamp of stamps) {
    if (used.has(stamp)) continue;
    const what = `${stamp.relation ?? 'any relation'} -> ${stamp.target_id}${stamp.section === null ? '' : ` (section #${stamp.section})`}`;
    issues.push(warning('review_stamp_unmatched', stamp.path, stamp.line, `review stamp of "${stamp.source_id}" names no relation of the graph: ${what}; it reviews nothing`, stamp.source_id));
  }
  return { edges: out, stamped, issues };
}
