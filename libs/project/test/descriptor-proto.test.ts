// Pins that proposal policy tables keyed `__proto__` or `constructor` are ordinary own entries (trial finding: an assignment to `__proto__` changed the prototype, and the policy lookup by own property failed open).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadDescriptor } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const own = (table: object, key: string): boolean => Object.prototype.hasOwnProperty.call(table, key);

test('[proposals.writers.__proto__] and [proposals.appliers.__proto__] are own policy entries, the prototype untouched', () => {
  const root = tempTree({
    'docforge.toml': [
      'schema_version = 1', '[project]', 'id = "demo"',
      '[proposals.writers.__proto__]', 'operations = ["relationship_update"]', 'paths = ["docs/requirements/**"]',
      '[proposals.writers.constructor]', 'operations = ["node_update"]',
      '[proposals.appliers.__proto__]', 'writers = []',
      '',
    ].join('\n'),
  });
  try {
    const { writers, appliers } = loadDescriptor(root).proposals;
    assert.ok(own(writers, '__proto__'));
    assert.deepEqual(writers['__proto__'], { operations: ['relationship_update'], paths: ['docs/requirements/**'] });
    assert.deepEqual(writers['constructor']?.operations, ['node_update']);
    assert.equal(Object.getPrototypeOf(writers), Object.prototype);
    assert.ok(own(appliers, '__proto__'));
    assert.deepEqual(appliers['__proto__'], { writers: [] });
    assert.equal(Object.getPrototypeOf(appliers), Object.prototype);
    assert.deepEqual(Object.keys(writers).sort(), ['__proto__', 'constructor']);
  } finally {
    removeTree(root);
  }
});
