// Pins issue 30's build-output rule on piscina 5.3.2 as installed under node_modules (its real
// src/, test/ and package.json; the package ships no tsconfig.json, so the config is written as
// piscina's compiler options place its output: dist/main.js from src/main.ts). Tests import '..'
// and '../dist/...', which package.json main/exports send into dist/, a build folder the project
// does not index: the import resolves to the source only when a tsconfig.json proves the
// outDir -> rootDir mapping, and stays unresolved (and counted) without one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractTypeScript, linkTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';

const PISCINA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../node_modules/piscina');

/** piscina's real src/ and test/ TypeScript files (fixtures included) and package.json, by project path. */
function piscinaFiles(): Record<string, string> {
  const files: Record<string, string> = { 'package.json': readFileSync(path.join(PISCINA, 'package.json'), 'utf8') };
  for (const top of ['src', 'test']) {
    for (const entry of readdirSync(path.join(PISCINA, top), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(ts|js|mjs|cjs)$/.test(entry.name)) continue;
      const abs = path.join(entry.parentPath, entry.name);
      files[path.relative(PISCINA, abs).split(path.sep).join('/')] = readFileSync(abs, 'utf8');
    }
  }
  return files;
}

function link(extra: Record<string, string>) {
  const files = { ...piscinaFiles(), ...extra };
  const inputs = Object.keys(files).filter((p) => !p.endsWith('.json')).sort()
    .map((p) => ({ path: p, ...extractTypeScript({ path: p, content: files[p]!, strategy: 'ast', logic: false }) }));
  const result = linkTypeScript(inputs, memoryResolver(files));
  const unresolved = result.issues.filter((i) => i.code === 'unresolved_import');
  const testToSrc = result.edges.filter((e) => e.source_id.startsWith('code:test/') && e.target_id.startsWith('code:src/'));
  return { result, unresolved, testToSrc };
}

/** The unresolved imports that name the package itself or its dist/ folder. */
const intoDist = (issues: { message: string }[]) => issues.filter((i) => /'(\.\.(\/dist[^']*)?|piscina)'/.test(i.message));

test('without a tsconfig.json, imports into dist/ stay unresolved and counted: nothing is guessed from folder names', () => {
  const { unresolved, testToSrc, result } = link({});
  assert.ok(intoDist(unresolved).length >= 30, `${intoDist(unresolved).length} imports of '..' or '../dist'`);
  assert.equal(result.stats['imports_unresolved'], unresolved.length);
  assert.equal(testToSrc.filter((e) => e.relation === 'imports').length, 0);
  // A tsconfig.json without outDir proves nothing either.
  assert.equal(intoDist(link({ 'tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["src"] }' }).unresolved).length, intoDist(unresolved).length);
});

for (const [label, config] of [
  ['outDir and rootDir', '{ "compilerOptions": { "outDir": "dist", "rootDir": "src", "declaration": true } }'],
  ['outDir and a single include folder (TypeScript\'s default root), through extends', null],
] as const) {
  test(`with a tsconfig.json (${label}), '..' and '../dist' resolve to src/ and tests reach the sources`, () => {
    const extra: Record<string, string> = config !== null ? { 'tsconfig.json': config } : {
      'tsconfig.json': '{\n  // as a project splits its config\n  "extends": "./config/base.json",\n  "include": ["src"],\n}',
      'config/base.json': '{ "compilerOptions": { "outDir": "../dist", "strict": true } }',
    };
    const before = link({});
    const { unresolved, testToSrc, result } = link(extra);
    assert.deepEqual(intoDist(unresolved), [], JSON.stringify(intoDist(unresolved).map((i) => i.message)));
    assert.ok(unresolved.length < before.unresolved.length);
    // '..' reaches package.json exports' `types` (dist/index.d.ts, a TypeScript importer) -> src/index.ts.
    const imports = testToSrc.filter((e) => e.relation === 'imports');
    assert.ok(imports.some((e) => e.source_id === 'code:test/simple-test.test.ts' && e.target_id === 'code:src/index.ts'), JSON.stringify(imports.slice(0, 5)));
    assert.ok(imports.length >= 25, `${imports.length} test -> src imports`);
    // The package's own name goes through the same package.json entry (a self-import beside the real tests).
    const self = link({ ...extra, 'test/self-name.test.ts': "import Piscina from 'piscina'\nexport const pool = new Piscina()\n" });
    assert.ok(self.testToSrc.some((e) => e.relation === 'imports' && e.source_id === 'code:test/self-name.test.ts' && e.target_id === 'code:src/index.ts'));
    // Tests now call into the sources: calls and tested_by edges reach Piscina.run.
    const run = result.edges.filter((e) => e.relation === 'calls' && e.target_id === 'code:src/index.ts#Piscina.run' && e.source_id.startsWith('code:test/'));
    assert.ok(run.length > 0, 'a test calls Piscina.run');
  });
}
