/**
 * File names that are not UTF-8 (walk.ts): shown by their bytes and reported as `invalid_encoding`
 * findings, since a name decoded with U+FFFD names no file.
 */
import { readdirSync, lstatSync } from 'node:fs';
import { Buffer, isUtf8 } from 'node:buffer';
import { sep } from 'node:path';
import type { SourceIssue } from '@docforge/core';
import { extensionOf, issue } from './walk-rules.js';

/**
 * Escapes a file name's bytes for display: valid UTF-8 stays as text, every byte that is not part
 * of a valid UTF-8 sequence becomes `\xHH` (lowercase hex), and a backslash becomes `\\`.
 * `lat\xe9n.md` names the Latin-1 file `latén.md`.
 */
export function escapeNameBytes(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    const size = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    const chunk = size === 0 ? null : bytes.subarray(i, i + size);
    if (chunk !== null && chunk.length === size && isUtf8(chunk)) {
      const text = Buffer.from(chunk).toString('utf8');
      out += text === '\\' ? '\\\\' : text;
      i += size;
    } else {
      out += `\\x${lead.toString(16).padStart(2, '0')}`;
      i += 1;
    }
  }
  return out;
}

/**
 * The entries of a directory whose names are not UTF-8 (read again with `encoding: 'buffer'`):
 * an `invalid_encoding` error issue per such directory, or per file with a source extension,
 * naming the escaped bytes ({@link escapeNameBytes}); and the lossy (U+FFFD) forms to skip, which
 * name no file. Never throws.
 */
export function undecodableNames(dirAbs: string, dirRel: string, extensions: ReadonlySet<string>, role: 'content' | 'code'): { issues: SourceIssue[]; lossy: Set<string> } {
  const issues: SourceIssue[] = [];
  const lossy = new Set<string>();
  let raw: Buffer[];
  try {
    raw = readdirSync(dirAbs, { encoding: 'buffer' });
  } catch {
    return { issues, lossy };
  }
  const valid = new Set(raw.filter((bytes) => isUtf8(bytes)).map((bytes) => bytes.toString('utf8')));
  for (const bytes of raw) {
    if (isUtf8(bytes)) continue;
    const decoded = bytes.toString('utf8');
    if (!valid.has(decoded)) lossy.add(decoded);
    let isDir = false;
    try {
      isDir = lstatSync(Buffer.concat([Buffer.from(`${dirAbs}${sep}`), bytes])).isDirectory();
    } catch {
      continue; // vanished
    }
    if (!isDir && !extensions.has(extensionOf(decoded))) continue;
    const shown = `${dirRel === '' ? '' : `${dirRel}/`}${escapeNameBytes(bytes)}`;
    const what = isDir ? 'directory' : `${role} source`;
    issues.push(issue('error', 'invalid_encoding', shown, `${shown}: the ${what} name is not valid UTF-8 (bytes shown as \\xHH); not indexed (rename it to UTF-8)`));
  }
  return { issues, lossy };
}
