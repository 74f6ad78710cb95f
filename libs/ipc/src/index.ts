/**
 * @docforge/ipc: NDJSON framing and version negotiation of the viewer-manager protocol v2 (issue 12;
 * DESIGN.md section 6). Every frame is validated with the generated validators of
 * protocol/schemas/viewer/v2 on both sides: requests by the serving side, replies by the client,
 * and outbound results before they are sent.
 */
export type { ViewerRequests, RequestType, WorkerRecord, PublicationSignature, ErrorPayload, CheckedRequest } from './frames.js';
export { PROTOCOL_NAME, PROTOCOL_VERSION, MAX_FRAME_BYTES, REQUEST_TYPES, frameOf, errorFrame, checkRequest, checkReply, assertResult, negotiate } from './frames.js';
export type { DecodedLine } from './ndjson.js';
export { NdjsonDecoder, encodeFrame } from './ndjson.js';
export type { RequestHandlers, ServerIdentity } from './server.js';
export { serveConnection } from './server.js';
export type { IpcConnectOptions } from './client.js';
export { IpcClient } from './client.js';
export type { ViewerRuntimePaths } from './runtime.js';
export { viewerRuntimePaths, ensureRuntimeDir, verifyRuntimeDir } from './runtime.js';
