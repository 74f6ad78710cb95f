// Pins the third trial's language label (issue 30): one adapter (`cpp`) reads C and C++, and every node it made was
// labelled `cpp`, so a `languages: ["c"]` search or filter found nothing and suggested nothing. A file parsed with the C
// grammar (`.c`, and `.h` when `[adapter.c] headers = "c"`, which init writes for a project without C++ sources) now
// carries language `c`; C++ files keep `cpp`, under both strategies. Inputs, as installed: better-sqlite3's
// deps/test_extension.c (MIT), tree-sitter-c's bindings/node/binding.cc and src/tree_sitter/array.h (MIT).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, inputSkip } from './helpers.js';

const MODULES = fileURLToPath(new URL('../../../../../node_modules/', import.meta.url));
const C_FILE = `${MODULES}better-sqlite3/deps/test_extension.c`;
const CC_FILE = `${MODULES}tree-sitter-c/bindings/node/binding.cc`;
const H_FILE = `${MODULES}tree-sitter-c/src/tree_sitter/array.h`;

/** The distinct languages of the nodes `adapter` extracts from the file at `path` with `content`. */
function languages(adapter: CodeAdapter, path: string, content: string, strategy: 'ast' | 'lexical', headers?: 'c' | 'cpp'): (string | null)[] {
  const options = headers === undefined ? {} : { options: { c: { include_dirs: [], headers } } };
  const result = adapter.extract({ path, content, strategy, logic: strategy === 'ast', ...options });
  assert.ok(result.nodes.length > 0, `${path}: no nodes`);
  return [...new Set(result.nodes.map((node) => node.language))].sort();
}

describe('C files carry language c, C++ files cpp', { skip: inputSkip(C_FILE, 'npm ci') || inputSkip(CC_FILE, 'npm ci') }, () => {
  let adapter: CodeAdapter;
  before(async () => {
    adapter = await adapterFor('cpp');
  });

  for (const strategy of ['ast', 'lexical'] as const) {
    it(`${strategy}: better-sqlite3's test_extension.c is c, tree-sitter-c's binding.cc is cpp`, () => {
      assert.deepEqual(languages(adapter, 'deps/test_extension.c', readFileSync(C_FILE, 'utf8'), strategy), ['c']);
      assert.deepEqual(languages(adapter, 'bindings/node/binding.cc', readFileSync(CC_FILE, 'utf8'), strategy), ['cpp']);
    });

    it(`${strategy}: a .h file is c under headers = "c" and cpp by default (C++ grammar)`, () => {
      const text = readFileSync(H_FILE, 'utf8');
      assert.deepEqual(languages(adapter, 'src/tree_sitter/array.h', text, strategy, 'c'), ['c']);
      assert.deepEqual(languages(adapter, 'src/tree_sitter/array.h', text, strategy), ['cpp']);
      assert.deepEqual(languages(adapter, 'src/tree_sitter/array.h', text, strategy, 'cpp'), ['cpp']);
    });
  }
});
