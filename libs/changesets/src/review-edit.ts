/**
 * The `link_review` operation (issue 32 item 1): stamps relations of one source node with their
 * targets' review hashes, format-preservingly:
 * - a node with DocForge front matter (TOML `+++`) or a `[[node]]` record: its `[[reviews]]`
 *   entries (`relation`, `target`, `hash`, `section`), an entry of the same relation, target and
 *   section replaced, others appended (the serializer's span edits, serialize.ts `editFields`);
 * - a plain Markdown document (also one with foreign YAML front matter): the stamp comment
 *   `<!-- docforge-reviewed: TARGET=HASH ... -->` on the line after the section's heading (after a
 *   setext underline), or before the first heading for the text above it; an existing comment
 *   there gets the pair merged. An HTML comment renders as nothing, so the page looks the same.
 * Stamps change only through this operation, applied by the canonical applier like any change.
 */
import { formatStampComment, parseStampComment, type GraphNode } from '@docforge/core';
import { editFields, refuseEdit, okEdit, type EditResult } from './serialize.js';
import type { LinkReviewOp, ReviewRef } from './types.js';
import type { ProjectView } from './workspace.js';

type Table = Record<string, unknown>;

/** A review with its hash decided (the operation as stored) and the section it covers. */
type BoundReview = ReviewRef & { hash: string; section?: string };

/** The `[[reviews]]` entries of a front matter table with the reviews set (replaced by relation, target and section, else appended). */
function setReviewEntries(table: Table, reviews: readonly BoundReview[]): void {
  const current = Array.isArray(table['reviews']) ? (table['reviews'] as unknown[]).map((e) => (typeof e === 'object' && e !== null ? { ...(e as Table) } : e)) : [];
  for (const review of reviews) {
    const section = review.section ?? null;
    const same = current.findIndex((e) => typeof e === 'object' && e !== null && (e as Table)['relation'] === review.relation && (e as Table)['target'] === review.target_id && ((e as Table)['section'] ?? null) === section);
    const entry: Table = { relation: review.relation, target: review.target_id, hash: review.hash, ...(section === null ? {} : { section }) };
    if (same >= 0) current[same] = { ...(current[same] as Table), hash: review.hash };
    else current.push(entry);
  }
  table['reviews'] = current;
}

/** The index of the line a section's stamp comment goes on (0-based, in `lines`): after the heading (and a setext underline), or the first body line. */
function stampLineIndex(lines: readonly string[], node: GraphNode, section: string | null, bodyStart: number): number | null {
  if (section === null) return bodyStart;
  const anchor = node.anchors.find((a) => a.slug === section);
  if (anchor === undefined) return null;
  let index = anchor.line;
  if (index < lines.length && /^\s{0,3}(=+|-+)\s*\r?$/.test(lines[index]!) && !/^\s{0,3}#/.test(lines[anchor.line - 1]!)) index += 1;
  return index;
}

/** The first line of a plain Markdown body: after a foreign front matter block, else 0. */
function bodyStartOf(lines: readonly string[]): number {
  const open = lines[0]?.replace(/\r$/, '');
  if (open !== '---' && open !== '+++') return 0;
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line === open || (open === '---' && line === '...')) return i + 1;
  }
  return 0;
}

/** Plain Markdown: writes or merges the stamp comment of each reviewed section. */
function stampComments(node: GraphNode, text: string, reviews: readonly BoundReview[]): EditResult {
  const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
  const lines = text.slice(bom.length).split('\n');
  const cr = lines[0]?.endsWith('\r') === true ? '\r' : '';
  const bodyStart = bodyStartOf(lines);
  const bySection = new Map<string | null, BoundReview[]>();
  for (const review of reviews) {
    const key = review.section ?? null;
    bySection.set(key, [...(bySection.get(key) ?? []), review]);
  }
  // From the bottom up, so earlier insertions do not move later line indices.
  const places = [...bySection].map(([section, list]) => ({ section, list, index: stampLineIndex(lines, node, section, bodyStart) }));
  const missing = places.find((p) => p.index === null);
  if (missing !== undefined) return refuseEdit('section_not_found', `${node.source_path} has no section #${String(missing.section)} to hold the stamp`);
  places.sort((a, b) => b.index! - a.index!);
  for (const { list, index } of places) {
    const at = index!;
    const existing = at < lines.length ? parseStampComment(lines[at]!.replace(/\r$/, '')) : null;
    const pairs = new Map<string, string>();
    for (const pair of existing ?? []) if (!('problem' in pair)) pairs.set(pair.target, pair.hash);
    for (const review of list) pairs.set(review.target_id, review.hash);
    const line = formatStampComment([...pairs].map(([target, hash]) => ({ target, hash }))) + cr;
    if (existing !== null) lines[at] = line;
    else lines.splice(at, 0, line);
  }
  return okEdit(bom + lines.join('\n'));
}

