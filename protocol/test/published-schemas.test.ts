// Pins what tools/list publishes (issue 29 item 5): every tool's input and output schema is self-contained (only local #/$defs refs), deterministic, compiles in a fresh `new Ajv()` with nothing added (draft-07, default options, no other schema, no formats), and accepts and rejects every fixture exactly as the generated validator does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { TOOL_VALIDATORS, loadToolSchema, loadToolSchemas, publishedSchema } from '../src/index.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');
const schemas = loadToolSchemas();

function fixtures(key: string, kind: 'valid' | 'invalid'): { name: string; value: unknown }[] {
  const dir = path.join(FIXTURES, key, kind);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((name) => ({ name, value: JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as unknown }));
}

/** Every `$ref` value anywhere in `node`. */
function refs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refs);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refs(v)));
}

test('every tool has schemas, and each published schema refers only to its own $defs, each of which is used', () => {
  assert.deepEqual([...schemas.keys()].sort(), Object.keys(TOOL_VALIDATORS).sort());
  for (const [name, pair] of schemas) {
    for (const side of ['input', 'output'] as const) {
      const schema = pair[side];
      const defs = (schema.$defs ?? {}) as Record<string, unknown>;
      assert.equal(schema.definitions, undefined, `${name} ${side}: no definitions beside $defs`);
      assert.equal(schema.type, 'object', `${name} ${side}: an object at the top`);
      const used = new Set<string>();
      for (const ref of refs(schema)) {
        const match = /^#\/\$defs\/([^/]+)$/.exec(ref);
        assert.ok(match, `${name} ${side}: ${ref} is local`);
        assert.ok(match[1]! in defs, `${name} ${side}: ${ref} exists`);
        used.add(match[1]!);
      }
      assert.deepEqual([...used].sort(), Object.keys(defs).sort(), `${name} ${side}: every bundled definition is referenced`);
      assert.deepEqual(Object.keys(defs), Object.keys(defs).sort(), `${name} ${side}: $defs in name order`);
    }
  }
});

test('published schemas are deterministic: loading again gives the same JSON', () => {
  for (const [name, pair] of schemas) {
    assert.equal(JSON.stringify(loadToolSchema(name)), JSON.stringify(pair), name);
    // tools/list leaves the dialect keyword out of the bundled input (issue 30 item 13).
    const { $schema: _dialect, ...input } = publishedSchema(`v1/tools/${name}.input.schema.json`);
    assert.equal(JSON.stringify(input), JSON.stringify(pair.input), name);
  }
});

test('each published input and output schema compiles in a fresh Ajv and agrees with the generated validator on every fixture', () => {
  for (const [name, pair] of schemas) {
    const generated = TOOL_VALIDATORS[name as keyof typeof TOOL_VALIDATORS];
    for (const side of ['input', 'output'] as const) {
      const fresh = new Ajv().compile(pair[side]);
      const key = `${name}.${side}`;
      const valid = fixtures(key, 'valid');
      const invalid = fixtures(key, 'invalid');
      assert.ok(valid.length >= 1 && invalid.length >= 1, `${key} has fixtures`);
      for (const f of valid) {
        assert.equal(fresh(f.value), true, `${key}/valid/${f.name}: ${JSON.stringify(fresh.errors)}`);
        assert.equal(generated[side](f.value), true, `${key}/valid/${f.name} (generated)`);
      }
      for (const f of invalid) {
        assert.equal(fresh(f.value), false, `${key}/invalid/${f.name}`);
        assert.equal(generated[side](f.value), false, `${key}/invalid/${f.name} (generated)`);
      }
    }
  }
});
