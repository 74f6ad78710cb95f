import { Buffer } from 'node:buffer';
import { readSync } from 'node:fs';

/**
 * Reads up to `size` bytes of an open file from offset 0: the bytes read, fewer when the file
 * shrank meanwhile. Shared by the confined reads (confined.ts) and apply's folder-handle child
 * (dir-child.ts), which both check the file with `fstat` on the descriptor they read.
 * @param fd an open file descriptor
 * @param size the size `fstat` reported, in bytes
 * @throws Node's errno errors from `read(2)`
 */
export function readOpenFile(fd: number, size: number): Buffer {
  const buffer = Buffer.alloc(size);
  let read = 0;
  while (read < size) {
    const n = readSync(fd, buffer, read, size - read, read);
    if (n === 0) break;
    read += n;
  }
  return read === size ? buffer : buffer.subarray(0, read);
}
