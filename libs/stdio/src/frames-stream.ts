/**
 * The MCP frames stream of a `docforge-mcp` server run by its launcher (break-it trial of stop 45): the launcher
 * (apps/mcp-server/bin/docforge-mcp.js) starts the server as a child whose file descriptor 3 is the
 * client's standard output and whose file descriptor 1 is the client's standard error, so a direct
 * write to fd 1 (`fs.writeSync(1, …)`, a spawned process with inherited stdio) by a project-owned
 * adapter, in any thread or descendant process, lands on stderr and never between MCP frames.
 */
import { createWriteStream, fstatSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { isatty, WriteStream } from 'node:tty';

/** The part of a libuv stream handle used here (Node's `Pipe` and `TCP` handles have it). */
interface BlockingHandle {
  setBlocking?(blocking: boolean): number;
}

/**
 * A writable over file descriptor `fd` for MCP frames, chosen by `fstat`: a pipe or socket (MCP
 * clients usually give a socketpair) gets a `net.Socket` made blocking, as Node's own stdout is on
 * Linux, so a frame written before `process.exit` is not lost; a terminal gets a `tty.WriteStream`;
 * anything else (a regular file, /dev/null) a file write stream that leaves the descriptor open.
 * @throws the `fstat` error (EBADF) when `fd` is not open
 */
export function framesStream(fd: number): Writable {
  const stat = fstatSync(fd);
  if (stat.isFIFO() || stat.isSocket()) {
    const socket = new Socket({ fd, readable: false, writable: true });
    const handle = (socket as unknown as { _handle?: BlockingHandle })._handle;
    handle?.setBlocking?.(true);
    return socket;
  }
  if (isatty(fd)) return new WriteStream(fd);
  return createWriteStream('', { fd, autoClose: false });
}
