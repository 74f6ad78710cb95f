// Pins what tools/list publishes (issue 29 item 5, issue 30 item 13): every tool's input and output schema is self-contained (only local #/$defs refs), deterministic and compiles in a fresh `new Ajv()` with nothing added (draft-07, default options, no other schema, no formats). Each input schema accepts and rejects every fixture exactly as the generated validator does. Each output schema is an outline (issue 30 item 13, third pass): it accepts every valid fixture, declares every property path of the full schema with a type (or its one `const` value), and carries no validation-only keyword; the full generated validator still rejects every invalid fixture (real results against the published outline: test/published-tool-schemas.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { TOOL_VALIDATORS, loadToolSchema, loadToolSchemas, publishedInput, publishedSchema } from '../src/index.js';

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
    // tools/list leaves the dialect keyword out of the bundled input and writes cheap definitions at their uses (issue 30 item 13).
    const { $schema: _dialect, ...input } = publishedSchema(`v1/tools/${name}.input.schema.json`);
    assert.equal(JSON.stringify(publishedInput(input)), JSON.stringify(pair.input), name);
  }
});

test('a published input schema writes a definition at its uses only where that is not longer, and keeps the tagged union and its branches named (issue 30 item 13)', () => {
  let saved = 0;
  for (const [name, pair] of schemas) {
    const { $schema: _dialect, ...bundled } = publishedSchema(`v1/tools/${name}.input.schema.json`);
    const before = JSON.stringify(bundled).length;
    const after = JSON.stringify(pair.input).length;
    assert.ok(after <= before, `${name}: ${after} > ${before}`);
    saved += before - after;
  }
  assert.ok(saved >= 800, `written at their uses, the input definitions save ${saved} characters`);
  for (const name of ['docforge_register_changes', 'docforge_create_changeset']) {
    const defs = (schemas.get(name)!.input.$defs ?? {}) as Record<string, unknown>;
    assert.deepEqual(['operation', 'op_node_create', 'op_node_delete', 'op_node_move', 'op_node_update', 'op_relationship_update'].filter((d) => !(d in defs)), [], name);
  }
});

test('a published tagged union leaves out the tag rule that each of its branches states (issue 30 item 13, fifth pass)', () => {
  for (const name of ['docforge_register_changes', 'docforge_create_changeset']) {
    const defs = (schemas.get(name)!.input.$defs ?? {}) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(defs.operation!), ['oneOf'], name);
    for (const branch of defs.operation!.oneOf as { $ref: string }[]) {
      const body = defs[branch.$ref.replace('#/$defs/', '')]!;
      assert.equal(body.type, 'object', `${name} ${branch.$ref}`);
      assert.ok((body.required as string[]).includes('op'), `${name} ${branch.$ref}`);
      assert.equal(typeof (body.properties as Record<string, { const?: unknown }>).op!.const, 'string', `${name} ${branch.$ref}`);
    }
  }
});

test('each published input schema compiles in a fresh Ajv and agrees with the generated validator on every fixture', () => {
  for (const [name, pair] of schemas) {
    const generated = TOOL_VALIDATORS[name as keyof typeof TOOL_VALIDATORS];
    const fresh = new Ajv().compile(pair.input);
    const key = `${name}.input`;
    const valid = fixtures(key, 'valid');
    const invalid = fixtures(key, 'invalid');
    assert.ok(valid.length >= 1 && invalid.length >= 1, `${key} has fixtures`);
    for (const f of valid) {
      assert.equal(fresh(f.value), true, `${key}/valid/${f.name}: ${JSON.stringify(fresh.errors)}`);
      assert.equal(generated.input(f.value), true, `${key}/valid/${f.name} (generated)`);
    }
    for (const f of invalid) {
      assert.equal(fresh(f.value), false, `${key}/invalid/${f.name}`);
      assert.equal(generated.input(f.value), false, `${key}/invalid/${f.name} (generated)`);
    }
  }
});

test('each published output schema compiles in a fresh Ajv and accepts every valid fixture; the generated validator still rejects every invalid one', () => {
  for (const [name, pair] of schemas) {
    const generated = TOOL_VALIDATORS[name as keyof typeof TOOL_VALIDATORS];
    const fresh = new Ajv().compile(pair.output);
    const key = `${name}.output`;
    const valid = fixtures(key, 'valid');
    const invalid = fixtures(key, 'invalid');
    assert.ok(valid.length >= 1 && invalid.length >= 1, `${key} has fixtures`);
    for (const f of valid) {
      assert.equal(fresh(f.value), true, `${key}/valid/${f.name}: ${JSON.stringify(fresh.errors)}`);
      assert.equal(generated.output(f.value), true, `${key}/valid/${f.name} (generated)`);
    }
    for (const f of invalid) assert.equal(generated.output(f.value), false, `${key}/invalid/${f.name} (generated)`);
  }
});

/** Keywords that only validate: a published output schema (an outline) carries none of them. */
const VALIDATION_ONLY = ['required', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'not', 'if', 'then', 'else', 'oneOf', 'enum', 'description', 'title'];

/** Every property path a schema declares (`/result/items/*`), following local `$ref`s once per path. */
function propertyPaths(schema: Record<string, unknown>): Set<string> {
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  const out = new Set<string>();
  const walk = (node: unknown, at: string, seen: ReadonlySet<string>): void => {
    if (Array.isArray(node)) return node.forEach((v) => walk(v, at, seen));
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string') {
      const name = record.$ref.replace('#/$defs/', '');
      if (!seen.has(name)) walk(defs[name], at, new Set([...seen, name]));
    }
    for (const [k, v] of Object.entries(record)) {
      if (k === 'properties' && v !== null && typeof v === 'object') {
        for (const [p, sub] of Object.entries(v)) (out.add(`${at}/${p}`), walk(sub, `${at}/${p}`, seen));
      } else if (k === 'items') walk(v, `${at}/*`, seen);
      else if (k !== '$defs' && k !== '$ref') walk(v, at, seen);
    }
  };
  walk(schema, '', new Set());
  return out;
}

/** Every keyword name used as a schema keyword in `node` (property and `$defs` names are not keywords). */
function keywords(node: unknown, names = false): string[] {
  if (Array.isArray(node)) return node.flatMap((v) => keywords(v));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => [...(names ? [] : [k]), ...keywords(v, !names && (k === 'properties' || k === '$defs'))]);
}

test('each published output schema declares every property path of the full schema, each with a type, and no validation-only keyword', () => {
  for (const [name, pair] of schemas) {
    const full = publishedSchema(`v1/tools/${name}.output.schema.json`);
    assert.deepEqual([...propertyPaths(pair.output)].sort(), [...propertyPaths(full)].sort(), `${name}: every returned field is declared`);
    const used = new Set(keywords(pair.output));
    assert.deepEqual(VALIDATION_ONLY.filter((k) => used.has(k)), [], `${name}: no validation-only keyword`);
    assert.ok(!JSON.stringify(pair.output).includes('"additionalProperties":false'), `${name}: additionalProperties is only kept as a schema`);
    const untyped: string[] = [];
    const check = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((v) => check(v, at));
      if (node === null || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if ((k === 'properties' || k === '$defs') && v !== null && typeof v === 'object') {
          for (const [p, sub] of Object.entries(v as Record<string, Record<string, unknown>>)) {
            if (!('type' in sub || 'const' in sub || '$ref' in sub || 'anyOf' in sub)) untyped.push(`${at}/${p}`);
            check(sub, `${at}/${p}`);
          }
        } else check(v, at);
      }
    };
    check(pair.output, '');
    assert.deepEqual(untyped, [], `${name}: every declared property has a type`);
  }
});
