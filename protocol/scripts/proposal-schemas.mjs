#!/usr/bin/env node
// Writes the changeset document schema, the proposal tools' schema files (issue 10) and the
// definitions their results share (changeset-results.defs.json) from one source. Every schema that
// takes operations references ($ref) the one operation schema, schemas/v1/changeset-operation.schema.json;
// every tool output is the shared envelope (tool-envelope.schema.json) plus its result. The
// generator compiles each shared definition once; tools/list publishes each schema bundled with
// the definitions it references (protocol/src/bundle.ts).
// Usage: node protocol/scripts/proposal-schemas.mjs   (then `npm run generate`)
// protocol/test/operation-schema.test.ts fails when a written file differs from what this script writes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const V1 = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../schemas/v1');
const operationSchema = JSON.parse(readFileSync(path.join(V1, 'changeset-operation.schema.json'), 'utf8'));
const OPS = operationSchema.definitions;
/** A $ref from a file of schemas/v1/tools to a definition of the operation schema. */
const opRef = (name) => ({ $ref: `../changeset-operation.schema.json#/definitions/${name}` });
/** A $ref from a file of schemas/v1/tools to a definition shared by the proposal results. */
const resultRef = (name) => ({ $ref: `../changeset-results.defs.json#/definitions/${name}` });

