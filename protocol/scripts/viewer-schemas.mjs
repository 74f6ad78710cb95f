#!/usr/bin/env node
// Writes the viewer manager protocol v2 frame schemas (issue 12; DESIGN.md section 6) from one
// source, so the shared pieces (the publication signature, the worker record, the frame head) are
// identical in every file while each schema file still compiles on its own (ajv standalone).
// Every request type has a request schema `<type>.schema.json` and a reply schema
// `<type>-result.schema.json` (a frame of type `result` echoing the request id); failures are one
// `error.schema.json` frame. envelope.schema.json and hello.schema.json are written too.
// Usage: node protocol/scripts/viewer-schemas.mjs   (then `npm run generate`)
// protocol/test/viewer-schemas.test.ts fails when a file differs from what this script writes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../schemas/viewer/v2');
const DRAFT = 'http://json-schema.org/draft-07/schema#';

const frameId = { type: 'string', minLength: 1, maxLength: 128 };
const absPath = { type: 'string', minLength: 1, maxLength: 4096, pattern: '^/', description: 'Absolute path.' };
const projectId = { type: 'string', minLength: 1, maxLength: 256 };
const workerId = { type: 'string', pattern: '^w-[0-9a-f]{16}$', description: 'Manager-assigned worker id.' };
const isoTime = { type: 'string', minLength: 1, maxLength: 64, description: 'ISO-8601 time.' };
const signature = {
  type: 'object',
  description: 'The five-field index publication signature of current.json (DESIGN.md section 4).',
  required: ['generation', 'source_identity', 'index_file', 'index_ino', 'index_size'],
  additionalProperties: false,
  properties: {
    generation: { type: 'integer', minimum: 1, maximum: 1099511627776 },
    source_identity: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    index_file: { type: 'string', pattern: '^gen-[0-9]+-[a-z0-9]+\\.sqlite$' },
    index_ino: { type: 'string', pattern: '^[0-9]+$' },
    index_size: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
  },
};
const worker = {
  type: 'object',
  description: 'One supervised worker. `state` is its lifecycle; `signature_state` says whether its signature is still the published one (a stale worker stays running but is never reused).',
  required: ['worker_id', 'project_root', 'project_id', 'state', 'signature_state', 'pid', 'port', 'signature', 'no_ast', 'started_at', 'last_activity_at', 'exit', 'fatal'],
  additionalProperties: false,
  properties: {
    worker_id: workerId,
    project_root: absPath,
    project_id: projectId,
    state: { enum: ['starting', 'running', 'dead', 'stopped'], description: 'dead: exited without being asked to (never restarted silently); stopped: stopped on request or reclaimed when idle.' },
    signature_state: { enum: ['current', 'stale', 'unknown'], description: 'current: current.json still names this signature and the index file stat matches; stale: proven otherwise; unknown: current.json is unreadable.' },
    pid: { type: ['integer', 'null'], minimum: 1 },
    port: { type: ['integer', 'null'], minimum: 1, maximum: 65535 },
    signature,
    no_ast: { type: 'boolean' },
    started_at: isoTime,
    last_activity_at: isoTime,
    exit: {
      type: ['object', 'null'],
      required: ['code', 'signal', 'at', 'reason'],
      additionalProperties: false,
      properties: {
        code: { type: ['integer', 'null'] },
        signal: { type: ['string', 'null'], maxLength: 32 },
        at: isoTime,
        reason: { enum: ['crashed', 'fatal', 'stopped', 'idle_reclaimed', 'start_failed', 'manager_shutdown'] },
      },
    },
    fatal: {
      type: ['object', 'null'],
      required: ['code', 'message'],
      additionalProperties: false,
      properties: { code: { type: 'string', maxLength: 64 }, message: { type: 'string', maxLength: 2000 } },
    },
  },
};
const workerDef = worker;
/** Frames reference one copy of the signature and the worker record (frames.defs.json). */
const sharedRef = (name) => ({ $ref: `frames.defs.json#/definitions/${name}` });
const workerRef = sharedRef('worker');
const workers = { type: 'array', maxItems: 1000, items: workerRef };
const workerIds = { type: 'array', maxItems: 1000, items: workerId };

/** A complete frame schema: the fixed head plus one type and payload. */
function frame(title, description, type, payload) {
  return {
    $schema: DRAFT,
    title,
    description,
    type: 'object',
    required: ['protocol', 'version', 'id', 'type', 'payload'],
    additionalProperties: false,
    properties: {
      protocol: { const: 'docforge-viewer' },
      version: { const: 2 },
      id: frameId,
      type: { const: type },
      payload: { type: 'object', additionalProperties: false, ...payload },
    },
  };
}

