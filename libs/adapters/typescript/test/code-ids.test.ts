// Pins code ids of files whose names hold `#` or `%` (issue 8 item 7): the path part is percent-encoded in every strategy and in link edges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCodeId } from '@docforge/core';
import { linkTypeScript, extractTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';

// A `#` in an import specifier starts a URL fragment (Node ESM), so the importing file is the one named with `#`.
const FILES: Record<string, string> = {
  'src/a#b.ts': "import { g } from './100%';\nexport function f(): number { return g(); }\nexport class C { #secret = 1; m(): number { return f(); } }\n",
  'src/100%.ts': 'export function g(): number { return 1; }\n',
};

test('ast strategy: module and symbol ids encode # and % in the path; the first # starts the name', () => {
  const a = extractTypeScript({ path: 'src/a#b.ts', content: FILES['src/a#b.ts']!, strategy: 'ast', logic: false });
  assert.deepEqual(a.nodes.map((node) => node.id), ['code:src/a%23b.ts', 'code:src/a%23b.ts#f', 'code:src/a%23b.ts#C', 'code:src/a%23b.ts#C.m']);
  for (const node of a.nodes) assert.equal(parseCodeId(node.id)!.path, 'src/a#b.ts');
  const pct = extractTypeScript({ path: 'src/100%.ts', content: FILES['src/100%.ts']!, strategy: 'ast', logic: false });
  assert.equal(pct.nodes[0]!.id, 'code:src/100%25.ts');
  const link = linkTypeScript(
    [{ path: 'src/a#b.ts', ...a }, { path: 'src/100%.ts', ...pct }].map((file) => ({ path: file.path, nodes: file.nodes, link_data: file.link_data })),
    memoryResolver(FILES),
  );
  const edges = link.edges.map((edge) => `${edge.source_id} ${edge.relation} ${edge.target_id}`);
  assert.ok(edges.includes('code:src/a%23b.ts imports code:src/100%25.ts'), edges.join('\n'));
  assert.ok(edges.includes('code:src/a%23b.ts#f calls code:src/100%25.ts#g'), edges.join('\n'));
});

test('lexical strategy: the module id is encoded the same way', () => {
  const lexical = extractTypeScript({ path: 'src/a#b.ts', content: FILES['src/a#b.ts']!, strategy: 'lexical', logic: false });
  assert.deepEqual(lexical.nodes.map((node) => node.id), ['code:src/a%23b.ts']);
});
