/**
 * The serving side of one viewer protocol connection: decode, check, require `hello` first,
 * dispatch to a handler, validate and send the reply (DESIGN.md section 6).
 */
import type { Socket } from 'node:net';
import { toDocforgeError, errors } from '@docforge/core';
import { assertResult, checkRequest, errorFrame, frameOf, negotiate, type RequestType, type ViewerRequests } from './frames.js';
import { encodeFrame, NdjsonDecoder } from './ndjson.js';

/** Handlers of every request type except hello (answered here); each returns the result payload or throws a DocforgeError. */
export type RequestHandlers = { [T in Exclude<RequestType, 'hello'>]: (payload: ViewerRequests[T]['request']) => Promise<ViewerRequests[T]['result']> };

/** What the serving side says about itself in its hello result. */
export interface ServerIdentity {
  pid: number;
  started_at: string;
  capabilities: string[];
}

/**
 * Serves one accepted socket until it closes. Until a successful `hello` every other request gets
 * `viewer_protocol_error`; a foreign version gets `protocol_version_unsupported` and the socket
 * is closed after the reply. Requests on one connection are answered as they complete (ids match
 * replies to requests). A handler's exception becomes an error frame; it never crashes the server.
 * @param onRequest called once per well-formed request (for logging and activity accounting)
 */
export function serveConnection(socket: Socket, identity: ServerIdentity, handlers: RequestHandlers, onRequest?: (type: RequestType) => void): void {
  const decoder = new NdjsonDecoder();
  let greeted = false;
  const send = (frame: object): void => {
    if (!socket.destroyed && socket.writable) socket.write(encodeFrame(frame));
  };
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    for (const line of decoder.push(chunk)) {
      if (!line.ok) {
        send(errorFrame('0', line.error));
        continue;
      }
      const checked = checkRequest(line.value);
      if (!checked.ok) {
        send(errorFrame(checked.id, checked.error));
        if (checked.fatal) socket.end();
        continue;
      }
      onRequest?.(checked.type);
      if (checked.type === 'hello') {
        try {
          negotiate(checked.payload as ViewerRequests['hello']['request']);
        } catch (error) {
          send(errorFrame(checked.id, toDocforgeError(error)));
          socket.end();
          continue;
        }
        greeted = true;
        const result: ViewerRequests['hello']['result'] = { server: 'docforge-viewer-manager', version: 2, capabilities: identity.capabilities, pid: identity.pid, started_at: identity.started_at };
        send(frameOf(checked.id, 'result', result));
        continue;
      }
      if (!greeted) {
        send(errorFrame(checked.id, errors.viewerProtocolError(`${checked.type} before hello: a connection opens with hello.`)));
        continue;
      }
      void dispatch(checked.id, checked.type, checked.payload, handlers).then(send);
    }
  });
}

async function dispatch(id: string, type: Exclude<RequestType, 'hello'>, payload: unknown, handlers: RequestHandlers): Promise<object> {
  try {
    const handler = handlers[type] as (p: unknown) => Promise<object>;
    const frame = frameOf(id, 'result', await handler(payload));
    assertResult(type, frame);
    return frame;
  } catch (error) {
    return errorFrame(id, toDocforgeError(error));
  }
}
