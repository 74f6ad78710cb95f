/**
 * The review diff (contract: `docforge_get_changeset_diff`): per operation, the node's front
 * matter before and after and a unified text diff of its body, from the projection (each
 * operation seen after the earlier ones). Large diffs are paged by the caller; an individually
 * oversized diff becomes `canonical_json_chunk` pages ({@link chunkPayload}).
 */
import { createRequire } from 'node:module';
import type * as Diff from 'diff';
import { canonicalJson, sha256, type GraphNode } from '@docforge/core';
import type { NodeState, OperationOutcome } from './projection.js';

let diffModule: typeof Diff | null = null;
/** The `diff` package (its CommonJS build), required on the first review diff (issue 14): a server start loads none of it. */
function diffLib(): typeof Diff {
  diffModule ??= createRequire(import.meta.url)('diff') as typeof Diff;
  return diffModule;
}

/** The reviewable metadata of a node (its front matter fields, relations from the projection). */
export interface FrontMatter {
  id: string;
  kind: string;
  title: string;
  family: string | null;
  authority: string | null;
  status: string | null;
  tags: string[];
  source_path: string;
}

/** One operation's change. */
export interface ChangeEntry {
  index: number;
  op: string;
  node_id: string | null;
  before_path: string | null;
  after_path: string | null;
  before: FrontMatter | null;
  after: FrontMatter | null;
  /** Unified diff of the body (empty when the body is unchanged). */
  body_diff: string;
}

function frontMatter(node: GraphNode): FrontMatter {
  return { id: node.id, kind: node.kind, title: node.title, family: node.family, authority: node.authority, status: node.status, tags: node.tags, source_path: node.source_path };
}

function stateLabel(state: NodeState | null): string {
  return state === null ? '/dev/null' : `${state.path}#${state.node.id}`;
}

/** The change entries of a projection, in operation order. */
export function changeEntries(outcomes: readonly OperationOutcome[]): ChangeEntry[] {
  return outcomes.map((o) => {
    const beforeBody = o.before?.node.body ?? '';
    const afterBody = o.after?.node.body ?? '';
    const bodyDiff = beforeBody === afterBody ? '' : diffLib().createTwoFilesPatch(stateLabel(o.before), stateLabel(o.after), beforeBody, afterBody, undefined, undefined, { context: 3 });
    return {
      index: o.index,
      op: o.op,
      node_id: o.new_node_id ?? o.node_id,
      before_path: o.before?.path ?? null,
      after_path: o.after?.path ?? null,
      before: o.before ? frontMatter(o.before.node) : null,
      after: o.after ? frontMatter(o.after.node) : null,
      body_diff: bodyDiff,
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
