// Pins [[views]] declarations (issue 11): renderer-specific keys, selectors, and clear errors for unknown renderers, outputs outside the project (lexically) or in the state dir, and duplicates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DocforgeError } from '@docforge/core';
import { loadDescriptor } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const MINIMAL = 'schema_version = 1\n[project]\nid = "demo"\n';

function load(views: string) {
  const root = tempTree({ 'docforge.toml': `${MINIMAL}${views}` });
  try {
    return loadDescriptor(root);
  } finally {
    removeTree(root);
  }
}

function invalid(views: string, key: string, message: RegExp): void {
  assert.throws(() => load(views), (error: unknown) => {
    assert.ok(error instanceof DocforgeError && error.code === 'descriptor_invalid', String(error));
    assert.equal(error.details['key'], key);
    assert.match(error.message, message);
    return true;
  });
}

test('each renderer keeps its own keys; graph depth defaults to 2; selectors keep their lists', () => {
  const d = load([
    '[[views]]\nid = "m"\nrenderer = "matrix"\nrows = { kinds = ["requirement"] }\ncolumns = { kinds = ["component"], tags = ["api"] }\nrelations = ["implements", "implements"]\noutput = "site/m.html"\n',
    '[[views]]\nid = "g"\nrenderer = "graph"\nfocus = "CMP-A"\noutput = "site/g.html"\n',
    '[[views]]\nid = "p"\ntitle = "Page"\nrenderer = "page"\nselect = { ids = ["A", "B"] }\noutput = "site/p.html"\n',
  ].join(''));
  assert.deepEqual(d.views, [
    { id: 'm', title: 'm', renderer: 'matrix', select: {}, output: 'site/m.html', rows: { kinds: ['requirement'] }, columns: { kinds: ['component'], tags: ['api'] }, relations: ['implements'] },
    { id: 'g', title: 'g', renderer: 'graph', select: {}, output: 'site/g.html', focus: 'CMP-A', depth: 2 },
    { id: 'p', title: 'Page', renderer: 'page', select: { ids: ['A', 'B'] }, output: 'site/p.html' },
  ]);
});

test('unknown renderer, wrong renderer keys, missing matrix and graph keys are refused with the key', () => {
  invalid('[[views]]\nid = "a"\nrenderer = "shell"\noutput = "a.html"\n', 'views.0.renderer', /must be one of: page, catalog, matrix, graph \(unknown renderer "shell"\)/);
  invalid('[[views]]\nid = "a"\nrenderer = "page"\nfocus = "X"\noutput = "a.html"\n', 'views.0.focus', /is a key of the graph renderer, not of page/);
  invalid('[[views]]\nid = "a"\nrenderer = "matrix"\nrows = {}\ncolumns = {}\noutput = "a.html"\n', 'views.0.relations', /is required for the matrix renderer/);
  invalid('[[views]]\nid = "a"\nrenderer = "matrix"\nrows = {}\ncolumns = {}\nrelations = []\noutput = "a.html"\n', 'views.0.relations', /at least one relation/);
  invalid('[[views]]\nid = "a"\nrenderer = "graph"\noutput = "a.html"\n', 'views.0.focus', /is required for the graph renderer/);
  invalid('[[views]]\nid = "a"\nrenderer = "graph"\nfocus = "X"\ndepth = 9\noutput = "a.html"\n', 'views.0.depth', /from 1 to 4/);
  invalid('[[views]]\nid = "a"\nrenderer = "graph"\nfocus = "X"\ndepth = 2.0\noutput = "a.html"\n', 'views.0.depth', /must be an integer from 1 to 4 \(got a TOML float/);
  invalid('[[views]]\nid = "a"\nrenderer = "page"\nselect = { kind = ["x"] }\noutput = "a.html"\n', 'views.0.select.kind', /not a known selector key/);
});

test('outputs: .html, inside the project, outside the state dir, one view per file; view ids unique', () => {
  invalid('[[views]]\nid = "a"\nrenderer = "page"\noutput = "site/a.md"\n', 'views.0.output', /must name an \.html file/);
  invalid('[[views]]\nid = "a"\nrenderer = "page"\noutput = "/tmp/a.html"\n', 'views.0.output', /must be a relative path/);
  invalid('[[views]]\nid = "a"\nrenderer = "page"\noutput = "../a.html"\n', 'views.0.output', /must not escape/);
  invalid('[[views]]\nid = "a"\nrenderer = "page"\noutput = ".docforge/a.html"\n', 'views.0.output', /must not lie inside the state dir ".docforge"/);
  invalid('[[views]]\nid = "a"\nrenderer = "page"\noutput = "a.html"\n[[views]]\nid = "a"\nrenderer = "catalog"\noutput = "b.html"\n', 'views.1.id', /duplicates the view id "a"/);
  invalid('[[views]]\nid = "a"\nrenderer = "page"\noutput = "a.html"\n[[views]]\nid = "b"\nrenderer = "catalog"\noutput = "a.html"\n', 'views.1.output', /is also the output of view "a"/);
});

test('outputs are validated lexically: a symbolic link on the way is left to render, preview and status of that view (test/issue-trial-render-output)', () => {
  const outside = tempTree({ 'x.txt': 'x' });
  const root = tempTree({ 'docforge.toml': `${MINIMAL}[[views]]\nid = "a"\nrenderer = "page"\noutput = "site/a.html"\n` });
  try {
    symlinkSync(outside, join(root, 'site'));
    assert.equal(loadDescriptor(root).views[0]!.output, 'site/a.html', 'a link at an output never makes the whole descriptor invalid');
    writeFileSync(join(root, 'docforge.toml'), `${MINIMAL}[[views]]\nid = "a"\nrenderer = "page"\noutput = "../a.html"\n`);
    assert.throws(() => loadDescriptor(root), /must not escape the project root/);
    writeFileSync(join(root, 'docforge.toml'), `${MINIMAL}[[views]]\nid = "a"\nrenderer = "page"\noutput = "a.html"\n`);
    assert.equal(loadDescriptor(root).views[0]!.output, 'a.html');
  } finally {
    removeTree(root);
    removeTree(outside);
  }
});
