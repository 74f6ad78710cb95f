// Pins the verdicts and first errors of the hand validator that preceded the schema-driven shape check (commit 88c731b; issue 29 item 4 asks for no user-visible change): forms it accepted stay accepted, and a semantic problem it met first is still the one reported when a later key also fails the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocforgeError } from '@docforge/core';
import { loadDescriptor } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const MINIMAL = 'schema_version = 1\n[project]\nid = "demo"\n';
const MATRIX = (relations: string): string =>
  `[[views]]\nid = "m"\nrenderer = "matrix"\noutput = "out/m.html"\nrelations = ${relations}\n[views.rows]\nkinds = ["a"]\n[views.columns]\nkinds = ["b"]\n`;

function load(body: string): ReturnType<typeof loadDescriptor> {
  const root = tempTree({ 'docforge.toml': `${MINIMAL}${body}`, 'docs/.keep': '' });
  try {
    return loadDescriptor(root);
  } finally {
    removeTree(root);
  }
}

function firstError(body: string): { code: string; message: string; key: unknown; line: unknown } {
  try {
    load(body);
  } catch (error) {
    assert.ok(error instanceof DocforgeError, String(error));
    return { code: error.code, message: error.message, key: error.details['key'], line: error.details['line'] };
  }
  assert.fail('expected the descriptor to be refused');
}

test('a writer may repeat an operation: it counts once', () => {
  const d = load('[proposals.writers.bot]\noperations = ["node_create", "node_create", "node_update"]\n');
  assert.deepEqual(d.proposals.writers['bot'], { operations: ['node_create', 'node_update'], paths: null });
});

test('empty strings are accepted in writer paths, applier writers and matrix relations', () => {
  assert.deepEqual(load('[proposals.writers.bot]\npaths = [""]\n').proposals.writers['bot'], { operations: null, paths: [''] });
  assert.deepEqual(load('[proposals.appliers.ap]\nwriters = [""]\n').proposals.appliers['ap'], { writers: [''] });
  assert.deepEqual(load(MATRIX('[""]')).views[0]?.relations, ['']);
});

test('an empty writer glob does not hide a later bad glob of the same list', () => {
  const e = firstError('[proposals.writers.bot]\npaths = ["", "/x"]\n');
  assert.equal(e.key, 'proposals.writers.bot.paths');
  assert.match(e.message, /glob "\/x" must be project-relative without "\.\."/);
});

test('a view output ending in / or /. names the .html file before it', () => {
  for (const output of ['out/a.html/', 'out/a.html//', 'out/a.html/.', 'out/a.html/./']) {
    assert.equal(load(`[[views]]\nid = "v"\nrenderer = "page"\noutput = "${output}"\n`).views[0]?.output, 'out/a.html', output);
  }
  const e = firstError('[[views]]\nid = "v"\nrenderer = "page"\noutput = "out/a.html/.."\n');
  assert.equal(e.key, 'views.0.output');
  assert.match(e.message, /must not escape the project root/);
});
