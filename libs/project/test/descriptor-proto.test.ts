// Pins that proposal policy tables keyed `constructor` (or another prototype name) are ordinary own entries (trial finding: an assignment to `__proto__` changed the prototype, and the policy lookup by own property failed open).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DocforgeError } from '@docforge/core';
import { loadDescriptor } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const own = (table: object, key: string): boolean => Object.prototype.hasOwnProperty.call(table, key);

test('[proposals.writers.constructor] and other prototype names are own policy entries, the prototype untouched; __proto__ is no writer id (issue 30)', () => {
  const root = tempTree({
    'docforge.toml': [
      'schema_version = 1', '[project]', 'id = "demo"',
      '[proposals.writers.toString]', 'operations = ["relationship_update"]', 'paths = ["docs/requirements/**"]',
      '[proposals.writers.constructor]', 'operations = ["node_update"]',
      '[proposals.appliers.hasOwnProperty]', 'writers = []',
      '',
    ].join('\n'),
  });
  try {
    const { writers, appliers } = loadDescriptor(root).proposals;
    assert.ok(own(writers, 'toString'));
    assert.deepEqual(writers['toString'], { operations: ['relationship_update'], paths: ['docs/requirements/**'] });
    assert.deepEqual(writers['constructor']?.operations, ['node_update']);
    assert.equal(Object.getPrototypeOf(writers), Object.prototype);
    assert.ok(own(appliers, 'hasOwnProperty'));
    assert.deepEqual(appliers['hasOwnProperty'], { writers: [] });
    assert.equal(Object.getPrototypeOf(appliers), Object.prototype);
    assert.deepEqual(Object.keys(writers).sort(), ['constructor', 'toString']);
    // `__proto__` is outside the id grammar of --proposal-writer / --canonical-applier (issue 30,
    // third trial 48): no process could be bound to it, so the descriptor refuses it with its key.
    for (const table of ['writers', 'appliers']) {
      writeFileSync(path.join(root, 'docforge.toml'), `schema_version = 1\n[project]\nid = "demo"\n[proposals.${table}.__proto__]\n${table === 'writers' ? 'operations = ["node_update"]' : 'writers = []'}\n`);
      assert.throws(() => loadDescriptor(root), (error: unknown) => error instanceof DocforgeError && error.code === 'descriptor_invalid'
        && error.details['key'] === `proposals.${table}.__proto__` && error.details['line'] === 4);
    }
  } finally {
    removeTree(root);
  }
});
