/**
 * Frames of the viewer manager protocol v2 (DESIGN.md section 6): the request types, the typed
 * payloads of each request and its result, and the checks every side runs on what it receives
 * (generated validators from protocol/schemas/viewer/v2).
 */
import { DocforgeError, ERROR_CODES, errors, isErrorCode } from '@docforge/core';
import {
  describeValidationErrors,
  validateViewerFrame,
  validateViewerErrorFrame,
  validateViewerHelloFrame,
  validateViewerHelloResultFrame,
  validateViewerEnsureWorkerFrame,
  validateViewerEnsureWorkerResultFrame,
  validateViewerIssueTokenFrame,
  validateViewerIssueTokenResultFrame,
  validateViewerWorkerStatusFrame,
  validateViewerWorkerStatusResultFrame,
  validateViewerStopWorkerFrame,
  validateViewerStopWorkerResultFrame,
  validateViewerListWorkersFrame,
  validateViewerListWorkersResultFrame,
  validateViewerShutdownFrame,
  validateViewerShutdownResultFrame,
  type SchemaValidator,
  type ViewerFrame,
  type ViewerErrorFrame,
  type ViewerHelloFrame,
  type ViewerHelloResultFrame,
  type ViewerEnsureWorkerFrame,
  type ViewerEnsureWorkerResultFrame,
  type ViewerIssueTokenFrame,
  type ViewerIssueTokenResultFrame,
  type ViewerWorkerStatusFrame,
  type ViewerWorkerStatusResultFrame,
  type ViewerStopWorkerFrame,
  type ViewerStopWorkerResultFrame,
  type ViewerListWorkersFrame,
  type ViewerListWorkersResultFrame,
  type ViewerShutdownFrame,
  type ViewerShutdownResultFrame,
} from '@docforge/protocol';

/** The `protocol` field of every frame. */
export const PROTOCOL_NAME = 'docforge-viewer';
/** The one protocol version this build speaks. */
export const PROTOCOL_VERSION = 2;
/** Longest accepted frame line in bytes (without the newline); a longer line is a protocol error. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** Request payload and result payload of each request type. */
export interface ViewerRequests {
  hello: { request: ViewerHelloFrame['payload']; result: ViewerHelloResultFrame['payload'] };
  ensure_worker: { request: ViewerEnsureWorkerFrame['payload']; result: ViewerEnsureWorkerResultFrame['payload'] };
  issue_token: { request: ViewerIssueTokenFrame['payload']; result: ViewerIssueTokenResultFrame['payload'] };
  worker_status: { request: ViewerWorkerStatusFrame['payload']; result: ViewerWorkerStatusResultFrame['payload'] };
  stop_worker: { request: ViewerStopWorkerFrame['payload']; result: ViewerStopWorkerResultFrame['payload'] };
  list_workers: { request: ViewerListWorkersFrame['payload']; result: ViewerListWorkersResultFrame['payload'] };
  shutdown: { request: ViewerShutdownFrame['payload']; result: ViewerShutdownResultFrame['payload'] };
}

/** A request type of protocol v2. */
export type RequestType = keyof ViewerRequests;
/** The worker record every status reply carries. */
export type WorkerRecord = ViewerEnsureWorkerResultFrame['payload']['worker'];
/** The five-field publication signature. */
export type PublicationSignature = WorkerRecord['signature'];
/** The payload of an error frame. */
export type ErrorPayload = ViewerErrorFrame['payload'];

const VALIDATORS: { [T in RequestType]: { request: SchemaValidator<unknown>; result: SchemaValidator<unknown> } } = {
  hello: { request: validateViewerHelloFrame, result: validateViewerHelloResultFrame },
  ensure_worker: { request: validateViewerEnsureWorkerFrame, result: validateViewerEnsureWorkerResultFrame },
  issue_token: { request: validateViewerIssueTokenFrame, result: validateViewerIssueTokenResultFrame },
  worker_status: { request: validateViewerWorkerStatusFrame, result: validateViewerWorkerStatusResultFrame },
  stop_worker: { request: validateViewerStopWorkerFrame, result: validateViewerStopWorkerResultFrame },
  list_workers: { request: validateViewerListWorkersFrame, result: validateViewerListWorkersResultFrame },
  shutdown: { request: validateViewerShutdownFrame, result: validateViewerShutdownResultFrame },
};

/** Every request type, in protocol order. */
export const REQUEST_TYPES: readonly RequestType[] = Object.freeze(Object.keys(VALIDATORS) as RequestType[]);

function isRequestType(type: string): type is RequestType {
  return Object.prototype.hasOwnProperty.call(VALIDATORS, type);
}

