/**
 * Review hashes and review stamps (issue 32 item 1; /work/wt/ISSUE32-SHARED.md "Review hash" and
 * "Where stamps live"). A relation can carry a review stamp: its target's review hash when a person
 * or agent last confirmed the link. The review hash leaves out positions, anchors, relations and
 * stamps, so moving a function down a file or stamping another link makes nothing suspect, while a
 * changed statement under an unchanged doc comment does.
 */
import type { EdgeReview, GraphNode, NodeReviewHash, ReviewState } from './model.js';
import { createHash } from 'node:crypto';

/** Hex characters of a review hash. */
export const REVIEW_HASH_CHARS = 16;

/** A review hash as written in stamps: 16 lowercase hex characters. */
export const REVIEW_HASH_PATTERN = /^[0-9a-f]{16}$/;

/** The first {@link REVIEW_HASH_CHARS} hex characters of SHA-256 over the review text (UTF-8). */
export function reviewHash(text: string): string {
  // Hex of the digest's first bytes, not a slice of its 64-character hex: a kept slice would hold its parent alive.
  return createHash('sha256').update(text).digest().toString('hex', 0, REVIEW_HASH_CHARS / 2);
}

/** A plain-Markdown stamp comment: `<!-- docforge-reviewed: TARGET=HASH ... -->` alone on its line. */
const STAMP_COMMENT = /^[ \t]*<!--[ \t]*docforge-reviewed:(.*?)-->[ \t]*$/;

/** Lines holding a stamp comment (with their line break), removed from a document's review text. */
const STAMP_COMMENT_LINES = /^[ \t]*<!--[ \t]*docforge-reviewed:.*?-->[ \t]*(?:\r?\n|$)/gm;

/**
 * The review hash of a document node (front matter Markdown, TOML record, plain Markdown or a
 * project adapter's node): over `title + "\n" + body`, the body without stamp comments, so a stamp
 * written into a plain Markdown page never makes the links to that page suspect.
 */
export function documentReviewHash(node: Pick<GraphNode, 'title' | 'body'>): string {
  return reviewHash(`${node.title}\n${withoutStampComments(node.body)}`);
}

/**
 * Markdown text without its stamp comment lines: what the review hash reads, and what DocForge's
 * renderer renders (libs/render), so a stamped page renders exactly as before the stamp.
 */
export function withoutStampComments(text: string): string {
  return text.includes('docforge-reviewed:') ? text.replace(STAMP_COMMENT_LINES, '') : text;
}

/** A code declaration's review text: its source text with every run of whitespace collapsed to one space, trimmed. */
export function codeReviewText(source: string): string {
  return source.replace(/\s+/g, ' ').trim();
}

/**
 * The review hash of every node of a code file: over its declaration's source text (the lines
 * `start_line..end_line`, which the adapters set to the declaration's signature and body; a
 * module's lines are the whole file) with whitespace normalised by {@link codeReviewText}. Lines
 * only, never positions: moving a declaration keeps its hash. Linear in the text per node nesting level.
 * @param text the file's text
 * @param nodes the file's nodes, 1-based inclusive line extents
 */
export function codeReviewHashes(text: string, nodes: readonly Pick<GraphNode, 'id' | 'start_line' | 'end_line'>[]): NodeReviewHash[] {
  const lines = text.split(/\r\n|\r|\n/);
  return nodes.map((node) => {
    const from = Math.max(1, node.start_line);
    const to = Math.max(from, Math.min(lines.length, node.end_line));
    return { node_id: node.id, hash: reviewHash(codeReviewText(lines.slice(from - 1, to).join('\n'))) };
  });
}

/** The review hash of a node of any origin: documents from their title and body; code only from its source text (null here). */
export function nodeReviewHash(node: Pick<GraphNode, 'origin' | 'title' | 'body'>): string | null {
  return node.origin === 'code' ? null : documentReviewHash(node);
}

/**
 * The review state of a relation with these stamps against its target's current review hash
 * (null when the target has none: a missing target is a dangling relation, never reviewed).
 */
export function reviewState(reviews: readonly EdgeReview[] | undefined, targetHash: string | null): ReviewState {
  if (reviews === undefined || reviews.length === 0) return 'unreviewed';
  return targetHash !== null && reviews.every((r) => r.hash === targetHash) ? 'reviewed' : 'suspect';
}

/** One `TARGET=HASH` pair of a stamp comment, or a problem with one word of it. */
export type StampPair = { target: string; hash: string } | { problem: string };

/**
 * The pairs of a plain-Markdown stamp comment line, or null when the line is no stamp comment.
 * Pairs are space-separated `TARGET=HASH`, split at the last `=` (targets may hold `=`).
 */
export function parseStampComment(line: string): StampPair[] | null {
  const match = STAMP_COMMENT.exec(line);
  if (match === null) return null;
  const pairs: StampPair[] = [];
  for (const word of match[1]!.trim().split(/\s+/)) {
    if (word === '') continue;
    const at = word.lastIndexOf('=');
    const target = at > 0 ? word.slice(0, at) : '';
    const hash = at > 0 ? word.slice(at + 1) : '';
    if (target === '' || !REVIEW_HASH_PATTERN.test(hash)) pairs.push({ problem: `"${word}" is not TARGET=HASH with a ${REVIEW_HASH_CHARS}-character lowercase hex hash` });
    else pairs.push({ target, hash });
  }
  return pairs;
}

/** The stamp comment line for these pairs (sorted by target), as `parseStampComment` reads it. */
export function formatStampComment(pairs: readonly { target: string; hash: string }[]): string {
  const sorted = [...pairs].sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  return `<!-- docforge-reviewed: ${sorted.map((p) => `${p.target}=${p.hash}`).join(' ')} -->`;
}