/** A TOML basic string (JSON's escapes are TOML's for the characters ids and slugs hold). */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * The first stamps of a `+++` front matter block without any: `[[reviews]]` tables appended at
 * the end of the block, as a person writes them (the span editor would write an inline array);
 * null when the block already holds reviews or is not found (then the span editor edits it).
 */
function appendReviewTables(text: string, reviews: readonly BoundReview[]): string | null {
  const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
  const lines = text.slice(bom.length).split('\n');
  if (lines[0]?.replace(/\r$/, '') !== '+++') return null;
  const close = lines.findIndex((l, i) => i > 0 && l.replace(/\r$/, '') === '+++');
  if (close < 0 || lines.slice(1, close).some((l) => /^\s*(\[\[\s*reviews\s*\]\]|reviews\s*=)/.test(l))) return null;
  const cr = lines[0]!.endsWith('\r') ? '\r' : '';
  const added: string[] = [];
  for (const r of reviews) {
    added.push('', '[[reviews]]', `relation = ${tomlString(r.relation)}`, `target = ${tomlString(r.target_id)}`, `hash = ${tomlString(r.hash)}`);
    if (r.section !== undefined) added.push(`section = ${tomlString(r.section)}`);
  }
  // No blank line doubled: the block's last line may already be blank.
  if (close > 1 && lines[close - 1]!.replace(/\r$/, '') === '') added.shift();
  lines.splice(close, 0, ...added.map((l) => l + cr));
  return bom + lines.join('\n');
}

/**
 * `link_review`: the source node's text with the reviews stamped (see the module comment). The
 * projection reads the result back with the canonical loader, so a text that does not mean these
 * stamps is never approved.
 * @param reviews the reviews with their hashes (bound at registration)
 */
export function reviewLinksText(node: GraphNode, text: string, reviews: readonly BoundReview[]): EditResult {
  if (node.origin === 'markdown') return stampComments(node, text, reviews);
  const appended = node.origin === 'document' ? appendReviewTables(text, reviews) : null;
  if (appended !== null) return okEdit(appended);
  return editFields(node, text, (table) => {
    setReviewEntries(table, reviews);
    return [];
  });
}

/**
 * Binds each review of a `link_review` to the synchronized graph: the relation must exist, its
 * target must have a review hash, an omitted hash is captured when registering, and a given hash
 * must be the target's current one (a stamp of an older version would be suspect at once).
 * Returns the operation as stored; refusals go to `refuse` (an error finding).
 */
export function bindReviews(view: ProjectView, op: LinkReviewOp, registering: boolean, refuse: (code: string, message: string) => void): LinkReviewOp {
  const links = op.links.map((review) => {
    const target = review.target_id.normalize('NFC');
    if (view.hasEdge !== undefined && !view.hasEdge(op.source_id.normalize('NFC'), review.relation, target)) {
      refuse('relation_not_found', `${op.source_id} has no ${review.relation} relation to ${target} in the synchronized graph: there is nothing to review`);
      return review;
    }
    const current = view.reviewHash?.(target) ?? null;
    if (current === null) {
      refuse('review_hash_unknown', `${target} has no review hash in the synchronized index (synchronize, or check the id)`);
      return review;
    }
    if (review.hash === undefined) return registering ? { ...review, hash: current } : review;
    if (review.hash !== current) refuse('review_hash_mismatch', `${target} has review hash ${current}, not the reviewed ${review.hash}: it changed since the review; review it again`);
    return review;
  });
  if (!registering && links.some((r) => r.hash === undefined)) refuse('review_hash_missing', `${op.source_id}: a stored link_review names every hash`);
  return { ...op, links };
}
