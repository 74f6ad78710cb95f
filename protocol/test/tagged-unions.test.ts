// Issue 30 item 5, every tagged union of the schemas: a `oneOf` whose branches are told apart by a
// required tag (`op`, `type`, `change`) reports the errors of the branch the tag names only, at its
// path, and an unknown tag as one error at the tag; the sources and the published (bundled) schemas
// never carry ajv's OpenAPI `discriminator` keyword (the generator adds it, scripts/discriminators.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeValidationErrors, loadToolSchemas, validateGenerationReceipt, validateGraphBrowserWorkerCommand, validateGraphBrowserWorkerMessage, type SchemaValidator } from '../src/index.js';
import { validateChangesetOperation } from '../src/generated/index.js';

const PROTOCOL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (key: string, name: string): Record<string, any> => JSON.parse(readFileSync(path.join(PROTOCOL_DIR, 'fixtures', key, 'valid', name), 'utf8'));

function errorsOf(validate: SchemaValidator<unknown>, doc: unknown): { path: string; message: string }[] {
  assert.equal(validate(doc), false, `rejected: ${JSON.stringify(doc).slice(0, 200)}`);
  return describeValidationErrors(validate.errors, 100);
}

test('a wrong field in a branch of each tagged union yields that branch\'s errors only', () => {
  const cases: { name: string; validate: SchemaValidator<unknown>; doc: unknown; expect: string[] }[] = [
    { name: 'changeset operation (op)', validate: validateChangesetOperation, doc: { op: 'node_delete', node_id: 'A', stray: true }, expect: ['/ must NOT have additional properties: stray'] },
    { name: 'worker message (type)', validate: validateGraphBrowserWorkerMessage, doc: { ...fixture('viewer-v2.worker-message', 'ready.json'), port: 'x' }, expect: ['/port must be integer'] },
    { name: 'worker command (type)', validate: validateGraphBrowserWorkerCommand, doc: { type: 'issue_token' }, expect: ["/ must have required property 'request_id'"] },
  ];
  const receipt = fixture('receipt', 'first-build.json');
  const item = receipt.items.findIndex((i: { change: string }) => i.change === 'node_added');
  assert.ok(item >= 0, 'the fixture holds a node_added item');
  const items = receipt.items.map((i: Record<string, unknown>, n: number) => (n === item ? { ...i, content_hash: 'nope' } : i));
  cases.push({ name: 'receipt item (change)', validate: validateGenerationReceipt, doc: { ...receipt, items }, expect: [`/items/${item}/content_hash must match pattern "^[0-9a-f]{64}$"`] });
  for (const c of cases) assert.deepEqual(errorsOf(c.validate, c.doc).map((e) => `${e.path} ${e.message}`), c.expect, c.name);
});

test('an unknown or missing tag is reported at the tag, not once per branch', () => {
  const message = errorsOf(validateGraphBrowserWorkerMessage, { type: 'hello', port: 1 });
  assert.deepEqual(message, [{ path: '/type', message: 'names no variant of the union: "hello"' }]);
  const command = errorsOf(validateGraphBrowserWorkerCommand, { request_id: 'r' });
  assert.deepEqual(command, [{ path: '/type', message: 'must be a string naming the variant' }]);
  const op = errorsOf(validateChangesetOperation, { op: 'node_rename' });
  assert.ok(op.every((e) => e.path === '/op'), JSON.stringify(op));
});

test('no source schema and no published tool schema carries the OpenAPI discriminator keyword', () => {
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? walk(path.join(dir, f)) : [path.join(dir, f)]));
  for (const file of walk(path.join(PROTOCOL_DIR, 'schemas'))) assert.ok(!readFileSync(file, 'utf8').includes('"discriminator"'), file);
  for (const [name, pair] of loadToolSchemas()) assert.ok(!JSON.stringify(pair).includes('"discriminator"'), name);
});
