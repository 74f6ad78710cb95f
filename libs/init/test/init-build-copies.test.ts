// Pins the new-user trial finding on yaml 2.9.1, luxon 3.7.2 and mitt 3.0.1: init got "which copy of
// the code is the real one" wrong both ways. yaml's `browser/dist/` (an ES module build with the
// same relative file names as the CommonJS `dist/`) was indexed beside it, so every API function
// was there twice; luxon's `build/amd/luxon.js` and `build/global/luxon.js` (their source maps name
// `src/*.js`) were indexed beside `src/`; the note for `build/es6/luxon.mjs` cited the excluded
// `build/cjs-browser/luxon.js`; luxon's LICENSE.md was a content root; and mitt's `dist/`, the only
// copy of its code (package.json `main`/`module` point there; its maps name an absent `src/`), was
// excluded because nothing imports into it. Inputs: the three packages packed from the npm registry.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadDescriptor, walkSources } from '@docforge/project';
import { initProject } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const PACKAGES = ['yaml@2.9.1', 'luxon@3.7.2', 'mitt@3.0.1'];
let pack = '';
before(() => {
  pack = tempTree({});
  for (const spec of PACKAGES) {
    const name = spec.replace('@', '-');
    execFileSync('npm', ['pack', spec, '--silent'], { cwd: pack, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
    execFileSync('mkdir', ['-p', name], { cwd: pack });
    execFileSync('tar', ['xzf', `${name}.tgz`, '-C', name, '--strip-components=1'], { cwd: pack });
  }
});
after(() => {
  if (pack !== '') removeTree(pack);
});

/** A fresh copy of an unpacked package, with init run on it. */
function initCopy(name: string): { root: string; result: ReturnType<typeof initProject> } {
  const root = join(tempTree({}), name);
  cpSync(join(pack, name), root, { recursive: true });
  return { root, result: initProject(root) };
}

/** Code paths the written descriptor reads. */
function codePaths(root: string): string[] {
  return walkSources(loadDescriptor(root), ['.js', '.mjs', '.cjs', '.ts']).entries.filter((entry) => entry.role === 'code').map((entry) => entry.path);
}

test('yaml: browser/dist is a second build of dist (same module names, same code), so browser/** is excluded and dist is read', () => {
  const { root, result } = initCopy('yaml-2.9.1');
  try {
    const entry = result.left_out.find((item) => item.path === 'browser/**');
    assert.match(entry?.reason ?? '', /^another build of the same code: \d+ of its modules .*browser\/dist\/compose\/.*package\.json's entry for Node, dist\/index\.js, is there; excluded as "browser\/\*\*"/);
    assert.match(result.descriptor_text, /exclude = \[.*"browser\/\*\*"/);
    assert.deepEqual(result.kept.map((item) => item.path), ['dist']);
    const code = codePaths(root);
    assert.deepEqual(code.filter((path) => path.startsWith('browser/')), []);
    for (const path of ['dist/public-api.js', 'dist/visit.js', 'dist/nodes/identity.js', 'dist/compose/composer.js']) assert.ok(code.includes(path), path);
  } finally {
    removeTree(dirname(root));
  }
});

test('luxon: every build/ bundle whose source map names src/*.js is excluded citing src, and LICENSE.md is no content root', () => {
  const { root, result } = initCopy('luxon-3.7.2');
  try {
    const bundles = ['build/amd/luxon.js', 'build/cjs-browser/luxon.js', 'build/es6/luxon.mjs', 'build/global/luxon.js', 'build/node/luxon.js'];
    for (const path of bundles) {
      assert.match(result.left_out.find((item) => item.path === path)?.reason ?? '', /^a build of project sources: its source map names 24 of them, which init indexes \(src\//, path);
    }
    const code = codePaths(root);
    assert.deepEqual(code.filter((path) => path.startsWith('build/')), []);
    assert.ok(code.includes('src/datetime.js') && code.includes('src/impl/util.js'));
    // No reason cites, as the copy's origin, a file init itself leaves out.
    const excluded = result.left_out.map((item) => item.path);
    for (const item of result.left_out) {
      const cited = /\(([^)]*)\)/.exec(item.reason)?.[1]?.split(', ') ?? [];
      assert.deepEqual(cited.filter((path) => excluded.includes(path) && path !== item.path), [], item.path);
    }
    assert.deepEqual(result.content_roots, ['README.md']);
    assert.match(result.left_out.find((item) => item.path === 'LICENSE.md')?.reason ?? '', /license/);
  } finally {
    removeTree(dirname(root));
  }
});

test('mitt: dist/ holds the only runnable copy (package.json names it; its maps name an absent src/), so it is read, one build of it', () => {
  const { root, result } = initCopy('mitt-3.0.1');
  try {
    assert.deepEqual(result.kept.map((item) => item.path), ['dist']);
    assert.match(result.kept[0]!.reason, /package\.json names dist\/mitt\.m?js/);
    assert.doesNotMatch(result.descriptor_text, /"dist\/\*\*"/);
    assert.match(result.left_out.find((item) => item.path === 'dist/mitt.js')?.reason ?? '', /^another build of the code in dist\/mitt\.mjs: .*entry for Node, dist\/mitt\.mjs/);
    assert.deepEqual(codePaths(root).filter((path) => path.startsWith('dist/')), ['dist/mitt.mjs']);
  } finally {
    removeTree(dirname(root));
  }
});

test('same-named modules with different code (platform implementations) are no second build; a NOTICE file is no file root', () => {
  const body = (platform: string, name: string): string => `export function ${name}(input) {\n  const handle = open_${platform}_${name}(input);\n  return finish_${platform}(handle, input);\n}\n`;
  const files: Record<string, string> = { 'README.md': '# x\n', 'NOTICE.md': '# notice\n', 'index.js': "export * from './node/fs.js';\n" };
  for (const name of ['fs', 'net', 'timer', 'crypto']) {
    files[`node/${name}.js`] = body('node', name);
    files[`browser/${name}.js`] = body('browser', name);
  }
  const root = tempTree(files);
  try {
    const result = initProject(root);
    assert.deepEqual(result.left_out.filter((item) => item.reason.startsWith('another build')), []);
    assert.deepEqual(result.content_roots, ['README.md']);
  } finally {
    removeTree(root);
  }
});
