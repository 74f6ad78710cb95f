/**
 * Version-1 render publication receipts (issue 11 item 5; protocol/schemas/v1/render-receipt):
 * one JSON file per declared view under `<state>/renders/<view>.json`, written atomically after
 * the view's output. Reading is bounded: an lstat, a size check, one read of at most
 * {@link MAX_RENDER_RECEIPT_BYTES}, one schema validation. A missing, oversized, unparsable or
 * schema-invalid receipt is reported as such, never thrown.
 */
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hashJson } from '@docforge/core';
import type { ViewDeclaration } from '@docforge/project';
import { validateRenderReceipt, type RenderReceipt } from '@docforge/protocol';

/** Largest receipt file read, in bytes. */
export const MAX_RENDER_RECEIPT_BYTES = 64 * 1024;
/** Directory of the receipts inside the state dir. */
export const RENDERS_DIR = 'renders';

export type { RenderReceipt };

/** Stat identity of a file (lstat): size in bytes, mtime in nanoseconds and inode as decimal strings. */
export interface FileStat {
  size: number;
  mtime_ns: string;
  ino: string;
}

/** The lstat identity of a regular file, or null when it is missing or not a regular file. */
export function fileStat(file: string): FileStat | null {
  try {
    const st = lstatSync(file, { bigint: true });
    if (!st.isFile()) return null;
    return { size: Number(st.size), mtime_ns: st.mtimeNs.toString(), ino: st.ino.toString() };
  } catch {
    return null;
  }
}

/** The receipt file of a view: `<stateDir>/renders/<view id>.json` (view ids are safe file names). */
export function receiptPath(stateDir: string, viewId: string): string {
  return path.join(stateDir, RENDERS_DIR, `${viewId}.json`);
}

/** SHA-256 of the canonical JSON of a parsed view declaration (what a receipt binds). */
export function viewHash(view: ViewDeclaration): string {
  return hashJson(view);
}

/** What reading a receipt found. */
export type ReceiptRead = { state: 'ok'; receipt: RenderReceipt } | { state: 'missing' } | { state: 'corrupt'; reason: string };

/**
 * Reads and validates one view's receipt (bounded; never throws).
 * @param viewId the view the receipt must name (a receipt naming another view is corrupt)
 */
export function readRenderReceipt(stateDir: string, viewId: string): ReceiptRead {
  const file = receiptPath(stateDir, viewId);
  let size: number;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return { state: 'corrupt', reason: 'the receipt is not a regular file' };
    size = st.size;
  } catch {
    return { state: 'missing' };
  }
  if (size > MAX_RENDER_RECEIPT_BYTES) return { state: 'corrupt', reason: `the receipt is larger than ${MAX_RENDER_RECEIPT_BYTES} bytes` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return { state: 'corrupt', reason: 'the receipt is not JSON' };
  }
  if (!validateRenderReceipt(parsed)) return { state: 'corrupt', reason: 'the receipt does not match the render receipt schema' };
  if (parsed.view !== viewId) return { state: 'corrupt', reason: `the receipt names view "${parsed.view}"` };
  return { state: 'ok', receipt: parsed };
}
