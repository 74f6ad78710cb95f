// Pins the one shared operation schema: every schema that takes changeset operations references ($ref) the definitions of schemas/v1/changeset-operation.schema.json instead of copying them, and its published (bundled) form carries those definitions verbatim (protocol/scripts/proposal-schemas.mjs writes the sources).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PROTOCOL_SCHEMA_DIR, publishedSchema } from '../src/index.js';

type Schema = { definitions?: Record<string, unknown>; $defs?: Record<string, unknown> };
const read = (rel: string): Schema => JSON.parse(readFileSync(path.join(PROTOCOL_SCHEMA_DIR, rel), 'utf8')) as Schema;
const shared = read('changeset-operation.schema.json').definitions!;
const files = ['changeset.schema.json', ...readdirSync(path.join(PROTOCOL_SCHEMA_DIR, 'tools')).filter((f) => f.endsWith('.input.schema.json')).map((f) => `tools/${f}`)];

/** The shared definition as bundled: local refs become `#/$defs/<name>`. */
const bundled = (file: string): Schema => publishedSchema(`v1/${file}`) as Schema;
const asBundled = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/"#\/definitions\//g, '"#/$defs/')) as unknown;

test('no source schema copies an operation definition: each references changeset-operation.schema.json', () => {
  for (const file of files) {
    const text = readFileSync(path.join(PROTOCOL_SCHEMA_DIR, file), 'utf8');
    for (const key of Object.keys(shared)) assert.equal(read(file).definitions?.[key], undefined, `${file} copies definitions.${key}`);
    if (/"op_|"operation/.test(text) && text.includes('$ref')) assert.match(text, /changeset-operation\.schema\.json#\/definitions\//, file);
  }
});

test('every published schema with an operation definition carries the shared operation schema exactly', () => {
  const carriers = files.filter((f) => bundled(f).$defs?.operation !== undefined);
  assert.ok(carriers.includes('changeset.schema.json'));
  assert.ok(carriers.includes('tools/docforge_register_changes.input.schema.json'));
  assert.ok(carriers.includes('tools/docforge_create_changeset.input.schema.json'));
  const proposeTools = files.filter((f) => /docforge_propose_/.test(f));
  assert.equal(proposeTools.length, 5);
  for (const file of [...carriers, ...proposeTools]) {
    const defs = bundled(file).$defs!;
    for (const [key, value] of Object.entries(defs)) {
      if (key in shared) assert.deepEqual(value, asBundled(shared[key]), `${file}: $defs.${key}`);
    }
  }
  for (const file of carriers) {
    const defs = bundled(file).$defs!;
    for (const [key, value] of Object.entries(shared)) if (key !== 'operations' || file.includes('register_changes')) assert.deepEqual(defs[key], asBundled(value), `${file}: $defs.${key}`);
  }
});
