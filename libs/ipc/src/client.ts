/**
 * The requesting side of one viewer protocol connection: connect to the manager's Unix socket,
 * say `hello`, then send typed requests and match replies by id (DESIGN.md section 6).
 */
import { connect, type Socket } from 'node:net';
import { DocforgeError, errors } from '@docforge/core';
import { checkReply, frameOf, PROTOCOL_VERSION, type RequestType, type ViewerRequests } from './frames.js';
import { encodeFrame, NdjsonDecoder } from './ndjson.js';

/** Options of {@link IpcClient.connect}. */
export interface IpcConnectOptions {
  /** Client name sent in hello (e.g. `docforge-mcp`). */
  client: string;
  /** Versions offered in hello; default `[2]` (tests offer others). */
  versions?: [number, ...number[]];
  /** Milliseconds to wait for the connection and for each reply; default 10,000. */
  timeoutMs?: number;
}

interface Pending {
  type: RequestType;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/** One open, greeted connection to a viewer manager. */
export class IpcClient {
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private closedError: DocforgeError | null = null;
  /** The manager's hello result. */
  hello: ViewerRequests['hello']['result'] | null = null;

  private constructor(private readonly socket: Socket, private readonly timeoutMs: number) {
    const decoder = new NdjsonDecoder();
    socket.on('data', (chunk: Buffer) => {
      for (const line of decoder.push(chunk)) {
        if (!line.ok) {
          this.failAll(line.error);
          continue;
        }
        const id = (line.value as { id?: unknown } | null)?.id;
        const waiting = typeof id === 'string' ? this.pending.get(id) : undefined;
        if (waiting === undefined) continue;
        this.pending.delete(id as string);
        clearTimeout(waiting.timer);
        try {
          waiting.resolve(checkReply(waiting.type, line.value));
        } catch (error) {
          waiting.reject(error);
        }
      }
    });
    socket.on('error', (error) => this.failAll(errors.viewerUnavailable(`The viewer manager connection failed: ${error.message}`)));
    socket.on('close', () => this.failAll(errors.viewerUnavailable('The viewer manager closed the connection.')));
  }

  /**
   * Connects to the socket and performs the hello negotiation.
   * @throws DocforgeError `viewer_unavailable` when nothing listens (details.errno), `protocol_version_unsupported` when the versions do not meet
   */
  static async connect(socketPath: string, options: IpcConnectOptions): Promise<IpcClient> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(socketPath);
      const timer = setTimeout(() => {
        s.destroy();
        reject(errors.viewerUnavailable(`No viewer manager answered on ${socketPath} within ${timeoutMs} ms.`, { socket: socketPath }));
      }, timeoutMs);
      s.once('connect', () => {
        clearTimeout(timer);
        resolve(s);
      });
      s.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(errors.viewerUnavailable(`No viewer manager listens on ${socketPath} (${error.code ?? error.message}).`, { socket: socketPath, errno: error.code ?? null }));
      });
    });
    const client = new IpcClient(socket, timeoutMs);
    try {
      client.hello = await client.request('hello', { client: options.client, versions: options.versions ?? [PROTOCOL_VERSION], capabilities: [] });
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }

  /**
   * Sends one request and waits for its checked reply.
   * @throws DocforgeError the manager's error, `viewer_protocol_error` for a malformed reply, `viewer_unavailable` on timeout or a closed connection
   */
  request<T extends RequestType>(type: T, payload: ViewerRequests[T]['request'], timeoutMs = this.timeoutMs): Promise<ViewerRequests[T]['result']> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = String(this.nextId++);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(errors.viewerUnavailable(`The viewer manager did not answer ${type} within ${timeoutMs} ms.`, { type }));
      }, timeoutMs);
      this.pending.set(id, { type, resolve: resolve as (v: unknown) => void, reject, timer });
      this.socket.write(encodeFrame(frameOf(id, type, payload)));
    });
  }

  /** Sends a raw line (tests of malformed frames); replies are not awaited. */
  sendRaw(line: string): void {
    this.socket.write(line);
  }

  /** Closes the connection; pending requests fail with `viewer_unavailable`. Idempotent. */
  close(): void {
    this.socket.destroy();
  }

  private failAll(error: DocforgeError): void {
    this.closedError ??= error;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(error);
      this.pending.delete(id);
    }
  }
}
