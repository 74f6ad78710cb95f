// Issue 30 (items 13 and 18 meet here): every string an agent can pass to a tool is bounded by its
// input schema. Each string subschema of each published input schema carries a maxLength (an enum
// or a const bounds itself), so an over-long argument is invalid_arguments before any handler runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadToolSchemas } from '../src/index.js';

/** JSON Pointers of the string subschemas of `schema` without a bound. */
function unbounded(node: unknown, at = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => unbounded(v, `${at}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  const record = node as Record<string, unknown>;
  const types = ([] as unknown[]).concat(record.type ?? []);
  const own = types.includes('string') && record.maxLength === undefined && record.enum === undefined && record.const === undefined ? [at] : [];
  return own.concat(Object.entries(record).flatMap(([k, v]) => (k === 'enum' || k === 'const' ? [] : unbounded(v, `${at}/${k}`))));
}

test('every string argument of every tool carries a maxLength', () => {
  const missing = [...loadToolSchemas()].flatMap(([name, pair]) => unbounded(pair.input).map((p) => `${name}${p}`));
  assert.deepEqual(missing, []);
});
