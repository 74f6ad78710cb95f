// Pins relative imports of declaration files end to end on fastify's own package: `import … from '../../types/request.js'` in test/types/*.tst.ts resolves to types/request.d.ts as TypeScript resolves it (no unresolved_import warning; imports, calls, inherits and impact through the .d.ts), while fastify's JavaScript keeps its runtime files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sharedFastifyProject } from './helpers/shared-fixtures.js';
import { useServer } from './helpers/server.js';

// Reads only: the run's shared built copy (test/helpers/shared-fixtures.ts).
const root = sharedFastifyProject(['lib', 'test', 'types', 'fastify.js', 'fastify.d.ts', 'package.json'], [
  'schema_version = 1', '[project]', 'id = "fastify"', 'name = "Fastify"', '[sources]', 'content_roots = []', 'code_roots = ["."]',
  'exclude = ["**/node_modules/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
].join('\n'));
const s = await useServer(root);

interface Item { code: string; path: string; line: number; message: string }
const validation = await s.call('docforge_validate_project', { limit: 200 });
if (!validation.ok) throw new Error(JSON.stringify(validation.error));
assert.equal(validation.result!.truncated, false);
const unresolved: Item[] = validation.result!.items.filter((item: Item) => item.code === 'unresolved_import');

/** Relative specifiers ending in .js in fastify's TypeScript type tests whose .d.ts exists beside the named .js path (and no .js does). */
function declarationImports(): { file: string; specifier: string; target: string }[] {
  const out: { file: string; specifier: string; target: string }[] = [];
  const dir = path.join(root, 'test', 'types');
  for (const name of readdirSync(dir).filter((n) => /\.m?ts$/.test(n)).sort()) {
    const file = `test/types/${name}`;
    for (const match of readFileSync(path.join(root, file), 'utf8').matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
      const base = path.posix.join('test/types', match[1]!);
      if (existsSync(path.join(root, `${base}.d.ts`)) && !existsSync(path.join(root, `${base}.js`))) out.push({ file, specifier: `${match[1]}.js`, target: `${base}.d.ts` });
    }
  }
  return out;
}

test('no unresolved_import for a specifier that has a .d.ts target; the warnings left name files that do not exist', () => {
  assert.equal(validation.ok, true, JSON.stringify(validation.error));
  const imports = declarationImports();
  assert.ok(imports.length >= 26, `fastify's type tests import many .d.ts files through .js specifiers (${imports.length})`);
  for (const { file, specifier } of imports) {
    assert.ok(!unresolved.some((i) => i.path === file && i.message.includes(`'${specifier}'`)), `${file}: ${specifier}`);
  }
  // Each remaining warning is a module fastify's package does not ship (build output, bundler fixtures).
  for (const item of unresolved) {
    const specifier = /Cannot resolve module '([^']+)'/.exec(item.message)![1]!;
    const base = path.join(root, path.dirname(item.path), specifier);
    for (const ext of ['', '.js', '.ts', '.d.ts', '.mjs', '.cjs', '/index.js', '/index.d.ts']) assert.ok(!existsSync(base + ext), `${item.path}: ${specifier}${ext} exists`);
  }
  assert.ok(unresolved.length <= 5, JSON.stringify(unresolved.map((i) => `${i.path}:${i.line} ${i.message}`)));
});

test('the type tests import the declaration files: imports edges and impact from types/*.d.ts', async () => {
  for (const { file, target } of declarationImports()) {
    const deps = await s.call('docforge_dependencies', { node_id: `code:${file}`, relations: ['imports'], depth: 1, limit: 100 });
    assert.ok(deps.result!.items.some((i: { id: string }) => i.id === `code:${target}`), `${file} imports ${target}`);
  }
  const impact = await s.call('docforge_impact', { node_id: 'code:types/request.d.ts', relations: ['imports'], depth: 1, limit: 100 });
  const importers = impact.result!.items.map((i: { id: string }) => i.id);
  for (const id of ['code:test/types/request.tst.ts', 'code:test/types/instance.tst.ts', 'code:test/types/content-type-parser.tst.ts']) assert.ok(importers.includes(id), id);
});

test('names imported from a .d.ts bind like ones from a .ts: inherits and calls edges into types/logger.d.ts', async () => {
  const heirs = await s.call('docforge_impact', { node_id: 'code:types/logger.d.ts#FastifyBaseLogger', relations: ['inherits'], depth: 1, limit: 100 });
  assert.ok(heirs.result!.items.some((i: { id: string }) => i.id === 'code:test/types/logger.tst.ts#CustomLogger'), JSON.stringify(heirs.result!.items));
  const callers = await s.call('docforge_impact', { node_id: 'code:types/logger.d.ts#FastifyBaseLogger.child', relations: ['calls'], depth: 1, limit: 100 });
  assert.ok(callers.result!.items.some((i: { id: string }) => i.id === 'code:test/types/instance.tst.ts#childLoggerFactory'), JSON.stringify(callers.result!.items));
});

test("fastify's JavaScript keeps its runtime files: require('..') and './fastify.js' name fastify.js, not fastify.d.ts", async () => {
  const impact = await s.call('docforge_impact', { node_id: 'code:fastify.js', relations: ['imports'], depth: 1, limit: 200 });
  const importers: string[] = impact.result!.items.map((i: { id: string }) => i.id);
  assert.ok(importers.length > 50, `fastify's JavaScript tests import fastify.js (${importers.length})`);
  assert.ok(importers.every((id) => /\.[cm]?js$/.test(id)), JSON.stringify(importers.filter((id) => !/\.[cm]?js$/.test(id))));
  const declared = await s.call('docforge_impact', { node_id: 'code:fastify.d.ts', relations: ['imports'], depth: 1, limit: 200 });
  assert.ok(declared.result!.items.some((i: { id: string }) => i.id === 'code:test/types/fastify.tst.ts'));
});
