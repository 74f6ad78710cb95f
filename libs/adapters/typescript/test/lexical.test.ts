// Pins strategy `lexical`: module references found without any AST (comments, strings, templates and regexes skipped), the same module nodes as `ast`, imports-only linking, and parity with the AST extractor on fastify.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexTokens, linkTypeScript, extractTypeScript, scanModuleReferences, typescriptAdapter } from '../src/adapter.js';
import type { TsLinkData } from '../src/index.js';
import { memoryResolver } from './helpers.js';

function refs(text: string): string[] {
  return scanModuleReferences(text).imports.map((r) => `${r.kind} ${r.specifier} @${r.line}`);
}

test('every module reference form is found with the line of its keyword', () => {
  const source = [
    "import def from './a.js'",
    "import * as ns from './b.js';",
    "import { x,",
    "  y as z } from './c.js'",
    "import './side-effect.js'",
    "import type { T } from './types.js'",
    "import eq = require('./eq')",
    "export * from './d.js'",
    "export * as e from './e.js'",
    "export { f } from './f.js'",
    "export type { G } from './g.js'",
    'export { local }',
    "const h = require('./h')",
    "const i = await import('./i.js')",
    'const j = require(`./j`)',
    "type K = typeof import('./k.js')",
  ].join('\n');
  assert.deepEqual(refs(source), [
    'import ./a.js @1',
    'import ./b.js @2',
    'import ./c.js @3',
    'import ./side-effect.js @5',
    'import ./types.js @6',
    'require ./eq @7',
    'export ./d.js @8',
    'export ./e.js @9',
    'export ./f.js @10',
    'export ./g.js @11',
    'require ./h @13',
    'dynamic ./i.js @14',
    'require ./j @15',
    'dynamic ./k.js @16',
  ]);
});

test('comments, strings, templates and regular expressions never yield references', () => {
  const source = [
    '#!/usr/bin/env node',
    "// const a = require('./commented')",
    "/* import b from './block-commented'",
    "   require('./still-commented') */",
    "const s = \"require('./in-double-quotes')\"",
    "const t = 'import c from \\'./in-single-quotes\\''",
    "const u = `require('./in-template') ${require('./in-substitution')} import('./tail')`",
    "const r = /require\\('.\\/in-regex'\\)/g.test(x) ? 1 : 2",
    "const q = /[/'\"]/.source",
    "const d = total / count / 2; const e = require('./after-division')",
    "obj.require('./member-call'); obj?.require('./optional-member')",
    "const m = import.meta.url",
    "x = a++ / 2; const w = require('./after-increment')",
  ].join('\n');
  assert.deepEqual(refs(source), [
    'require ./in-substitution @7',
    'require ./after-division @10',
    'require ./after-increment @13',
  ]);
});

test('line numbers survive multi-line comments, templates, CRLF and line continuations', () => {
  const source = "/*\r\n\r\n*/\r\nconst a = `\r\n${1}\r\n`\r\nconst b = 'x\\\r\ny'\r\nconst c = require('./c')\r\n";
  assert.deepEqual(refs(source), ['require ./c @9']);
  const tokens = lexTokens("a\u2028b\u2029c\rd");
  assert.deepEqual(tokens.map((t) => `${t.value}@${t.line}`), ['a@1', 'b@2', 'c@3', 'd@4']);
});

test('malformed text never throws and still finds the references before the damage', () => {
  const source = "const a = require('./ok')\nconst b = 'unterminated\nconst c = require('./next-line')\nconst d = `never closed ${ require('./inside') ";
  assert.deepEqual(refs(source), ['require ./ok @1', 'require ./next-line @3', 'require ./inside @4']);
  assert.doesNotThrow(() => lexTokens('/* open comment'));
  assert.doesNotThrow(() => lexTokens('`${`${`'));
});

test('require.main and import.meta.main mark the module as an entrypoint', () => {
  assert.equal(scanModuleReferences('if (require.main === module) run()').mainCheck, true);
  assert.equal(scanModuleReferences('if (import.meta.main) run()').mainCheck, true);
  assert.equal(scanModuleReferences('const main = require("./main")').mainCheck, false);
  const r = extractTypeScript({ path: 'lib/tool.js', content: 'if (require.main === module) start()\n', strategy: 'lexical', logic: true });
  assert.deepEqual(r.nodes[0]!.capabilities, ['entrypoint']);
});

