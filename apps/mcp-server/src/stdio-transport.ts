/**
 * The MCP stdio transport with one write queue (issue 8 follow-up 7). The SDK's
 * `StdioServerTransport.send` adds one `drain` listener per message written while the stream is
 * above its high-water mark, so 11 concurrent large responses trip Node's
 * MaxListenersExceededWarning (and pending sends were unordered waiters on one event). Here every
 * send joins one FIFO queue: a message is written only after the previous one was accepted, and at
 * most one `drain` wait exists at a time. Backpressure is kept: nothing is written past a full
 * stream until it drains.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** {@link StdioServerTransport} whose sends share one ordered write queue with a single drain wait. */
export class QueuedStdioServerTransport extends StdioServerTransport {
  readonly #out: Writable;
  /** Settles when every message queued so far was accepted by the stream. */
  #tail: Promise<void> = Promise.resolve();

  /** @param stdin MCP input stream; @param stdout the one writer of MCP frames (guardStdout's private stream) */
  constructor(stdin: Readable, stdout: Writable) {
    super(stdin, stdout);
    this.#out = stdout;
  }

  /**
   * Queues one JSON-RPC message; resolves once the stream accepted it (immediately, or after its
   * single `drain`). Rejects when the stream fails or closes while waiting.
   */
  override send(message: JSONRPCMessage): Promise<void> {
    const json = serializeMessage(message);
    const write = async (): Promise<void> => {
      if (this.#out.destroyed) throw new Error('MCP output stream is closed');
      if (!this.#out.write(json)) await drained(this.#out);
    };
    const sent = this.#tail.then(write);
    // A failed write does not block the messages queued after it.
    this.#tail = sent.catch(() => undefined);
    return sent;
  }
}

/** Settles on the stream's next `drain` (or rejects on `close`), removing both listeners either way. */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error: Error | null): void => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = (): void => settle(null);
    const onClose = (): void => settle(new Error('MCP output stream closed'));
    out.on('drain', onDrain);
    out.on('close', onClose);
  });
}
