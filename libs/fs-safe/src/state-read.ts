/**
 * Reads of the state directory's own files (changeset documents, the application journal and its
 * backups, the epoch token, `current.json`, identity aliases) without following a symbolic link
 * (break-it trial: `ln -s /etc/passwd <state>/changesets/cs-link.json` made the store quote the
 * start of /etc/passwd in its `changeset_corrupt` message). The file is opened with `O_NOFOLLOW`
 * and checked with `fstat` on that descriptor, so a link or a non-file swapped in between is never
 * read: only a regular file that the state dir itself holds.
 */
import { Buffer } from 'node:buffer';
import { closeSync, constants as C, fstatSync, openSync } from 'node:fs';
import { readOpenFile } from './read-fd.js';

/** Why a state file was not read: `ENOTREG` (a link, a folder or another non-file) or `EFBIG`. */
export class StateFileError extends Error {
  /** `ENOTREG` or `EFBIG`, like an errno code. */
  readonly code: 'ENOTREG' | 'EFBIG';
  constructor(code: 'ENOTREG' | 'EFBIG', message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Reads a regular file of the state directory, never through a symbolic link (the last component;
 * the state dir itself is checked at start by `assertStateDir`).
 * @param file absolute path of the file
 * @param maxBytes largest size read (bytes); a larger file is refused unread
 * @returns the bytes
 * @throws StateFileError `ENOTREG` for a symbolic link (ELOOP), a folder or another non-file, whose
 *   message names the path only (never the content); `EFBIG` over `maxBytes`; Node's errno errors
 *   (ENOENT for a missing file) as raised
 */
export function readStateFile(file: string, maxBytes = 256 * 1024 * 1024): Buffer {
  let fd: number;
  try {
    fd = openSync(file, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new StateFileError('ENOTREG', `${file} is a symbolic link; state files are read only as plain files`);
    throw error;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new StateFileError('ENOTREG', `${file} is not a regular file`);
    if (st.size > maxBytes) throw new StateFileError('EFBIG', `${file} is ${st.size} bytes, over the ${maxBytes}-byte limit`);
    return readOpenFile(fd, st.size);
  } finally {
    closeSync(fd);
  }
}

/** {@link readStateFile} decoded as UTF-8. Same errors. */
export function readStateText(file: string, maxBytes?: number): string {
  return readStateFile(file, maxBytes).toString('utf8');
}
