// Pins the new-user trial finding on zod 3.23.8 (issue 30): `docforge init` left out
// `lib/index.umd.js` by name but indexed `lib/index.mjs`, a rollup bundle of `lib/*.js`. A bundle
// found by what it declares (bundled.ts) is left out by its path and listed with the reason.
// Inputs: zod 3.23.8 packed from the npm registry; made-up trees only for what must stay (an index
// that re-exports, a package whose only code is a bundle, twin bundles with no source beside them).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadDescriptor, walkSources } from '@docforge/project';
import { initProject } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

let pack = '';
before(() => {
  pack = tempTree({});
  execFileSync('npm', ['pack', 'zod@3.23.8', '--silent'], { cwd: pack, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('tar', ['xzf', 'zod-3.23.8.tgz'], { cwd: pack });
});
after(() => {
  if (pack !== '') removeTree(pack);
});

/** Source text declaring `names` as top-level functions. */
function declaring(names: readonly string[]): string {
  return names.map((name) => `function ${name}() { return 1; }\n`).join('');
}

test('zod 3.23.8: the rollup bundle lib/index.mjs is left out with its reason; lib/types.js and the other modules stay', () => {
  const root = join(tempTree({}), 'zod');
  try {
    cpSync(join(pack, 'package'), root, { recursive: true });
    const result = initProject(root);
    const bundle = result.left_out.find((item) => item.path === 'lib/index.mjs');
    assert.match(bundle?.reason ?? '', /^a generated bundle: \d+ of its \d+ top-level classes and functions are declared again in \d+ project files \(.*lib\/types\.js/);
    assert.ok(result.left_out.some((item) => item.path === '**/*.umd.js'));
    assert.match(result.descriptor_text, /exclude = \[.*"lib\/index\.mjs"/);
    const code = walkSources(loadDescriptor(root), ['.js', '.mjs', '.ts']).entries.filter((entry) => entry.role === 'code').map((entry) => entry.path);
    assert.ok(code.includes('lib/types.js') && code.includes('lib/ZodError.js') && code.includes('lib/index.js') && code.includes('lib/helpers/parseUtil.js'));
    assert.deepEqual(code.filter((path) => /index\.(mjs|umd\.js)$/.test(path)), []);
  } finally {
    removeTree(dirname(root));
  }
});

test('an index that re-exports, a package whose only code is a bundle and twin bundles without sources stay', () => {
  const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
  const reexports = tempTree({ 'lib/a.js': `export ${declaring(names.slice(0, 5))}`, 'lib/b.js': declaring(names.slice(5)), 'lib/index.js': "export * from './a.js';\nexport * from './b.js';\n", 'README.md': '# x\n' });
  const onlyBundle = tempTree({ 'dist/index.js': declaring(names), 'README.md': '# x\n' });
  const twins = tempTree({ 'dist/index.js': declaring(names), 'dist/index.mjs': declaring(names), 'README.md': '# x\n' });
  const bundled = tempTree({ 'lib/a.js': declaring(names.slice(0, 5)), 'lib/b.js': declaring(names.slice(5)), 'lib/all.js': declaring(names), 'README.md': '# x\n' });
  try {
    for (const root of [reexports, onlyBundle, twins]) {
      const result = initProject(root);
      assert.deepEqual(result.left_out.filter((item) => item.reason.startsWith('a generated bundle')), [], root);
      assert.doesNotMatch(result.descriptor_text, /exclude = \[.*"(lib|dist)\/index/);
    }
    assert.deepEqual(initProject(bundled).left_out.filter((item) => item.reason.startsWith('a generated bundle')).map((item) => item.path), ['lib/all.js']);
  } finally {
    for (const root of [reexports, onlyBundle, twins, bundled]) removeTree(root);
  }
});