test('lexical extraction yields one module node, no Logic and imports-only link data, even when Logic is requested', () => {
  const content = [
    "import { helper } from './helper.js'",
    'export class A extends Base {',
    '  run(x) { if (x) { return helper(x) } for (;;) break }',
    '}',
    'export function f() { return new A().run(1) }',
  ].join('\n');
  const lexical = typescriptAdapter.extract({ path: 'src/a.ts', content, strategy: 'lexical', logic: true });
  const ast = typescriptAdapter.extract({ path: 'src/a.ts', content, strategy: 'ast', logic: true });
  assert.deepEqual(lexical.nodes.map((n) => n.id), ['code:src/a.ts']);
  assert.deepEqual(lexical.nodes[0], ast.nodes[0], 'the module node is identical to the AST one');
  assert.deepEqual(lexical.edges, []);
  assert.deepEqual(lexical.logic_steps, []);
  assert.deepEqual(lexical.logic_flows, []);
  assert.ok(ast.logic_steps.length > 0, 'the same text under `ast` has Logic');
  const data = lexical.link_data as TsLinkData;
  assert.deepEqual(data.imports, [{ specifier: './helper.js', line: 1, kind: 'import' }]);
  assert.deepEqual([data.bindings, data.exports, data.decls, data.calls, data.heritage], [[], [], [], [], []]);
});

test('linking lexical link data gives imports edges and nothing that needs an AST', () => {
  const files: Record<string, string> = {
    'src/a.ts': "import { b } from './b'\nimport { c } from './c/index.js'\nexport class A extends b.B { run() { return b.f() } }\n",
    'src/b.ts': "export class B {}\nexport function f() { return require('./c') }\n",
    'src/c/index.ts': 'export const c = 1\n',
    'test/a.test.ts': "import { A } from '../src/a'\ntest('x', () => new A().run())\n",
  };
  const extracted = Object.entries(files).map(([path, content]) => ({ path, ...extractTypeScript({ path, content, strategy: 'lexical', logic: false }) }));
  const linked = linkTypeScript(extracted, memoryResolver(files));
  assert.deepEqual(linked.edges.map((e) => `${e.source_id} ${e.relation} ${e.target_id} @${e.line}`), [
    'code:src/a.ts imports code:src/b.ts @1',
    'code:src/a.ts imports code:src/c/index.ts @2',
    'code:src/b.ts imports code:src/c/index.ts @2',
    'code:test/a.test.ts imports code:src/a.ts @1',
  ]);
  assert.equal(linked.stats.calls_total, 0);
  assert.equal(linked.stats.heritage_total, 0);
});

const here = dirname(fileURLToPath(import.meta.url));
const FASTIFY = join(here, '../../../../../node_modules/fastify');

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) {
      if (entry !== 'node_modules') walk(full, out);
    } else if (/\.(?:[cm]?[jt]sx?)$/.test(entry)) {
      out.push(relative(FASTIFY, full).split('\\').join('/'));
    }
  }
  return out;
}

test('on every fastify source file (lib, test, types) the lexical references and module node equal the AST ones', () => {
  const paths = [...walk(join(FASTIFY, 'lib'), []), ...walk(join(FASTIFY, 'test'), []), ...walk(join(FASTIFY, 'types'), []), 'fastify.js'];
  assert.ok(paths.length > 200, `fastify has many source files, got ${paths.length}`);
  let records = 0;
  for (const path of paths) {
    const content = readFileSync(join(FASTIFY, path), 'utf8');
    const ast = extractTypeScript({ path, content, strategy: 'ast', logic: false });
    const lexical = extractTypeScript({ path, content, strategy: 'lexical', logic: false });
    const astRefs = (ast.link_data as TsLinkData).imports;
    assert.deepEqual((lexical.link_data as TsLinkData).imports, astRefs, path);
    assert.deepEqual(lexical.nodes[0], ast.nodes[0], path);
    records += astRefs.length;
  }
  assert.ok(records > 1000, `fastify has over a thousand module references, got ${records}`);
});
