// Pins the new-user trial 48 finding left open (issue 30): on axios 1.21.1 `docforge init` proposed `lib` as a content
// root, although it is the package's code (60-odd .js files) with four READMEs beside it, so every `*.md` and `*.toml`
// under lib would be read as documentation records. A top-level folder holding more code files than Markdown files is
// now no content root: it is listed in `left_out` with its counts and how to add it. Top-level Markdown files stay file
// roots, a folder that is mostly Markdown (a `guide/` with one example script) stays a content root, and a docs folder
// is chosen as before. Input: axios 1.21.1 from the npm registry.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { initProject } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

let pack = '';
before(() => {
  pack = tempTree({});
  execFileSync('npm', ['pack', 'axios@1.21.1', '--silent'], { cwd: pack, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
  execFileSync('tar', ['xzf', 'axios-1.21.1.tgz'], { cwd: pack });
});
after(() => {
  if (pack !== '') removeTree(pack);
});

test('axios: lib (code with four READMEs) is no content root, and left_out says why', () => {
  const result = initProject(join(pack, 'package'));
  assert.ok(!result.content_roots.includes('lib'), JSON.stringify(result.content_roots));
  assert.ok(result.content_roots.includes('README.md'), JSON.stringify(result.content_roots));
  assert.ok(result.code_roots.includes('lib') || result.code_roots.includes('.'), JSON.stringify(result.code_roots));
  const lib = result.left_out.find((entry) => entry.path === 'lib');
  assert.ok(lib !== undefined, JSON.stringify(result.left_out));
  assert.match(lib.reason, /^a code folder: \d+ code files beside 4 Markdown files/);
  assert.match(lib.reason, /add "lib" to content_roots/);
});

test('a folder that is mostly Markdown stays a content root; a docs folder is chosen as before', () => {
  const guide = tempTree({ 'guide/intro.md': '# Intro\n', 'guide/setup.md': '# Setup\n', 'guide/example.js': 'export const x = 1;\n', 'src/index.js': 'export {};\n' });
  try {
    const result = initProject(guide);
    assert.deepEqual(result.content_roots, ['guide']);
    assert.ok(!result.left_out.some((entry) => entry.reason.startsWith('a code folder')), JSON.stringify(result.left_out));
  } finally {
    removeTree(guide);
  }
  const docs = tempTree({ 'docs/a.md': '# A\n', 'lib/README.md': '# Lib\n', 'lib/a.js': 'export {};\n', 'lib/b.js': 'export {};\n' });
  try {
    assert.deepEqual(initProject(docs).content_roots, ['docs']);
  } finally {
    removeTree(docs);
  }
});
