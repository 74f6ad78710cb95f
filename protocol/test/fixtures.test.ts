// Pins schemas, generated validators and fixtures together: every schema under protocol/schemas has a generated validator and at least one valid and one invalid fixture in protocol/fixtures/<key>/, and the validator accepts exactly the valid ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { SCHEMA_VALIDATORS, TOOL_VALIDATORS, describeValidationErrors, publishedSchema, validateCurrentJson, validateGenerationReceipt } from '../src/index.js';

const PROTOCOL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCHEMAS = path.join(PROTOCOL_DIR, 'schemas');
const FIXTURES = path.join(PROTOCOL_DIR, 'fixtures');

function schemaFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return schemaFiles(full, `${prefix}${name}/`);
    return name.endsWith('.schema.json') ? [`${prefix}${name}`] : [];
  });
}

function fixtures(key: string, kind: 'valid' | 'invalid'): { name: string; value: unknown }[] {
  const dir = path.join(FIXTURES, key, kind);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((name) => ({ name, value: JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as unknown }));
}

test('every schema file has exactly one generated validator, and every fixture folder names a schema', () => {
  assert.deepEqual(SCHEMA_VALIDATORS.map((s) => s.file).sort(), schemaFiles(SCHEMAS));
  assert.deepEqual(readdirSync(FIXTURES).sort(), SCHEMA_VALIDATORS.map((s) => s.key).sort());
});

for (const { key, file, validate } of SCHEMA_VALIDATORS) {
  test(`${key}: valid fixtures pass and invalid fixtures fail (generated and freshly compiled validators agree)`, () => {
    // The self-contained form (sources may $ref shared files; the bundle carries them in $defs).
    const fresh = new Ajv({ allErrors: true, strict: false }).compile(publishedSchema(file));
    const valid = fixtures(key, 'valid');
    const invalid = fixtures(key, 'invalid');
    assert.ok(valid.length >= 1 && invalid.length >= 1, `${key} has at least one valid and one invalid fixture`);
    for (const f of valid) {
      assert.equal(validate(f.value), true, `${key}/valid/${f.name}: ${JSON.stringify(describeValidationErrors(validate.errors))}`);
      assert.equal(fresh(f.value), true, `${key}/valid/${f.name} (fresh compile)`);
    }
    for (const f of invalid) {
      assert.equal(validate(f.value), false, `${key}/invalid/${f.name} is rejected`);
      assert.ok((validate.errors ?? []).length > 0, `${key}/invalid/${f.name} says why`);
      assert.equal(fresh(f.value), false, `${key}/invalid/${f.name} (fresh compile)`);
    }
  });
}

test('tool output schemas: ok true requires result, ok false requires error, project is always required', () => {
  const project = { id: 'p', root: '/r', revision: 0, source_hash: null, adapter_version: null, staleness: 'unknown' };
  const notice = 'n';
  const error = { code: 'invalid_arguments', message: 'm', remediation: 'fix_arguments', details: {} };
  for (const [name, v] of Object.entries(TOOL_VALIDATORS)) {
    assert.equal(v.output({ schema_version: 1, ok: false, notice, project, error }), true, name);
    assert.equal(v.output({ schema_version: 1, ok: false, notice, error }), false, `${name}: project required`);
    assert.equal(v.output({ schema_version: 1, ok: true, notice, project }), false, `${name}: ok true needs result`);
    assert.equal(v.output({ schema_version: 1, ok: false, notice, project }), false, `${name}: ok false needs error`);
    assert.equal(v.output({ schema_version: 1, ok: true, notice, project, result: {}, error }), false, `${name}: success carries no error`);
  }
});

test('current.json and the receipt validators are the exported one-per-format functions', () => {
  assert.equal(validateCurrentJson({}), false);
  assert.ok(describeValidationErrors(validateCurrentJson.errors).some((e) => /generation/.test(e.message)));
  assert.equal(validateGenerationReceipt(null), false);
});
