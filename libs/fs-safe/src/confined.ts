import { Buffer } from 'node:buffer';
import { closeSync, constants as fsConstants, fstatSync, openSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { DocforgeError, errors } from '@docforge/core';
import { readOpenFile } from './read-fd.js';

/** Whether `candidate` is `root` itself or lies below it (both absolute, resolved). */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

function outside(rel: string, why: string): DocforgeError {
  return errors.pathOutsideRoot(`${JSON.stringify(rel)} ${why}; nothing was read or written.`, { path: rel });
}

/**
 * Resolves a root-relative path to its real absolute path and proves it stays under the root after
 * every symbolic link is followed (DESIGN.md section 7: "Paths are resolved and checked after
 * following symlinks"). The path need not exist: the deepest existing ancestor is resolved and the
 * missing rest appended, so the result is also the place a new file would be written.
 * @param root project (or state) root; resolved with realpath
 * @param rel POSIX or native relative path; `..` segments, absolute paths and NUL bytes are refused
 * @returns the real absolute path
 * @throws DocforgeError `path_outside_root` for an absolute path, a `..` segment, a NUL byte, or a
 *   path that resolves outside the root through a symbolic link; the Node errno error when the
 *   root itself cannot be resolved
 */
export function resolveConfined(root: string, rel: string): string {
  if (rel.length === 0) throw outside(rel, 'is empty');
  if (rel.includes('\0')) throw outside(rel, 'contains a NUL byte');
  if (path.isAbsolute(rel) || path.posix.isAbsolute(rel) || /^[a-zA-Z]:/.test(rel)) throw outside(rel, 'is absolute, not relative to the root');
  const segments = rel.split(/[\\/]+/).filter((s) => s.length > 0 && s !== '.');
  if (segments.includes('..')) throw outside(rel, 'contains a ".." segment');
  const rootReal = realpathSync(root);
  // Resolve the deepest existing ancestor; anything below it does not exist yet and has no links.
  let existing = segments.length;
  let real: string | null = null;
  while (existing >= 0) {
    try {
      real = realpathSync(path.join(rootReal, ...segments.slice(0, existing)));
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      existing -= 1;
    }
  }
  const resolved = path.join(real ?? rootReal, ...segments.slice(existing));
  if (!isInside(rootReal, resolved)) throw outside(rel, 'resolves outside the root through a symbolic link');
  return resolved;
}

/** Options of {@link readConfined}. */
export interface ReadConfinedOptions {
  /** Largest accepted file size in bytes; default 16 MiB. */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads a regular file under a root after {@link resolveConfined} proved its real path is inside
 * the root. The file is opened with O_NOFOLLOW and checked again with fstat, so a symbolic link
 * swapped in after resolution is refused rather than followed.
 * @returns the file's bytes (call `.toString('utf8')` for text)
 * @throws DocforgeError `path_outside_root` (see {@link resolveConfined}, or a link swapped in);
 *   `invalid_arguments` when the path is not a regular file or is larger than `maxBytes`;
 *   the Node errno error (`ENOENT`, `EACCES`, …) when the file cannot be opened or read
 */
export function readConfined(root: string, rel: string, options: ReadConfinedOptions = {}): Buffer {
  const file = resolveConfined(root, rel);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let fd: number;
  try {
    fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw outside(rel, 'became a symbolic link while it was opened');
    throw error;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw errors.invalidArguments(`${JSON.stringify(rel)} is not a regular file.`, { path: rel });
    if (st.size > maxBytes) throw errors.invalidArguments(`${JSON.stringify(rel)} is ${st.size} bytes, above the ${maxBytes}-byte limit.`, { path: rel, size: st.size, max_bytes: maxBytes });
    return readOpenFile(fd, st.size);
  } finally {
    closeSync(fd);
  }
}
