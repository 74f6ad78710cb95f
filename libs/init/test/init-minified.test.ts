// Pins the new-user trial finding on marked 18: `docforge init` excluded `*.umd.js` but kept
// `lib/marked.esm.js`, a minified bundle under no bundle name, which was then indexed as `#$`, `#G`,
// `#ne.walkTokens`. A minified file (core `minifiedEvidence`: long lines, little whitespace) is left
// out by its path with the evidence as its reason. Input: the installed @decimalturn/toml-patch,
// which ships the same shape (`dist/toml-patch.js` minified beside `dist/toml-patch.d.ts`), and
// qs (readable `lib/*.js` beside its browserify bundle `dist/qs.js`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDescriptor, walkSources } from '@docforge/project';
import { initProject } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const NODE_MODULES = resolve(fileURLToPath(import.meta.url), '../../../../../node_modules');

test('toml-patch: the minified dist/toml-patch.js is left out with its evidence; its declarations stay', () => {
  const root = tempTree({});
  try {
    const installed = join(NODE_MODULES, '@decimalturn/toml-patch');
    for (const file of ['README.md', 'package.json', 'dist/toml-patch.js', 'dist/toml-patch.d.ts']) cpSync(join(installed, file), join(root, file));
    const result = initProject(root);
    const left = result.left_out.find((item) => item.path === 'dist/toml-patch.js');
    assert.match(left?.reason ?? '', /^minified code: \d+% of its text on lines of 500\+ characters \(longest \d+\), \d+(\.\d)?% whitespace.*excluded as "dist\/toml-patch\.js"/, JSON.stringify(result.left_out));
    assert.match(result.descriptor_text, /exclude = \[.*"dist\/toml-patch\.js"/);
    const code = walkSources(loadDescriptor(root), ['.js', '.ts']).entries.filter((entry) => entry.role === 'code').map((entry) => entry.path);
    assert.deepEqual(code.filter((path) => path.startsWith('dist/')), ['dist/toml-patch.d.ts']);
  } finally {
    removeTree(root);
  }
});

test('qs: readable lib/*.js stay; a package whose only code is minified keeps it', () => {
  const qs = tempTree({});
  const only = tempTree({});
  try {
    cpSync(join(NODE_MODULES, 'qs/lib'), join(qs, 'lib'), { recursive: true });
    cpSync(join(NODE_MODULES, 'qs/README.md'), join(qs, 'README.md'));
    cpSync(join(NODE_MODULES, 'qs/dist/qs.js'), join(qs, 'lib/qs.bundle-free.js'));
    const result = initProject(qs);
    assert.deepEqual(result.left_out.filter((item) => item.reason.startsWith('minified code')).map((item) => item.path), ['lib/qs.bundle-free.js']);
    cpSync(join(NODE_MODULES, 'qs/dist/qs.js'), join(only, 'lib/qs.js'));
    cpSync(join(NODE_MODULES, 'qs/README.md'), join(only, 'README.md'));
    assert.deepEqual(initProject(only).left_out.filter((item) => item.reason.startsWith('minified code')), []);
  } finally {
    removeTree(qs);
    removeTree(only);
  }
});

test('a file whose first 64 KiB are one data literal is judged by the code after it (attacker trial on main)', () => {
  // A 93 KB base64 constant before ordinary functions was left out as minified, "longest 65536".
  // Real data and code: markdown-it's minified bundle as a base64 constant before qs's readable
  // `lib/utils.js`; the bundle itself, after the same constant, is still left out.
  const root = tempTree({});
  try {
    cpSync(join(NODE_MODULES, 'qs/lib'), join(root, 'lib'), { recursive: true });
    cpSync(join(NODE_MODULES, 'qs/README.md'), join(root, 'README.md'));
    const data = `var FONT = "${readFileSync(join(NODE_MODULES, 'markdown-it/dist/markdown-it.min.js')).toString('base64')}";\n`;
    writeFileSync(join(root, 'lib/font-data.js'), data + readFileSync(join(NODE_MODULES, 'qs/lib/utils.js'), 'utf8'));
    const bundle = readFileSync(join(NODE_MODULES, 'qs/dist/qs.js'), 'utf8');
    writeFileSync(join(root, 'lib/packed.js'), data + bundle);
    const left = initProject(root).left_out.filter((item) => item.reason.startsWith('minified code'));
    assert.deepEqual(left.map((item) => item.path), ['lib/packed.js']);
    const longest = Math.max(...bundle.split('\n').map((line) => line.length));
    assert.match(left[0]!.reason, new RegExp(`\\(longest ${String(longest)}\\)`));
  } finally {
    removeTree(root);
  }
});
