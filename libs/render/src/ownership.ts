/**
 * Whether an existing render output is DocForge's own (break-it trial, issue 30): `docforge render`
 * replaces a file at a declared output only when DocForge wrote it and nobody changed it since, so a
 * hand-written `README.html` at a declared path is never lost. Two proofs, either suffices:
 * - the view's render receipt (`<state>/renders/<view>.json`) names this output and its
 *   `output_sha256` is the file's SHA-256 (the render that wrote it, on this machine);
 * - the file carries DocForge's generator marker, `<meta name="generator" content="DocForge
 *   render; sha256=HEX">`, whose HEX is the SHA-256 of the file without that line. It is stamped
 *   into every rendered document ({@link stampGenerator}), so a committed output in a fresh clone
 *   (no state dir, no receipt) still renders, and a hand edit breaks it.
 */
import { readFileSync } from 'node:fs';
import { errors, sha256, type DocforgeError } from '@docforge/core';
import { lstatOrNull } from './output-path.js';
import { readRenderReceipt } from './receipt.js';

const MARKER_PREFIX = '<meta name="generator" content="DocForge render; sha256=';
const MARKER_SUFFIX = '">';
/** Where the marker line goes: right after the charset line of {@link htmlDocument}. */
const ANCHOR = '<meta charset="utf-8">\n';
/** The marker is looked for only in the first bytes of a file (it is the document's fifth line). */
const MARKER_WINDOW = 1024;
/** Largest existing output read to prove ownership, in bytes (a larger file is treated as foreign). */
export const MAX_OWNED_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * Adds the generator marker line after the charset line of a complete HTML document (the marker
 * carries the SHA-256 of the document without it). A document without the charset line is returned
 * unchanged. Deterministic.
 */
export function stampGenerator(html: string): string {
  const at = html.indexOf(ANCHOR);
  if (at < 0) return html;
  const end = at + ANCHOR.length;
  return `${html.slice(0, end)}${MARKER_PREFIX}${sha256(html)}${MARKER_SUFFIX}\n${html.slice(end)}`;
}

/** What the marker of a file's text says: absent, valid (the rest hashes to it) or broken (edited). */
export function generatorMarker(text: string): 'absent' | 'valid' | 'broken' {
  const start = text.indexOf(MARKER_PREFIX);
  if (start < 0 || start > MARKER_WINDOW) return 'absent';
  const end = text.indexOf('\n', start);
  if (end < 0) return 'broken';
  const line = text.slice(start, end);
  const hash = line.slice(MARKER_PREFIX.length, line.length - MARKER_SUFFIX.length);
  if (!line.endsWith(MARKER_SUFFIX) || !/^[0-9a-f]{64}$/.test(hash)) return 'broken';
  return sha256(text.slice(0, start) + text.slice(end + 1)) === hash ? 'valid' : 'broken';
}

/**
 * Why the existing file at a view's output is not DocForge's to replace, or null when it is absent
 * or DocForge's own (see the module comment). Reads the file once (lstat first; the output path was
 * already checked by outputProblem, so it is a regular file reached through no link).
 * @param stateDir absolute state dir (receipts)
 * @param target absolute output path
 */
export function foreignOutputReason(stateDir: string, viewId: string, output: string, target: string): string | null {
  const st = lstatOrNull(target);
  if (st === null) return null;
  if (st.size > MAX_OWNED_OUTPUT_BYTES) return `the existing file is larger than ${MAX_OWNED_OUTPUT_BYTES} bytes, so DocForge cannot show it wrote it`;
  const bytes = readFileSync(target);
  const receipt = readRenderReceipt(stateDir, viewId);
  const known = receipt.state === 'ok' && receipt.receipt.output === output;
  if (known && receipt.receipt.output_sha256 === sha256(bytes)) return null;
  const marker = generatorMarker(bytes.toString('utf8'));
  if (marker === 'valid') return null;
  if (known || marker === 'broken') return 'the existing file was changed since DocForge wrote it';
  return 'the existing file was not written by DocForge (no render receipt records it and it has no DocForge generator marker)';
}

/**
 * The `render_output_foreign` error of a view whose output file DocForge did not write, or null.
 * @see foreignOutputReason
 */
export function foreignOutputError(stateDir: string, viewId: string, output: string, target: string): DocforgeError | null {
  const reason = foreignOutputReason(stateDir, viewId, output, target);
  return reason === null ? null : errors.renderOutputForeign(viewId, output, reason);
}