const changesetId = { type: 'string', maxLength: 128, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$' };
const hex64 = { type: 'string', maxLength: 64, pattern: '^[0-9a-f]{64}$' };
const limit = { type: 'integer', minimum: 1, maximum: 10000 };
const cursor = { type: 'string', minLength: 1, maxLength: 4096 };
const STATUSES = ['draft', 'ready', 'stale', 'applied', 'abandoned'];

const finding = {
  type: 'object',
  required: ['severity', 'code', 'message', 'remediation', 'operation_index', 'node_id'],
  properties: {
    severity: { enum: ['error', 'warning'] },
    code: { type: 'string' },
    message: { type: 'string' },
    remediation: { type: 'string' },
    operation_index: { type: ['integer', 'null'], minimum: 0 },
    node_id: { type: ['string', 'null'] },
    path: { type: ['string', 'null'] },
    changeset_ids: { type: 'array', items: { type: 'string' } },
  },
};

const staleness = {
  type: ['object', 'null'],
  required: ['reason'],
  properties: { reason: { enum: ['base_changed', 'touched_node_changed', 'touched_source_changed'] }, node_ids: { type: 'array' }, paths: { type: 'array' } },
};

const summary = {
  type: 'object',
  required: ['id', 'writer', 'status', 'stored_status', 'changeset_sha256', 'base', 'operation_count', 'stale', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    writer: { type: 'string' },
    status: { enum: STATUSES, description: 'Stored status, or stale when derived at read time.' },
    stored_status: { enum: ['draft', 'ready', 'applied', 'abandoned'] },
    changeset_sha256: hex64,
    base: hex64,
    operation_count: { type: 'integer', minimum: 0 },
    stale: staleness,
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
};

// A lifecycle receipt as results carry it: `details` by event (created/registered: operation_count,
// valid; operation_added: previous_sha256, operation_index; rebased: previous_sha256, previous_base;
// abandoned: previous_status, reason; applied: changeset_writer and the file counts).
const resultReceipt = {
  type: 'object',
  properties: {
    event: { enum: ['created', 'registered', 'operation_added', 'rebased', 'abandoned', 'applied'] },
    at: { type: 'string' },
    writer: { type: 'string' },
    changeset_sha256: hex64,
    details: {
      type: 'object',
      properties: {
        operation_count: { type: 'integer' }, valid: { type: 'boolean' }, previous_sha256: hex64, operation_index: { type: 'integer' }, previous_base: hex64,
        previous_status: { type: 'string' }, reason: { type: 'string' }, changeset_writer: { type: 'string' }, created: { type: 'integer' }, updated: { type: 'integer' }, deleted: { type: 'integer' },
      },
    },
  },
};

const sharedFinding = resultRef('finding');
const sharedSummary = resultRef('changeset_summary');

const mutationResultDef = {
  type: 'object',
  required: ['receipt_version', 'outcome', 'changeset_id', 'changeset_sha256', 'status'],
  properties: {
    receipt_version: { const: 1 },
    compact: { type: 'boolean', description: 'true when the full result did not fit: the version-1 compact receipt.' },
    outcome: { enum: ['created', 'registered', 'operation_added', 'rebased', 'abandoned'] },
    changeset_id: { type: 'string' },
    changeset_sha256: hex64,
    status: { enum: STATUSES },
    changeset: { $ref: '#/definitions/changeset_summary' },
    valid: { type: 'boolean' },
    finding_counts: { type: 'object', properties: { error: { type: 'integer' }, warning: { type: 'integer' } } },
    findings: { type: 'array', items: { $ref: '#/definitions/finding' } },
    findings_truncated: { type: 'boolean' },
    receipt: { $ref: '#/definitions/receipt' },
  },
};

const mutationResult = resultRef('mutation_result');

const page = (itemsKey, itemSchema, extra = {}, required = []) => ({
  type: 'object',
  required: [itemsKey, 'truncated', 'next_cursor', 'limit', ...required],
  properties: { [itemsKey]: { type: 'array', items: itemSchema }, truncated: { type: 'boolean' }, next_cursor: { type: ['string', 'null'] }, limit: { type: 'integer' }, ...extra },
});

const operationEntryDef = {
  type: 'object',
  required: ['index', 'op', 'operation_sha256', 'chars'],
  properties: {
    index: { type: 'integer', minimum: 0 },
    op: { type: 'string' },
    operation_sha256: hex64,
    chars: { type: 'integer', minimum: 0 },
    node_id: { type: ['string', 'null'] },
    operation: { $ref: 'changeset-operation.schema.json#/definitions/operation', description: 'The exact operation; absent in an operation summary.' },
  },
};

const operationEntry = resultRef('operation_entry');

/** A node as a changeset diff shows it before or after an operation. */
const diffNode = {
  type: ['object', 'null'],
  properties: {
    id: { type: 'string' }, kind: { type: 'string' }, title: { type: 'string' }, family: { type: ['string', 'null'] }, authority: { type: ['string', 'null'] },
    status: { type: ['string', 'null'] }, tags: { type: 'array', items: { type: 'string' } }, source_path: { type: 'string' },
    relations: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Declared relations: relation -> target ids.' },
  },
};

const relationChange = { type: 'object', required: ['relation', 'target_id'], properties: { relation: { type: 'string' }, target_id: { type: 'string' } } };

const changeEntry = {
  type: 'object',
  required: ['index', 'op'],
  properties: {
    index: { type: 'integer', minimum: 0 },
    op: { type: 'string' },
    node_id: { type: ['string', 'null'] },
    before_path: { type: ['string', 'null'] },
    after_path: { type: ['string', 'null'] },
    before: { ...diffNode, description: 'The node before the operation; null when absent.' },
    after: { ...diffNode, description: 'The node after the operation; null when removed or not projected.' },
    projected: { type: 'boolean', description: 'false: the operation cannot be projected and changes nothing; refusal says why and no change is listed.' },
    refusal: {
      type: ['object', 'null'],
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      description: 'Why the operation is not projected (or its node not read back): its error finding; null otherwise.',
    },
    relations_added: { type: 'array', items: relationChange, description: 'Declared relations the operation adds to the node.' },
    relations_removed: { type: 'array', items: relationChange, description: 'Declared relations the operation removes from the node.' },
    body_diff: { type: 'string', description: 'Unified diff of the node body; empty when unchanged.' },
    file_diffs: {
      type: 'array',
      description: 'Every source file the operation rewrites, with the unified diff of its exact text; a Markdown move keeping every byte is one rename entry.',
      items: {
        type: 'object',
        required: ['before_path', 'after_path', 'diff'],
        properties: { before_path: { type: ['string', 'null'] }, after_path: { type: ['string', 'null'] }, diff: { type: 'string' } },
      },
    },
  },
};

// An empty `required` validates nothing: it is left out (issue 30 item 13, the size of tools/list).
const inputOf = (properties, required = []) => ({ type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false });
/** A copy of an operation schema fragment whose local refs point into changeset-operation.schema.json. */
const fromOps = (node) => JSON.parse(JSON.stringify(node), (key, value) => (key === '$ref' ? opRef(value.replace('#/definitions/', '')).$ref : value));
const opProps = (name) => {
  const { op: _op, ...rest } = OPS[name].properties;
  return fromOps(rest);
};
const opTool = (name) => ({
  input: {
    type: 'object',
    properties: { changeset_id: { ...changesetId, description: 'Omitted: a new changeset.' }, ...opProps(name) },
    required: OPS[name].required.filter((r) => r !== 'op'),
    additionalProperties: false,
    ...(OPS[name].anyOf ? { anyOf: fromOps(OPS[name].anyOf) } : {}),
  },
  output: mutationResult,
});

const TOOLS = {
  docforge_create_changeset: {
    description: 'Creates a changeset of the bound writer, optionally with operations, and validates it.',
    input: inputOf({ operations: { type: 'array', maxItems: 1000, items: opRef('operation') } }),
    output: mutationResult,
    mutation: true,
  },
  docforge_register_changes: {
    description: 'Preferred write: creates and validates a whole changeset in one step. Each operation is op plus the arguments of its docforge_propose_<op> tool except changeset_id. Never edits canonical files.',
    input: inputOf({ operations: opRef('operations') }, ['operations']),
    output: mutationResult,
    mutation: true,
  },
  docforge_list_changesets: {
    description: 'Lists changesets: draft and ready unless statuses or history ask for more.',
    input: inputOf({ statuses: { type: 'array', uniqueItems: true, minItems: 1, items: { enum: STATUSES } }, history: { type: 'boolean', description: 'true: every status.' }, limit, cursor }),
    output: page('items', sharedSummary, { statuses: { type: 'array' }, unreadable: { type: 'integer', minimum: 0 } }),
  },
  docforge_get_changeset: {
    description: 'One changeset: hash, base, status, receipts, a page of operations.',
    input: inputOf({ changeset_id: changesetId, limit, cursor }, ['changeset_id']),
    output: page('operations', operationEntry, { changeset: sharedSummary, receipts: { type: 'array', items: resultRef('receipt') }, operations_summarized: { type: 'boolean' } }, ['changeset']),
  },
  docforge_rebase_changeset: {
    description: 'Moves a stale changeset to the current base if all it touches still validates.',
    input: inputOf({ changeset_id: changesetId }, ['changeset_id']),
    output: mutationResult,
    mutation: true,
  },
  docforge_abandon_changeset: {
    description: 'Abandons a changeset of the bound writer (kept, with a receipt).',
    input: inputOf({ changeset_id: changesetId, reason: { type: 'string', maxLength: 1000 } }, ['changeset_id']),
    output: mutationResult,
    mutation: true,
  },
  docforge_propose_node_create: { ...opTool('op_node_create'), description: 'Proposes a new node: a .md file with TOML front matter, or a [[node]] in a .toml file, in a content root.', mutation: true },
  docforge_propose_node_update: { ...opTool('op_node_update'), description: 'Proposes metadata and/or body changes to a node.', mutation: true },
  docforge_propose_node_move: { ...opTool('op_node_move'), description: 'Proposes a new path for a node; a moved plain Markdown file gets a new id.', mutation: true },
  docforge_propose_relationship_update: { ...opTool('op_relationship_update'), description: 'Proposes relations to add and remove, without rewriting the body.', mutation: true },
  docforge_propose_node_delete: { ...opTool('op_node_delete'), description: 'Proposes deleting a node.', mutation: true },
  docforge_validate_changeset: {
    description: 'Validates a changeset as if applied, in memory.',
    input: inputOf({ changeset_id: changesetId, limit, cursor }, ['changeset_id']),
    output: page('findings', sharedFinding, { changeset: sharedSummary, valid: { type: 'boolean' }, finding_counts: { type: 'object', properties: { error: { type: 'integer' }, warning: { type: 'integer' } } }, operation_summaries: { type: 'array', items: operationEntry }, operations_summarized: { type: 'boolean' } }, ['changeset', 'valid']),
  },
  docforge_get_changeset_diff: {
    description: 'Per operation: node before and after, relations changed, unified diffs; paged.',
    input: inputOf({ changeset_id: changesetId, limit, cursor }, ['changeset_id']),
    output: {
      type: 'object',
      required: ['changeset', 'format', 'truncated', 'next_cursor', 'limit'],
      properties: {
        changeset: sharedSummary,
        format: { enum: ['changes', 'canonical_json_chunk'] },
        changes: { type: 'array', items: changeEntry },
        chunk: {
          type: 'object',
          required: ['operation_index', 'index', 'count', 'data', 'payload_sha256', 'payload_chars'],
          properties: {
            operation_index: { type: 'integer', minimum: 0, description: 'The operation whose individually oversized diff this chunk sequence carries; the payload is {operations: [that operation], changes: [its change]}.' },
            index: { type: 'integer' }, count: { type: 'integer' }, data: { type: 'string' }, payload_sha256: hex64, payload_chars: { type: 'integer' },
          },
        },
        truncated: { type: 'boolean' },
        next_cursor: { type: ['string', 'null'] },
        limit: { type: 'integer' },
      },
    },
  },
  // Issue 11: the canonical application tool (contract "Canonical application tool").
  docforge_apply_changeset: {
    description: 'Applies a reviewed changeset (id and exact changeset_sha256) to the canonical files atomically, restoring every file on failure. Never apply a change twice.',
    input: inputOf({ changeset_id: changesetId, changeset_sha256: { ...hex64, description: 'The hash the reviewer approved.' } }, ['changeset_id', 'changeset_sha256']),
    output: {
      type: 'object',
      required: ['receipt_version', 'outcome', 'changeset_id', 'changeset_sha256', 'status', 'changed_sources', 'derived_refresh'],
      properties: {
        receipt_version: { const: 1 },
        compact: { type: 'boolean', description: 'true when the full result did not fit: the version-1 compact receipt.' },
        outcome: { const: 'applied' },
        changeset_id: { type: 'string' },
        changeset_sha256: hex64,
        status: { const: 'applied' },
        applier: { type: 'string' },
        changed_sources: {
          type: 'object',
          required: ['created', 'updated', 'deleted'],
          properties: { created: { type: 'integer', minimum: 0 }, updated: { type: 'integer', minimum: 0 }, deleted: { type: 'integer', minimum: 0 } },
        },
        files: {
          type: 'array',
          items: { type: 'object', required: ['path', 'action'], properties: { path: { type: 'string' }, action: { enum: ['created', 'updated', 'deleted'] }, sha256: { type: ['string', 'null'] } } },
        },
        receipt: { ...resultRef('receipt'), description: 'The applied lifecycle receipt, bound to the reviewed changeset hash.' },
        derived_refresh: {
          type: 'object',
          required: ['status'],
          properties: {
            status: { enum: ['refreshed', 'degraded'] },
            revision: { type: ['integer', 'null'] },
            source_hash: { type: ['string', 'null'] },
            staleness: { enum: ['current', 'stale', 'unknown'] },
            error: { type: 'object' },
            remediation: { type: 'string' },
          },
        },
        render: {
          type: 'object',
          required: ['outputs', 'command'],
          description: 'Declared outputs are never re-rendered over MCP: their render status (stale after a canonical change) and the local CLI command that renders them.',
          properties: {
            outputs: { type: 'array', items: { type: 'object', required: ['view_id', 'output', 'status'], properties: { view_id: { type: 'string' }, output: { type: 'string' }, status: { type: 'string' } } } },
            output_count: { type: 'integer', minimum: 0 },
            command: { type: ['string', 'null'] },
          },
        },
        recovered: { type: ['object', 'null'], description: 'An interrupted earlier application this call recovered first.' },
      },
    },
    mutation: true,
    // It rewrites and deletes canonical files (MCP: "may perform destructive updates").
    destructive: true,
  },
};

/** A tool output: the shared response envelope plus this tool's result. */
function envelope(result) {
  return { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', allOf: [{ $ref: '../tool-envelope.schema.json' }], properties: { result } };
}

const write = (file, value) => writeFileSync(path.join(V1, file), `${JSON.stringify(value, null, 2)}\n`);

for (const [name, tool] of Object.entries(TOOLS)) {
  write(`tools/${name}.tool.json`, {
    name,
    description: tool.description,
    annotations: { title: name, readOnlyHint: !tool.mutation, destructiveHint: tool.destructive === true, idempotentHint: !tool.mutation, openWorldHint: false },
  });
  write(`tools/${name}.input.schema.json`, { $schema: 'http://json-schema.org/draft-07/schema#', ...tool.input });
  write(`tools/${name}.output.schema.json`, envelope(tool.output));
}

const receipt = {
  type: 'object',
  required: ['event', 'at', 'writer', 'changeset_sha256'],
  additionalProperties: false,
  properties: {
    event: { enum: ['created', 'registered', 'operation_added', 'rebased', 'abandoned', 'applied'] },
    at: { type: 'string', description: 'ISO-8601 time.' },
    writer: { type: 'string', minLength: 1 },
    changeset_sha256: { ...hex64, description: 'The changeset hash this event is bound to.' },
    details: { type: 'object' },
  },
};

write('changeset.schema.json', {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'ChangesetDocument',
  description: 'One stored changeset (issue 10): a canonical-JSON document <state>/changesets/<id>.json. changeset_sha256 is SHA-256 over the canonical JSON of {id, writer, base, operations} only, so status changes and receipts never change the hash a reviewer approved. Operations apply in array order. Stale is derived when read and never stored.',
  type: 'object',
  definitions: { lifecycle_receipt: receipt },
  required: ['schema_version', 'id', 'writer', 'base', 'operations', 'changeset_sha256', 'status', 'captured', 'findings', 'receipts', 'created_at', 'updated_at'],
  additionalProperties: false,
  properties: {
    schema_version: { const: 1 },
    id: changesetId,
    writer: { type: 'string', minLength: 1, maxLength: 256 },
    base: { ...hex64, description: 'The source hash of the synchronized publication the operations were made against.' },
    operations: { type: 'array', maxItems: 1000, items: { $ref: 'changeset-operation.schema.json#/definitions/operation' } },
    changeset_sha256: hex64,
    status: { enum: ['draft', 'ready', 'applied', 'abandoned'] },
    captured: {
      type: 'object',
      description: 'Source file hashes (null: absent) of every touched path at the base, for staleness and rebase.',
      required: ['sources'],
      additionalProperties: false,
      properties: { sources: { type: 'object', additionalProperties: { anyOf: [hex64, { type: 'null' }] } } },
    },
    findings: { type: 'array', items: { $ref: 'changeset-results.defs.json#/definitions/finding' }, description: 'Findings of the last stored validation.' },
    receipts: { type: 'array', minItems: 1, items: { $ref: '#/definitions/lifecycle_receipt' } },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
});

write('changeset-results.defs.json', {
  $comment: 'Definitions the proposal tools\' results share (written by protocol/scripts/proposal-schemas.mjs); referenced by tools/*.output.schema.json and changeset.schema.json.',
  definitions: { changeset_summary: summary, finding, mutation_result: mutationResultDef, operation_entry: operationEntryDef, receipt: resultReceipt },
});
