// Pins the new-user trial finding on date-fns (issue 30, stop 45 "Left"): `docforge init` excludes
// generated copies, CommonJS twins of ES modules and cdn/min bundles, and lists each exclude as left
// out with its count. Inputs: date-fns 4.1.0 packed from the npm registry and the installed zod;
// made-up trees only for the cases no real package here shows (a .cjs without twin, only bundles,
// dist/ beside src/).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDescriptor, walkSources } from '@docforge/project';
import { initProject } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const ZOD = fileURLToPath(new URL('../../../../node_modules/zod', import.meta.url));

let pack = '';
before(() => {
  pack = tempTree({});
  execFileSync('npm', ['pack', 'date-fns@4.1.0', '--silent'], { cwd: pack, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('tar', ['xzf', 'date-fns-4.1.0.tgz'], { cwd: pack });
});
after(() => {
  if (pack !== '') removeTree(pack);
});

test('date-fns: cdn and min bundles and the .cjs/.d.cts twins are excluded and listed; the ES modules and .d.ts stay', () => {
  const root = join(tempTree({}), 'date-fns');
  try {
    cpSync(join(pack, 'package'), root, { recursive: true });
    const result = initProject(root);
    assert.deepEqual(result.code_roots, ['.']);
    const listed = result.left_out.filter((item) => item.path.startsWith('**/'));
    assert.deepEqual(listed.map((item) => item.path), ['**/cdn.js', '**/*.min.js', '**/*.d.cts', '**/*.cjs']);
    assert.match(listed[0]!.reason, /^98 generated bundles \(cdn\.js, fp\/cdn\.js, locale\/af\/cdn\.js, and 95 more\)/);
    assert.match(listed[3]!.reason, /^1229 CommonJS builds, each beside its ES module twin/);
    assert.match(result.descriptor_text, /exclude = \[.*"\*\*\/cdn\.js", "\*\*\/\*\.min\.js", "\*\*\/\*\.d\.cts", "\*\*\/\*\.cjs"\]/);
    const code = walkSources(loadDescriptor(root), ['.js', '.cjs', '.ts', '.cts']).entries.filter((entry) => entry.role === 'code').map((entry) => entry.path);
    assert.ok(code.includes('addDays.js') && code.includes('addDays.d.ts') && code.includes('fp/addDays.js'));
    assert.deepEqual(code.filter((path) => /\.c[jt]s$|(^|\/)cdn(\.min)?\.js$/.test(path)), []);
  } finally {
    removeTree(dirname(root));
  }
});

test('zod: its .cjs and .d.cts twins are excluded, its TypeScript sources and ES builds stay', () => {
  const root = join(tempTree({}), 'zod');
  try {
    cpSync(ZOD, root, { recursive: true });
    const result = initProject(root);
    assert.deepEqual(result.left_out.filter((item) => item.path.startsWith('**/')).map((item) => item.path), ['**/*.d.cts', '**/*.cjs']);
    const code = walkSources(loadDescriptor(root), ['.js', '.cjs', '.ts', '.cts']).entries.filter((entry) => entry.role === 'code').map((entry) => entry.path);
    assert.ok(code.includes('src/v4/classic/schemas.ts') && code.includes('v4/classic/schemas.js') && code.includes('v4/classic/schemas.d.ts'));
    assert.ok(!code.some((path) => /\.c[jt]s$/.test(path)));
  } finally {
    removeTree(dirname(root));
  }
});

test('nothing is proposed from a name where it could be a source; dist/ beside src/ is no code root', () => {
  const loneCjs = tempTree({ 'index.js': 'export const a = 1;\n', 'index.cjs': 'exports.a = 1;\n', 'tool.cjs': 'exports.b = 2;\n' });
  const onlyBundles = tempTree({ 'lib/app.min.js': 'var a=1;\n', 'README.md': '# x\n' });
  const distBeside = tempTree({ 'src/a.ts': 'export const a = 1;\n', 'dist/a.js': 'export const a = 1;\n', 'README.md': '# x\n' });
  try {
    assert.equal(initProject(loneCjs).left_out.some((item) => item.path === '**/*.cjs'), false, 'tool.cjs has no .js twin');
    const bundles = initProject(onlyBundles);
    assert.deepEqual([bundles.code_roots, bundles.left_out.filter((item) => item.path.startsWith('**/'))], [['lib'], []]);
    const dist = initProject(distBeside);
    assert.deepEqual(dist.code_roots, ['src']);
    assert.match(dist.left_out.find((item) => item.path === 'dist')?.reason ?? '', /build output beside the source folders src/);
  } finally {
    for (const root of [loneCjs, onlyBundles, distBeside]) removeTree(root);
  }
});
