// Pins issue 30's build-output imports end to end, as the new-user trial met them: piscina 5.3.2 as
// installed (node_modules/piscina), set up by `docforge init` (which leaves dist/ out). Its tests
// import '..' and '../dist', which package.json sends into dist/: without a tsconfig.json they stay
// unresolved_import warnings and `impact` of Piscina.run reaches no test; with piscina's compiler
// options (outDir dist, rootDir src; the package ships no tsconfig.json, so it is written here)
// they resolve to src/ and the tests that call `.run(` are reached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';

const root = path.join(tempDir('docforge-build-output-'), 'piscina');
cpSync(path.join(REPO_ROOT, 'node_modules', 'piscina'), root, { recursive: true });

function cli(args: string[]): string {
  const out = spawnSync(process.execPath, [CLI_ENTRY, ...args, '-C', root], { encoding: 'utf8' });
  assert.equal(out.status, 0, `${args.join(' ')}: ${out.stderr}`);
  return out.stdout;
}

/** unresolved_import warnings naming '..' or a dist/ path, and the test files impact of Piscina.run reaches (calls, tested_by). */
function measure(): { intoDist: number; testFiles: string[] } {
  cli(['sync']);
  const issues = (JSON.parse(cli(['validate', '--json'])) as { issues: { code: string; message: string }[] }).issues;
  const intoDist = issues.filter((i) => i.code === 'unresolved_import' && /'\.\.(\/|')|dist/.test(i.message)).length;
  const impact = JSON.parse(cli(['impact', 'code:src/index.ts#Piscina.run', '--relations', 'calls,tested_by', '--depth', '1', '--limit', '200', '--json'])) as { result: { items: { id: string }[] } };
  const testFiles = [...new Set(impact.result.items.map((i) => i.id.split('#')[0]!).filter((id) => id.startsWith('code:test/')))];
  return { intoDist, testFiles };
}

test("init's project: imports into dist/ resolve to src/ only once a tsconfig.json proves outDir -> rootDir", () => {
  cli(['init']);
  const before = measure();
  assert.ok(before.intoDist >= 30, `without a tsconfig.json: ${before.intoDist} unresolved imports into dist/`);
  assert.deepEqual(before.testFiles, []);
  writeFileSync(path.join(root, 'tsconfig.json'), '{\n  "compilerOptions": { "module": "commonjs", "outDir": "dist", "rootDir": "src", "declaration": true },\n  "include": ["src"]\n}\n');
  const after = measure();
  assert.equal(after.intoDist, 0);
  assert.ok(after.testFiles.length >= 20, `${after.testFiles.length} test files reached: ${JSON.stringify(after.testFiles)}`);
  assert.ok(after.testFiles.includes('code:test/simple-test.test.ts'), JSON.stringify(after.testFiles));
});
