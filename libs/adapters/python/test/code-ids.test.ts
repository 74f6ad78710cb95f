// Pins code ids of Python files whose names hold `#` or `%` (issue 8 item 7): the path part is percent-encoded in both strategies and in import edges.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { initPythonAdapter, pythonAdapter } from '../src/whole.js';
import { extractAndLink } from './helpers.js';

before(async () => {
  await initPythonAdapter();
});

test('ast strategy and linking: # and % in the path are encoded, names follow the first #', () => {
  const { parsed, link } = extractAndLink([
    { path: 'pkg/__init__.py', content: '' },
    { path: 'pkg/a#b.py', content: 'def f():\n    return 1\n\nclass C:\n    def m(self):\n        return f()\n' },
    { path: 'pkg/100%.py', content: 'import pkg\n' },
  ]);
  assert.deepEqual(parsed[1]!.nodes.map((node) => node.id), ['code:pkg/a%23b.py', 'code:pkg/a%23b.py#f', 'code:pkg/a%23b.py#C', 'code:pkg/a%23b.py#C.m']);
  assert.equal(parsed[2]!.nodes[0]!.id, 'code:pkg/100%25.py');
  const edges = link.edges.map((edge) => `${edge.source_id} ${edge.relation} ${edge.target_id}`);
  assert.ok(edges.includes('code:pkg/a%23b.py#C.m calls code:pkg/a%23b.py#f'), edges.join('\n'));
  assert.ok(edges.includes('code:pkg/100%25.py imports code:pkg/__init__.py'), edges.join('\n'));
});

test('lexical strategy: the module id is encoded the same way', () => {
  const lexical = pythonAdapter.extract({ path: 'pkg/a#b.py', content: 'import os\n', strategy: 'lexical', logic: false });
  assert.deepEqual(lexical.nodes.map((node) => node.id), ['code:pkg/a%23b.py']);
});
