// Pins the one shared operation schema: every schema that takes changeset operations carries the definitions of schemas/v1/changeset-operation.schema.json verbatim (protocol/scripts/proposal-schemas.mjs writes the copies).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PROTOCOL_SCHEMA_DIR } from '../src/index.js';

const read = (rel: string): { definitions?: Record<string, unknown> } => JSON.parse(readFileSync(path.join(PROTOCOL_SCHEMA_DIR, rel), 'utf8')) as { definitions?: Record<string, unknown> };
const shared = read('changeset-operation.schema.json').definitions!;

test('every schema with an operation definition copies the shared operation schema exactly', () => {
  const files = ['changeset.schema.json', ...readdirSync(path.join(PROTOCOL_SCHEMA_DIR, 'tools')).filter((f) => f.endsWith('.input.schema.json')).map((f) => `tools/${f}`)];
  const carriers = files.filter((f) => read(f).definitions?.operation !== undefined);
  assert.ok(carriers.includes('changeset.schema.json'));
  assert.ok(carriers.includes('tools/docforge_register_changes.input.schema.json'));
  assert.ok(carriers.length >= 8, `operations are carried by ${carriers.join(', ')}`);
  for (const file of carriers) {
    const defs = read(file).definitions!;
    for (const [key, value] of Object.entries(shared)) assert.deepEqual(defs[key], value, `${file}: definitions.${key}`);
  }
});
