import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Permission bits of the written file (applied with fchmod, so the umask does not narrow them). Default 0o644 less the umask. */
  mode?: number;
}

/**
 * Writes a file atomically and durably (DESIGN.md section 4): the data goes to a temp file in the
 * same directory (`.<name>.<pid>.<random>.tmp`), which is fsynced, renamed over `file`, and then
 * the directory is fsynced so the rename survives a crash. Readers see the old or the new content,
 * never a mix. On any failure the temp file is removed and `file` keeps its old content.
 * @param file absolute path of the target
 * @param data UTF-8 text or bytes
 * @throws the underlying Node errno error (`ENOENT` for a missing directory, `EISDIR`, `ENOSPC`, …)
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', options.mode ?? 0o644);
  try {
    try {
      if (options.mode !== undefined) fchmodSync(fd, options.mode);
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  fsyncDirectory(dir);
}

/**
 * fsyncs a directory so a rename or unlink inside it is durable. Filesystems that refuse fsync on
 * a directory are ignored: the rename itself is still atomic.
 */
export function fsyncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // EINVAL/EISDIR on some filesystems: nothing more can be done.
  } finally {
    closeSync(fd);
  }
}
