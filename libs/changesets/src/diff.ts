/**
 * The review diff (contract: `docforge_get_changeset_diff`): per operation, the node's front
 * matter and declared relations before and after, the relations it adds and removes, a unified
 * text diff of its body and of every source file it rewrites, from the projection (each
 * operation seen after the earlier ones). Large diffs are paged by the caller; an individually
 * oversized diff becomes `canonical_json_chunk` pages ({@link chunkPayload}).
 */
import { createRequire } from 'node:module';
import type * as Diff from 'diff';
import { canonicalJson, ownValue, sha256, type AuthoredNodeField, type GraphNode } from '@docforge/core';
import type { FileChange, NodeState, OperationOutcome } from './projection.js';
import type { RelationRef } from './types.js';

let diffModule: typeof Diff | null = null;
/** The `diff` package (its CommonJS build), required on the first review diff (issue 14): a server start loads none of it. */
function diffLib(): typeof Diff {
  diffModule ??= createRequire(import.meta.url)('diff') as typeof Diff;
  return diffModule;
}

/** The reviewable metadata of a node (its front matter or record fields, declared relations from its source). */
export interface FrontMatter extends Pick<GraphNode, AuthoredNodeField | 'source_path'> {
  /** Declared relations (front matter or record `[relations]`; not body links): relation -> targets, relations sorted. */
  relations: Record<string, string[]>;
}

/** The text diff of one source file an operation rewrites (a Markdown move that keeps the bytes is one rename entry). */
export interface FileDiff {
  /** The file before the operation, or null when the operation creates it. */
  before_path: string | null;
  /** The file after the operation, or null when the operation removes it. */
  after_path: string | null;
  /**
   * Unified diff (`--- before_path`, `+++ after_path`, `/dev/null` for an absent side; 3 lines of
   * context) of the exact text the operation would write; just the two header lines for a
   * rename that keeps every byte.
   */
  diff: string;
}

/**
 * One operation's change. Contract "Isolated proposal tools": an entry of the `changes` array of
 * `docforge_get_changeset_diff` (and of `docforge changeset diff --json`); `before`/`after` are
 * the node as the operation sees it (null: absent), the rest says what differs between them.
 */
export interface ChangeEntry {
  index: number;
  op: string;
  node_id: string | null;
  before_path: string | null;
  after_path: string | null;
  before: FrontMatter | null;
  after: FrontMatter | null;
  /** false when the operation cannot be projected: it would change nothing, `refusal` says why, and no change is listed. */
  projected: boolean;
  /** Why the operation is not projected (or its node not read back): the error finding's code and message; null otherwise. */
  refusal: { code: string; message: string } | null;
  /** Declared relations the operation adds to the node (`{relation, target_id}`, relation then declared order). */
  relations_added: RelationRef[];
  /** Declared relations the operation removes from the node. */
  relations_removed: RelationRef[];
  /** Unified diff of the body (empty when the body is unchanged). */
  body_diff: string;
  /** The source files the operation rewrites, with their text diffs (empty when not projected). */
  file_diffs: FileDiff[];
}

function sortedRelations(relations: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.keys(relations).sort().map((r) => [r, [...new Set(ownValue(relations, r) ?? [])]]));
}

function frontMatter(state: NodeState): FrontMatter {
  const node = state.node;
  return { id: node.id, kind: node.kind, title: node.title, family: node.family, authority: node.authority, status: node.status, tags: node.tags, source_path: node.source_path, relations: sortedRelations(state.relations) };
}

function stateLabel(state: NodeState | null): string {
  return state === null ? '/dev/null' : `${state.path}#${state.node.id}`;
}

/** Relations of `from` that `to` lacks, as `{relation, target_id}` in relation order. */
function relationsMissing(from: Record<string, string[]>, to: Record<string, string[]>): RelationRef[] {
  const missing: RelationRef[] = [];
  for (const [relation, targets] of Object.entries(from)) for (const t of targets) if (!(ownValue(to, relation) ?? []).includes(t)) missing.push({ relation, target_id: t });
  return missing;
}

/** Lines of context around each change of a file diff. */
const CONTEXT = 3;
/** Characters compared at once while looking for the common head and tail of two texts. */
const BLOCK = 4096;

/** The offset `count` line starts before `at` (a line start), or 0. */
function linesBack(text: string, at: number, count: number): number {
  let p = at;
  for (let i = 0; i < count && p > 0; i += 1) p = text.lastIndexOf('\n', p - 2) + 1;
  return p;
}

/** The offset `count` line breaks after `at` (a line start), or the text's end. */
function linesForward(text: string, at: number, count: number): number {
  let p = at;
  for (let i = 0; i < count && p < text.length; i += 1) {
    const next = text.indexOf('\n', p);
    p = next < 0 ? text.length : next + 1;
  }
  return p;
}

/** How many line breaks `text` holds before `end`. */
function lineBreaks(text: string, end: number): number {
  let count = 0;
  for (let p = text.indexOf('\n'); p >= 0 && p < end; p = text.indexOf('\n', p + 1)) count += 1;
  return count;
}

/**
 * A unified diff headed `--- before`/`+++ after` (3 lines of context), the same text jsdiff's
 * full diff gives. The common leading and trailing whole lines are cut (keeping the context)
 * before diffing, so a one-record edit of a large records file costs a scan, not a diff of the
 * whole file; the hunk line numbers are restored.
 */
