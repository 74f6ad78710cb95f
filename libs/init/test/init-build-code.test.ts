// Pins the new-user trial 48 finding on yargs 18.2.0 (issue 30): init excluded `build/` by its name
// although yargs ships its implementation only there (`index.mjs` imports
// './build/lib/yargs-factory.js'), so the index held 9 nodes and none of the code. A build-named
// folder the project's own code imports, that no present source generates, is read as code and
// reported as kept. Inputs: yargs packed from the npm registry; the installed ajv and piscina, whose
// dist/ is generated from sources they ship (source maps name lib/*.ts and src/*.ts), stay excluded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDescriptor, walkSources } from '@docforge/project';
import { initProject } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const MODULES = fileURLToPath(new URL('../../../../node_modules/', import.meta.url));

let pack = '';
before(() => {
  pack = tempTree({});
  execFileSync('npm', ['pack', 'yargs@18.2.0', '--silent'], { cwd: pack, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('tar', ['xzf', 'yargs-18.2.0.tgz'], { cwd: pack });
});
after(() => {
  if (pack !== '') removeTree(pack);
});

/** Code paths the written descriptor reads. */
function codePaths(root: string): string[] {
  return walkSources(loadDescriptor(root), ['.js', '.mjs', '.cjs', '.ts']).entries.filter((entry) => entry.role === 'code').map((entry) => entry.path);
}

/** A copy of an installed package (without its own node_modules) in a new temporary folder. */
function installedCopy(name: string): string {
  const root = join(tempTree({}), name);
  cpSync(join(MODULES, name), root, { recursive: true });
  rmSync(join(root, 'node_modules'), { recursive: true, force: true });
  return root;
}

test('yargs: build/ holds the only copy of the code index.mjs imports, so init reads it and says why', () => {
  const root = join(tempTree({}), 'yargs');
  try {
    cpSync(join(pack, 'package'), root, { recursive: true });
    const result = initProject(root);
    assert.deepEqual(result.code_roots, ['.']);
    assert.deepEqual(result.kept.map((item) => item.path), ['build']);
    assert.match(result.kept[0]!.reason, /imports '\.\.?\/(\.\.\/)?build\/lib\/[\w/-]+\.js'/);
    assert.match(result.kept[0]!.reason, /add "build\/\*\*" to \[sources\]\.exclude to leave it out/);
    assert.ok(!result.left_out.some((item) => item.path === 'build'), 'build is not also listed as left out');
    assert.doesNotMatch(result.descriptor_text, /"build\/\*\*"/);
    assert.match(result.descriptor_text, /"dist\/\*\*"/);
    const code = codePaths(root);
    assert.ok(code.includes('build/lib/yargs-factory.js') && code.includes('build/lib/command.js') && code.includes('index.mjs'));
  } finally {
    removeTree(dirname(root));
  }
});

test('ajv and piscina: dist/ is generated from the sources they ship, so it stays excluded and is listed as left out', () => {
  for (const name of ['ajv', 'piscina']) {
    const root = installedCopy(name);
    try {
      const result = initProject(root);
      assert.deepEqual(result.kept, [], name);
      assert.ok(result.left_out.some((item) => item.path === 'dist'), `${name}: dist listed as left out`);
      assert.ok(!codePaths(root).some((path) => path.startsWith('dist/')), `${name}: nothing under dist is read`);
    } finally {
      removeTree(dirname(root));
    }
  }
});

test('a build folder nothing outside it imports stays excluded, and so does an imported one a TypeScript source generates', () => {
  const plain = tempTree({ 'index.js': "module.exports = require('./lib/a.js');\n", 'lib/a.js': 'exports.a = 1;\n', 'build/a.js': 'exports.a = 1;\n' });
  const twin = tempTree({ 'index.js': "module.exports = require('./dist/a.js');\n", 'src/a.ts': 'export const a = 1;\n', 'dist/a.js': 'exports.a = 1;\n' });
  try {
    for (const [root, glob] of [[plain, /"build\/\*\*"/], [twin, /"dist\/\*\*"/]] as const) {
      const result = initProject(root);
      assert.deepEqual(result.kept, []);
      assert.match(result.descriptor_text, glob);
    }
  } finally {
    removeTree(plain);
    removeTree(twin);
  }
});

test('a dist/ beside other code folders stays a code root when one of them imports it and nothing generates it', () => {
  const only = tempTree({ 'bin/cli.js': "require('../dist/index.js');\n", 'dist/index.js': 'exports.run = () => 1;\n', 'scripts/tool.js': 'exports.t = 1;\n' });
  const built = tempTree({ 'bin/cli.js': "require('../dist/index.js');\n", 'dist/index.js': 'exports.run = () => 1;\n', 'src/index.ts': 'export const run = () => 1;\n' });
  try {
    const kept = initProject(only);
    assert.deepEqual(kept.code_roots, ['bin', 'dist', 'scripts']);
    assert.deepEqual(kept.kept.map((item) => item.path), ['dist']);
    assert.match(kept.kept[0]!.reason, /bin\/cli\.js imports '\.\.\/dist\/index\.js'/);
    const generated = initProject(built);
    assert.deepEqual(generated.code_roots, ['bin', 'src']);
    assert.deepEqual(generated.kept, []);
    assert.ok(generated.left_out.some((item) => item.path === 'dist'));
  } finally {
    removeTree(only);
    removeTree(built);
  }
});
