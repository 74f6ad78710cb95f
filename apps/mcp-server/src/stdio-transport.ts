/**
 * The MCP stdio transport of `docforge-mcp`: its own frame reading (stdio-frames.ts) and one write
 * queue.
 *
 * Reading (issue 30 item 18): the SDK's `StdioServerTransport` closed itself when a message passed
 * its 10 MiB buffer, and the server then exited 0 without a word. Here a message of up to
 * {@link MAX_REQUEST_BYTES} is read; a longer one is answered with JSON-RPC error -32600, data
 * `{code: "request_too_large", limit_bytes}` and the request id found in its first 64 KiB (null
 * otherwise), and the server keeps serving. A line that is not JSON is answered with -32700 and one
 * that is not a JSON-RPC message with -32600 (data `{code: "invalid_request"}`), instead of being
 * dropped while the client waits forever.
 *
 * Writing (issue 8 follow-up 7): the SDK's `send` added one `drain` listener per message written
 * while the stream was above its high-water mark, so 11 concurrent large responses tripped Node's
 * MaxListenersExceededWarning. Here every send joins one FIFO queue: a message is written only after
 * the previous one was accepted, and at most one `drain` wait exists at a time. Backpressure is kept.
 */
import type { Readable, Writable } from 'node:stream';
import type { Logger } from 'pino';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, InitializeRequestSchema, JSONRPCMessageSchema, ListToolsRequestSchema, PingRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { FrameReader, ID_SCAN_BYTES, MAX_REQUEST_BYTES, requestIdOf, type Frame, type FrameRequestId } from './stdio-frames.js';

/** JSON-RPC 2.0 error codes this transport answers with. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/**
 * The SDK's schemas of the requests this server answers. The SDK checks a request's params only
 * inside its handler and answers a mismatch with -32603 Internal error and a raw zod dump; here a
 * request whose params do not match is answered -32602 Invalid params with the fields at fault
 * (break-it trial: `tools/call` with `"arguments": "str"`, `"name": 5`, no params; `initialize`
 * with `params: {}`), and never reaches the server.
 */
const REQUEST_SCHEMAS: ReadonlyMap<string, RequestSchema> = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['ping', PingRequestSchema],
]);

/** What this transport needs of an SDK request schema: zod's `safeParse`. */
interface RequestSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** A request of a known method whose params its schema refuses: its id, a message naming the fields, and each error; null otherwise. */
function malformedParams(message: JSONRPCMessage): { id: string | number; method: string; message: string; errors: { path: string; message: string }[] } | null {
  if (!('method' in message) || !('id' in message)) return null;
  const schema = REQUEST_SCHEMAS.get(message.method);
  if (schema === undefined) return null;
  const checked = schema.safeParse(message);
  if (checked.success) return null;
  const errors = (checked.error?.issues ?? []).slice(0, 10).map((issue) => ({ path: ['', ...issue.path.map(String)].join('/'), message: issue.message }));
  const listed = errors.map((e) => `${e.path || '/'}: ${e.message}`).join('; ');
  return { id: message.id, method: message.method, message: `Invalid params of ${message.method}: ${listed}`, errors };
}

/** Options of {@link QueuedStdioServerTransport}. */
export interface StdioTransportOptions {
  /** Longest message read, in bytes (default {@link MAX_REQUEST_BYTES}). */
  limitBytes?: number;
  /** Where refused frames are logged (stderr). */
  logger?: Logger;
}

/** The stdio server transport of docforge-mcp: bounded frame reading and one ordered write queue. */
export class QueuedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #in: Readable;
  readonly #out: Writable;
  readonly #reader: FrameReader;
  readonly #logger: Logger | null;
  #started = false;
  /** Settles when every message queued so far was accepted by the stream. */
  #tail: Promise<void> = Promise.resolve();

  /** @param stdin MCP input stream; @param stdout the one writer of MCP frames (guardStdout's private stream) */
  constructor(stdin: Readable, stdout: Writable, options: StdioTransportOptions = {}) {
    this.#in = stdin;
    this.#out = stdout;
    this.#reader = new FrameReader(options.limitBytes ?? MAX_REQUEST_BYTES);
    this.#logger = options.logger ?? null;
  }

  /** The longest message read, in bytes. */
  get limitBytes(): number {
    return this.#reader.limitBytes;
  }

  /**
   * Starts reading stdin.
   * @throws Error when started twice (the SDK's `connect` starts it)
   */
  async start(): Promise<void> {
    if (this.#started) throw new Error('QueuedStdioServerTransport already started');
    this.#started = true;
    this.#in.on('data', this.#onData);
    this.#in.on('error', this.#onStreamError);
  }

  /** Stops reading (pausing stdin when no one else reads it) and reports the close once. */
  async close(): Promise<void> {
    this.#in.off('data', this.#onData);
    this.#in.off('error', this.#onStreamError);
    if (this.#in.listenerCount('data') === 0) this.#in.pause();
    this.onclose?.();
  }

  /**
   * Queues one JSON-RPC message; resolves once the stream accepted it (immediately, or after its
   * single `drain`). Rejects when the stream fails or closes while waiting.
   */
  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(`${JSON.stringify(message)}\n`);
  }

  readonly #onData = (chunk: Buffer | string): void => {
    for (const frame of this.#reader.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)) this.#deliver(frame);
  };

  readonly #onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  #deliver(frame: Frame): void {
    if (frame.kind === 'too_large') {
      this.#logger?.warn({ limit_bytes: frame.limitBytes, id: frame.id }, 'refused an MCP message over the size limit');
      this.#refuse(frame.id, INVALID_REQUEST, `The message is larger than the limit of ${frame.limitBytes} bytes and was not read; send a smaller request (for example fewer operations per register_changes).`, { code: 'request_too_large', limit_bytes: frame.limitBytes });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(frame.text) as unknown;
    } catch (error) {
      this.#logger?.warn({ err: (error as Error).message }, 'refused an MCP message that is not JSON');
      this.#refuse(null, PARSE_ERROR, 'The message is not valid JSON.', { code: 'parse_error' });
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      // A malformed response of the client is only logged: nothing waits for an answer to it.
      if (isResponseLike(value)) this.#logger?.warn('ignored a malformed JSON-RPC response');
      else this.#refuse(requestIdOf(frame.text.slice(0, ID_SCAN_BYTES)), INVALID_REQUEST, 'The message is not a JSON-RPC 2.0 request or notification.', { code: 'invalid_request' });
      return;
    }
    const malformed = malformedParams(parsed.data);
    if (malformed !== null) {
      this.#logger?.warn({ method: malformed.method }, 'refused an MCP request with malformed params');
      this.#refuse(malformed.id, INVALID_PARAMS, malformed.message, { code: 'invalid_arguments', errors: malformed.errors });
      return;
    }
    try {
      this.onmessage?.(parsed.data);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Answers a message that could not be handed to the server with a JSON-RPC error response. */
  #refuse(id: FrameRequestId, code: number, message: string, data: Record<string, unknown>): void {
    void this.#write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, data } })}\n`).catch((error: unknown) => {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
  }

  #write(text: string): Promise<void> {
    const write = async (): Promise<void> => {
      if (this.#out.destroyed) throw new Error('MCP output stream is closed');
      if (!this.#out.write(text)) await drained(this.#out);
    };
    const sent = this.#tail.then(write);
    // A failed write does not block the messages queued after it.
    this.#tail = sent.catch(() => undefined);
    return sent;
  }
}

/** Whether a value that failed the message schema looks like a response (an object with `result` or `error` and no `method`). */
function isResponseLike(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return !('method' in value) && ('result' in value || 'error' in value);
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