function unifiedDiff(beforeLabel: string, afterLabel: string, before: string, after: string): string {
  const shorter = Math.min(before.length, after.length);
  let head = 0;
  // Whole equal blocks first (a native comparison), then character by character.
  while (head + BLOCK <= shorter && before.slice(head, head + BLOCK) === after.slice(head, head + BLOCK)) head += BLOCK;
  while (head < shorter && before.charCodeAt(head) === after.charCodeAt(head)) head += 1;
  head = before.lastIndexOf('\n', head - 1) + 1; // back to a line start common to both
  let tail = 0;
  while (tail + BLOCK <= shorter - head && before.slice(before.length - tail - BLOCK, before.length - tail) === after.slice(after.length - tail - BLOCK, after.length - tail)) tail += BLOCK;
  while (tail < shorter - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail += 1;
  // The first line start after a line break inside the common tail: a line start in both texts,
  // at the same distance from their ends (or the end: no common whole lines).
  let tailA = Math.min(before.length, before.length - tail + 1);
  while (tailA < before.length && before.charCodeAt(tailA - 1) !== 10) tailA += 1;
  const tailLength = before.length - tailA;
  const startA = linesBack(before, head, CONTEXT);
  const endA = linesForward(before, tailA, CONTEXT);
  const endB = linesForward(after, after.length - tailLength, CONTEXT);
  const patch = diffLib().structuredPatch(beforeLabel, afterLabel, before.slice(startA, endA), after.slice(startA, endB), undefined, undefined, { context: CONTEXT });
  const offset = lineBreaks(before, startA);
  for (const hunk of patch.hunks) {
    hunk.oldStart += offset;
    hunk.newStart += offset;
  }
  const text = diffLib().formatPatch(patch);
  const at = text.indexOf('--- ');
  return at < 0 ? text : text.slice(at);
}

/** The text diffs of an operation's rewritten files; a file removed and one created with the same text pair up as a rename. */
function fileDiffs(files: readonly FileChange[]): FileDiff[] {
  const diffs: FileDiff[] = [];
  const paired = new Set<FileChange>();
  for (const file of files) {
    if (paired.has(file)) continue;
    const partner = file.before === null && file.after !== null ? files.find((f) => f !== file && !paired.has(f) && f.after === null && f.before === file.after)
      : file.after === null && file.before !== null ? files.find((f) => f !== file && !paired.has(f) && f.before === null && f.after === file.before) : undefined;
    if (partner !== undefined) {
      paired.add(partner);
      const [from, to] = file.before === null ? [partner, file] : [file, partner];
      diffs.push({ before_path: from.path, after_path: to.path, diff: unifiedDiff(from.path, to.path, from.before!, to.after!) });
      continue;
    }
    const beforePath = file.before === null ? null : file.path;
    const afterPath = file.after === null ? null : file.path;
    diffs.push({ before_path: beforePath, after_path: afterPath, diff: unifiedDiff(beforePath ?? '/dev/null', afterPath ?? '/dev/null', file.before ?? '', file.after ?? '') });
  }
  return diffs;
}

/**
 * The change entries of a projection, in operation order: every projected operation of every
 * kind lists the fields, declared relations, body and file text it changes. An operation that is
 * not projected (or whose node is not read back) lists no node change, only its `refusal`.
 */
export function changeEntries(outcomes: readonly OperationOutcome[]): ChangeEntry[] {
  return outcomes.map((o) => {
    // A missing `after` is a removal only for a projected delete; otherwise nothing is known to change.
    const comparable = o.projected && (o.after !== null || o.op === 'node_delete');
    const before = o.before ? frontMatter(o.before) : null;
    const after = o.after ? frontMatter(o.after) : null;
    const beforeBody = o.before?.node.body ?? '';
    const afterBody = o.after?.node.body ?? '';
    const bodyDiff = !comparable || beforeBody === afterBody ? '' : diffLib().createTwoFilesPatch(stateLabel(o.before), stateLabel(o.after), beforeBody, afterBody, undefined, undefined, { context: 3 });
    return {
      index: o.index,
      op: o.op,
      node_id: o.new_node_id ?? o.node_id,
      before_path: o.before?.path ?? null,
      after_path: o.after?.path ?? null,
      before,
      after,
      projected: o.projected,
      refusal: o.refusal,
      relations_added: comparable ? relationsMissing(after?.relations ?? {}, before?.relations ?? {}) : [],
      relations_removed: comparable ? relationsMissing(before?.relations ?? {}, after?.relations ?? {}) : [],
      body_diff: bodyDiff,
      file_diffs: o.projected ? fileDiffs(o.files) : [],
    };
  });
}

/** One `canonical_json_chunk` page of an oversized payload. */
export interface PayloadChunk {
  index: number;
  count: number;
  /** ASCII slice of the payload's canonical JSON (non-ASCII escaped as `\uXXXX`). */
  data: string;
  /** SHA-256 of the complete ASCII payload. */
  payload_sha256: string;
  payload_chars: number;
}

/** Canonical JSON with every non-ASCII character escaped, so chunks concatenate byte-exactly. */
export function asciiCanonicalJson(value: unknown): string {
  return canonicalJson(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Splits a payload (`{operations, changes}`) into chunks of at most `chunkChars` ASCII characters.
 * Concatenating every chunk's `data`, checking SHA-256 against `payload_sha256` and parsing the
 * JSON reconstructs the exact payload without duplication.
 */
export function chunkPayload(payload: unknown, chunkChars: number): PayloadChunk[] {
  const text = asciiCanonicalJson(payload);
  const hash = sha256(text);
  const size = Math.max(1, chunkChars);
  const count = Math.max(1, Math.ceil(text.length / size));
  const chunks: PayloadChunk[] = [];
  for (let i = 0; i < count; i += 1) chunks.push({ index: i, count, data: text.slice(i * size, (i + 1) * size), payload_sha256: hash, payload_chars: text.length });
  return chunks;
}