const empty = { properties: {} };
const REQUESTS = {
  hello: {
    title: 'ViewerHelloFrame',
    description: 'The handshake frame a client sends first (DESIGN.md section 6; STYLE.md: a hello carrying the protocol version and capabilities). The manager answers with its own versions and capabilities, or protocol_version_unsupported.',
    payload: {
      required: ['client', 'versions', 'capabilities'],
      properties: {
        client: { type: 'string', minLength: 1, maxLength: 128, description: 'Client name, e.g. docforge-mcp or docforge.' },
        versions: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 1 }, description: 'Protocol versions the client speaks.' },
        capabilities: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$' }, description: 'Additive feature flags.' },
      },
    },
    result: {
      required: ['server', 'version', 'capabilities', 'pid', 'started_at'],
      properties: {
        server: { const: 'docforge-viewer-manager' },
        version: { const: 2 },
        capabilities: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$' } },
        pid: { type: 'integer', minimum: 1 },
        started_at: isoTime,
      },
    },
  },
  ensure_worker: {
    description: 'Asks for a running worker of one project bound to one exact publication signature. The manager reuses a running worker of that root and signature while current.json still names it (checked with stat, never SQLite); otherwise it forks a fresh one and answers when the worker is ready.',
    payload: {
      required: ['project_root', 'project_id', 'index_path', 'signature', 'no_ast'],
      properties: { project_root: absPath, project_id: projectId, index_path: absPath, signature: sharedRef('signature'), no_ast: { type: 'boolean' } },
    },
    result: { required: ['worker', 'reused'], properties: { worker: workerRef, reused: { type: 'boolean' } } },
  },
  issue_token: {
    description: 'Asks a running worker (through the manager) for a fresh one-time token; the reply carries the loopback URL that trades it for the worker cookie.',
    payload: { required: ['worker_id'], properties: { worker_id: workerId } },
    result: {
      required: ['worker_id', 'port', 'token', 'url_path', 'url'],
      properties: {
        worker_id: workerId,
        port: { type: 'integer', minimum: 1, maximum: 65535 },
        token: { type: 'string', minLength: 16, maxLength: 256 },
        url_path: { type: 'string', pattern: '^/', maxLength: 2048 },
        url: { type: 'string', pattern: '^http://127\\.0\\.0\\.1:[0-9]+/', maxLength: 2200 },
      },
    },
  },
  worker_status: {
    description: 'The workers of one project root (any state, current or stale), newest first.',
    payload: { required: ['project_root'], properties: { project_root: absPath } },
    result: { required: ['workers'], properties: { workers } },
  },
  stop_worker: {
    description: 'Stops one worker (worker_id) or every worker of one project root, current or stale.',
    payload: { minProperties: 1, maxProperties: 1, properties: { worker_id: workerId, project_root: absPath } },
    result: { required: ['stopped'], properties: { stopped: workerIds } },
  },
  list_workers: {
    description: 'Every worker the manager knows, with the manager process itself.',
    payload: empty,
    result: {
      required: ['manager', 'workers'],
      properties: {
        manager: {
          type: 'object',
          required: ['pid', 'started_at', 'idle_timeout_ms', 'socket'],
          additionalProperties: false,
          properties: { pid: { type: 'integer', minimum: 1 }, started_at: isoTime, idle_timeout_ms: { type: 'integer', minimum: 1 }, socket: absPath },
        },
        workers,
      },
    },
  },
  shutdown: {
    description: 'Stops every worker and then the manager itself.',
    payload: empty,
    result: { required: ['stopped'], properties: { stopped: workerIds } },
  },
};

function pascal(snake) {
  return snake.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** File name (relative to schemas/viewer/v2) -> schema. */
export function viewerSchemas() {
  const out = {
    'envelope.schema.json': {
      $schema: DRAFT,
      title: 'ViewerFrame',
      description: 'The one envelope of every viewer manager protocol v2 frame (DESIGN.md section 6): newline-delimited JSON over a Unix socket. Requests: hello, ensure_worker, issue_token, worker_status, stop_worker, list_workers, shutdown; a reply echoes the request id with type result or error. An unknown version gets protocol_version_unsupported. Payloads are checked per type by the frame schemas beside this one.',
      type: 'object',
      required: ['protocol', 'version', 'id', 'type', 'payload'],
      additionalProperties: false,
      properties: {
        protocol: { const: 'docforge-viewer' },
        version: { type: 'integer', minimum: 1 },
        id: frameId,
        type: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$' },
        payload: { type: 'object' },
      },
    },
    'error.schema.json': frame('ViewerErrorFrame', 'The failure reply to a request (same id), or to an unreadable frame (id "0" when none could be read). code is a DocForge wire error code (docs/errors.md).', 'error', {
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$' },
        message: { type: 'string', maxLength: 4000 },
        details: { type: 'object' },
      },
    }),
  };
  out['frames.defs.json'] = {
    $comment: 'Definitions the viewer v2 frames share (written by protocol/scripts/viewer-schemas.mjs): the publication signature and the worker record.',
    definitions: { signature, worker: { ...workerDef, properties: { ...workerDef.properties, signature: { $ref: '#/definitions/signature' } } } },
  };
  for (const [type, spec] of Object.entries(REQUESTS)) {
    const name = pascal(type);
    out[`${type}.schema.json`] = frame(spec.title ?? `Viewer${name}Frame`, spec.description, type, spec.payload);
    out[`${type}-result.schema.json`] = frame(`Viewer${name}ResultFrame`, `The success reply to ${type} (same id).`, 'result', spec.result);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, schema] of Object.entries(viewerSchemas())) writeFileSync(path.join(DIR, file), `${JSON.stringify(schema, null, 2)}\n`);
}