/** A frame as sent: the head and one payload. */
export function frameOf(id: string, type: string, payload: object): ViewerFrame {
  return { protocol: PROTOCOL_NAME, version: PROTOCOL_VERSION, id, type, payload: payload as ViewerFrame['payload'] };
}

/** The error frame answering request `id` with a DocforgeError. */
export function errorFrame(id: string, error: DocforgeError): ViewerErrorFrame {
  return { protocol: PROTOCOL_NAME, version: PROTOCOL_VERSION, id, type: 'error', payload: { code: error.code, message: error.message, details: error.details } };
}

/** One checked inbound request, or the error to answer it with (`id` '0' when none could be read). */
export type CheckedRequest =
  | { ok: true; id: string; type: RequestType; payload: ViewerRequests[RequestType]['request'] }
  | { ok: false; id: string; error: DocforgeError; fatal: boolean };

function idOf(raw: unknown): string {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 128 ? id : '0';
}

/**
 * Checks one decoded inbound request frame: the envelope, then the version (anything but 2 is
 * `protocol_version_unsupported`, fatal: the connection closes after the reply), then the type and
 * its own schema (`viewer_protocol_error`, not fatal).
 */
export function checkRequest(raw: unknown): CheckedRequest {
  const id = idOf(raw);
  if (!validateViewerFrame(raw)) {
    return { ok: false, id, fatal: false, error: errors.viewerProtocolError('The frame does not match the viewer protocol envelope.', { errors: describeValidationErrors(validateViewerFrame.errors) }) };
  }
  if (raw.version !== PROTOCOL_VERSION) return { ok: false, id, fatal: true, error: errors.protocolVersionUnsupported(String(raw.version), String(PROTOCOL_VERSION)) };
  const type = raw.type;
  if (!isRequestType(type)) return { ok: false, id, fatal: false, error: errors.viewerProtocolError(`Unknown request type ${JSON.stringify(type)}.`, { type, known: REQUEST_TYPES }) };
  const validate = VALIDATORS[type].request;
  if (!validate(raw)) {
    return { ok: false, id, fatal: false, error: errors.viewerProtocolError(`The ${type} frame does not match its schema.`, { type, errors: describeValidationErrors(validate.errors) }) };
  }
  return { ok: true, id, type, payload: (raw as ViewerFrame).payload as ViewerRequests[RequestType]['request'] };
}

/**
 * Checks the reply to a request of `type`: a `result` frame must match that request's result
 * schema, an `error` frame the error schema. Returns the result payload.
 * @throws DocforgeError: the peer's error (its code when registered), `protocol_version_unsupported` for a foreign version, `viewer_protocol_error` for any other mismatch
 */
export function checkReply<T extends RequestType>(type: T, raw: unknown): ViewerRequests[T]['result'] {
  if (!validateViewerFrame(raw)) throw errors.viewerProtocolError(`The reply to ${type} does not match the viewer protocol envelope.`, { errors: describeValidationErrors(validateViewerFrame.errors) });
  if (raw.version !== PROTOCOL_VERSION) throw errors.protocolVersionUnsupported(String(raw.version), String(PROTOCOL_VERSION));
  if (raw.type === 'error') {
    if (!validateViewerErrorFrame(raw)) throw errors.viewerProtocolError(`The error reply to ${type} does not match its schema.`, { errors: describeValidationErrors(validateViewerErrorFrame.errors) });
    const { code, message, details } = raw.payload;
    throw isErrorCode(code) ? DocforgeError.fromWire({ code, message, remediation: ERROR_CODES[code].remediation, details }) : errors.viewerProtocolError(`The manager answered ${type} with the unknown error code ${code}: ${message}`, { code });
  }
  const validate = VALIDATORS[type].result;
  if (!validate(raw)) throw errors.viewerProtocolError(`The reply to ${type} does not match its result schema.`, { type, errors: describeValidationErrors(validate.errors) });
  return raw.payload as ViewerRequests[T]['result'];
}

/**
 * Checks an outbound result before it is sent (validated on both sides).
 * @throws DocforgeError `internal_error` naming the schema mismatch
 */
export function assertResult<T extends RequestType>(type: T, frame: ViewerFrame): void {
  const validate = VALIDATORS[type].result;
  if (!validate(frame)) throw errors.internalError(`the ${type} result does not match its schema`, { errors: describeValidationErrors(validate.errors) });
}

/**
 * Version negotiation of a checked hello: the highest version both sides speak.
 * @throws DocforgeError `protocol_version_unsupported` when the client offers no version this side speaks
 */
export function negotiate(hello: ViewerRequests['hello']['request']): number {
  if (!hello.versions.includes(PROTOCOL_VERSION)) throw errors.protocolVersionUnsupported(hello.versions.join(', '), String(PROTOCOL_VERSION));
  return PROTOCOL_VERSION;
}
