// Pins which paths proposals may write whatever the roots are: the most specific declared root decides (a code root nested in a content root is never written, a content root nested in a code root is), and the descriptor, the state dir and .git are never written; confineProposalPath refuses them with path_outside_root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocforgeError } from '@docforge/core';
import type { Descriptor } from '@docforge/project';
import { confineProposalPath, governingCodeRoot, isFileRootTempSibling, protectedPathProblem } from '../src/index.js';

function descriptor(contentRoots: string[], codeRoots: string[]): Descriptor {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'df-policy-')));
  return {
    schema_version: 1, root, path: path.join(root, 'docforge.toml'), project: { id: 't', name: 'T' },
    sources: { content_roots: contentRoots, code_roots: codeRoots, exclude: ['**/node_modules/**'] },
    adapter: { code: [], strategy: 'ast', module: null, canonical_applier: null }, vocabulary: { kinds: null, authorities: null, statuses: null, relations: null },
    limits: { max_results: 200, max_output_chars: 60000 }, state: { dir: '.docforge' }, views: [], proposals: { writers: {}, appliers: {} },
  };
}

test('the most specific root decides whether a path is governed by a code root', () => {
  const dot = descriptor(['.'], ['src', 'tools/gen']);
  assert.equal(governingCodeRoot('src/evil.md', dot), 'src');
  assert.equal(governingCodeRoot('tools/gen/x.md', dot), 'tools/gen');
  assert.equal(governingCodeRoot('tools/readme.md', dot), null);
  assert.equal(governingCodeRoot('srcx/a.md', dot), null, 'a prefix is not a folder');
  assert.equal(governingCodeRoot('docs/a.md', descriptor(['docs'], ['.'])), null, 'fastify: content root docs inside code root "."');
  assert.equal(governingCodeRoot('lib/docs/a.md', descriptor(['lib/docs'], ['lib'])), null);
  assert.equal(governingCodeRoot('src/a.md', descriptor(['src'], ['src'])), null, 'a folder declared as both stays content');
  assert.equal(governingCodeRoot('src/docs/a.md', descriptor(['.', 'src/docs'], ['src'])), null, 'a content root nested deeper wins again');
});

test('the descriptor, the state dir, .git and code roots are refused whatever the content roots are', () => {
  const d = descriptor(['.'], ['src']);
  for (const rel of ['docforge.toml', '.docforge', '.docforge/x.md', '.git/x.md', 'docs/.git/x.md', 'src/x.md']) {
    assert.ok(protectedPathProblem(d, rel) !== null, rel);
    assert.throws(() => confineProposalPath(d, rel), (error: unknown) => error instanceof DocforgeError && error.code === 'path_outside_root', rel);
  }
  for (const rel of ['docs/x.md', 'README.md', 'notes.toml', 'docforge.toml.md']) {
    assert.equal(protectedPathProblem(d, rel), null, rel);
    assert.equal(confineProposalPath(d, rel), rel);
  }
  assert.equal(confineProposalPath(d, './docs/x.md'), 'docs/x.md');
  assert.throws(() => confineProposalPath(d, './docforge.toml'), /project descriptor/);
});

test('a file content root (README.md inside code root "."): exactly that file is writable, plus its own temp siblings for the applier; nothing beside it', () => {
  const d = descriptor(['docs', 'README.md', 'guides/intro.md'], ['.']);
  writeFileSync(path.join(d.root, 'README.md'), '# Main\n');
  assert.equal(confineProposalPath(d, 'README.md'), 'README.md');
  assert.equal(confineProposalPath(d, 'guides/intro.md'), 'guides/intro.md');
  assert.equal(governingCodeRoot('README.md', d), null, 'the file root is more specific than code root "."');
  for (const rel of ['README.md.bak', 'README.markdown', 'NOTES.md', 'README.md/x.md', 'guides/other.md', '.README.md.1.tmp']) {
    assert.throws(() => confineProposalPath(d, rel), (error: unknown) => error instanceof DocforgeError && error.code === 'path_outside_root', rel);
  }
  assert.equal(isFileRootTempSibling('.README.md.123.abcdef.tmp', d), true);
  assert.equal(isFileRootTempSibling('guides/.intro.md.9.ff.tmp', d), true);
  for (const rel of ['.README.md.tmp', 'README.md.1.tmp', '.NOTES.md.1.x.tmp', '.intro.md.1.x.tmp', 'guides/.README.md.1.x.tmp', '.docs.1.x.tmp']) {
    assert.equal(isFileRootTempSibling(rel, d), false, rel);
  }
});
