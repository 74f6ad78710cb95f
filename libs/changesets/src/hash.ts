/** The reviewable hash of a changeset (issue 10: `changeset_sha256` covers id, writer, base and operations only). */
import { canonicalJson, sha256 } from '@docforge/core';
import type { Operation } from './types.js';

/**
 * SHA-256 hex of the canonical JSON (RFC 8785) of `{id, writer, base, operations}`. Status,
 * findings and receipts stay outside, so a status change never changes the hash a reviewer
 * approved; anyone can recompute it from the stored document.
 */
export function changesetSha256(doc: { id: string; writer: string; base: string; operations: readonly Operation[] }): string {
  return sha256(canonicalJson({ id: doc.id, writer: doc.writer, base: doc.base, operations: doc.operations }));
}

/** SHA-256 hex of one operation's canonical JSON (operation summaries and diff chunks). */
export function operationSha256(op: Operation): string {
  return sha256(canonicalJson(op));
}
