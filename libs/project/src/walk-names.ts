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

/**
 * Sources whose paths differ only by Unicode normal form (`café.md` written in NFC and in NFD, as
 * a copy from macOS can leave beside the original on Linux): paths, links and ids compare in NFC
 * (issue 30 item 3), so links and path-derived ids cannot tell them apart. Both stay sources (each
 * file is read by its real name, so removing either changes the source identity); one error
 * `path_normalization_conflict` per extra file names both paths, with their code points where they
 * differ. Linear in the entries; only non-ASCII paths can conflict.
 */
export function normalizationConflicts(paths: readonly string[]): SourceIssue[] {
  const byNormal = new Map<string, string>();
  const issues: SourceIssue[] = [];
  for (const p of paths) {
    if (!/[^\u0000-\u007f]/.test(p)) continue;
    const normal = p.normalize('NFC');
    const first = byNormal.get(normal);
    if (first === undefined) {
      byNormal.set(normal, p);
      continue;
    }
    const shown = (s: string): string => JSON.stringify(s).replace(/[^\u0000-\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    issues.push(issue('error', 'path_normalization_conflict', p,
      `${p}: this file name and ${first} differ only by Unicode normalisation (${shown(p)} and ${shown(first)}); DocForge compares paths, links and ids in NFC, so links and ids cannot tell them apart: rename or remove one`));
  }
  return issues;
}
