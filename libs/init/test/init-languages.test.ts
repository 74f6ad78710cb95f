// Pins docforge init on the languages of the tree-sitter family (issue 33 item 5): a go.mod project's code roots and adapter, its
// vendor/ folder excluded and listed among what init left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadDescriptor } from '@docforge/project';
import { initProject } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

test('a Go module: go.mod marks it, code roots skip vendor/, which is excluded and listed as left out', () => {
  const nested = tempTree({
    'go.mod': 'module example.com/app\n', 'docs/guide.md': '# Guide\n', 'cmd/app/main.go': 'package main\nfunc main() {}\n',
    'internal/store/store.go': 'package store\n', 'vendor/github.com/x/y/y.go': 'package y\n',
  });
  const flat = tempTree({ 'go.mod': 'module example.com/lib\n', 'README.md': '# Lib\n', 'lib.go': 'package lib\n', 'vendor/a/a.go': 'package a\n' });
  try {
    const first = initProject(nested);
    assert.deepEqual(first.code_roots, ['cmd', 'internal']);
    assert.deepEqual(loadDescriptor(nested).adapter.code, ['go']);
    assert.ok(loadDescriptor(nested).sources.exclude.includes('**/vendor/**'), first.descriptor_text);
    const vendor = first.left_out.find((item) => item.path === 'vendor');
    assert.match(vendor?.reason ?? '', /Go build output or vendored dependencies \(the project has go\.mod\); excluded as "\*\*\/vendor\/\*\*"/);
    const second = initProject(flat);
    assert.deepEqual(second.code_roots, ['.']);
    assert.deepEqual(loadDescriptor(flat).adapter.code, ['go']);
    assert.ok(second.descriptor_text.includes('"**/vendor/**"'));
  } finally {
    removeTree(nested);
    removeTree(flat);
  }
});
