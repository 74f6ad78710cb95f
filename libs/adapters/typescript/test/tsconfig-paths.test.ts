// Pins tsconfig/jsconfig `paths` and `baseUrl` aliases: extends chains (JSON with comments), nearest config per directory, unresolved aliases as unresolved_import warnings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkTypeScript, extractTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';
import { parseConfigText as parseWith } from '@docforge/ts-paths';
import { lenientConfigText } from '../src/resolve.js';

/** The adapter's reading of a config text: jsonc-parser, then TypeScript's reader. */
const parseConfigText = (text: string): Record<string, unknown> | null => parseWith(text, lenientConfigText);
import ts from 'typescript';

const FILES: Record<string, string> = {
  'tsconfig.json': [
    '// the project config',
    '{',
    '  "extends": "./config/tsconfig.base.json",',
    '  "compilerOptions": {',
    '    /* paths relative to baseUrl, inherited from the base */',
    '    "paths": { "@app/*": ["src/app/*", "src/fallback/*"], "@shared": ["src/shared/index.ts"], "@gone/*": ["src/gone/*"], },',
    '  },',
    '}',
  ].join('\n'),
  'config/tsconfig.base.json': '{ "compilerOptions": { "baseUrl": "..", "strict": true } }',
  'src/main.ts': [
    "import { serve } from '@app/service'",
    "import { legacy } from '@app/legacy'",
    "import { shared } from '@shared'",
    "import { helper } from 'src/util/helper'",
    "import { missing } from '@gone/thing'",
    "import lodash from 'lodash'",
    'export function main(): void { serve(); legacy(); shared(); helper(); missing(); lodash() }',
  ].join('\n'),
  'src/app/service.ts': 'export function serve(): void {}',
  'src/fallback/legacy.ts': 'export function legacy(): void {}',
  'src/shared/index.ts': 'export function shared(): void {}',
  'src/util/helper.ts': 'export function helper(): void {}',
  'packages/web/jsconfig.json': '{ "compilerOptions": { "paths": { "~/*": ["./src/*"] } } }',
  'packages/web/src/page.js': "import { widget } from '~/widget'\nexport function page () { return widget() }\n",
  'packages/web/src/widget.js': 'export function widget () {}\n',
  'loop/tsconfig.json': '{ "extends": "./a.json" }',
  'loop/a.json': '{ "extends": "./tsconfig.json", "compilerOptions": { "paths": { "#x": ["./x.ts"] } } }',
  'loop/x.ts': 'export const x = 1',
  'loop/use.ts': "import { x } from '#x'\nexport const y = x\n",
};

function linked() {
  const inputs = Object.keys(FILES).filter((p) => !p.endsWith('.json')).sort()
    .map((path) => ({ path, ...extractTypeScript({ path, content: FILES[path]!, strategy: 'ast', logic: false }) }));
  return linkTypeScript(inputs, memoryResolver(FILES));
}

test('paths patterns (wildcard, exact, fallback targets) and baseUrl resolve through an extends chain', () => {
  const result = linked();
  const imports = result.edges.filter((e) => e.relation === 'imports' && e.source_id === 'code:src/main.ts').map((e) => e.target_id).sort();
  assert.deepEqual(imports, ['code:src/app/service.ts', 'code:src/fallback/legacy.ts', 'code:src/shared/index.ts', 'code:src/util/helper.ts']);
  const calls = result.edges.filter((e) => e.relation === 'calls' && e.source_id === 'code:src/main.ts#main').map((e) => e.target_id).sort();
  assert.deepEqual(calls, ['code:src/app/service.ts#serve', 'code:src/fallback/legacy.ts#legacy', 'code:src/shared/index.ts#shared', 'code:src/util/helper.ts#helper']);
});

test('an alias that matches a paths pattern but no file is an unresolved_import warning; a package stays external', () => {
  const result = linked();
  const unresolved = result.issues.filter((i) => i.code === 'unresolved_import');
  assert.equal(unresolved.length, 1);
  assert.equal(unresolved[0]!.severity, 'warning');
  assert.equal(unresolved[0]!.path, 'src/main.ts');
  assert.equal(unresolved[0]!.line, 5);
  assert.match(unresolved[0]!.message, /'@gone\/thing'.*tsconfig\.json paths '@gone\/\*'/);
  assert.equal(result.stats['imports_external'], 1, 'lodash');
});

test('the nearest config applies (a jsconfig.json in a package), and an extends cycle stops', () => {
  const result = linked();
  assert.ok(result.edges.some((e) => e.relation === 'imports' && e.source_id === 'code:packages/web/src/page.js' && e.target_id === 'code:packages/web/src/widget.js'));
  assert.ok(result.edges.some((e) => e.relation === 'calls' && e.source_id === 'code:packages/web/src/page.js#page' && e.target_id === 'code:packages/web/src/widget.js#widget'));
  assert.ok(result.edges.some((e) => e.relation === 'imports' && e.source_id === 'code:loop/use.ts' && e.target_id === 'code:loop/x.ts'));
});

test('config texts read as TypeScript reads them: comments, trailing commas, a byte order mark, an empty file; anything else that is not an object is unreadable', () => {
  assert.deepEqual(parseConfigText('// c\n{ "compilerOptions": { /* x */ "baseUrl": ".", }, }'), { compilerOptions: { baseUrl: '.' } });
  assert.deepEqual(parseConfigText('\uFEFF{ "extends": "./base.json" }'), { extends: './base.json' });
  assert.deepEqual(parseConfigText(''), {});
  assert.deepEqual(parseConfigText(' \n\t'), {});
  for (const bad of ['[1]', '1', 'null', '"x"', '{ "a": 1', "{ 'a': 1 }", '{ a: 1 }', '{ "a": 1 } { }', '{ "a": 1,, }']) assert.equal(parseConfigText(bad), null, bad);
  // The same answers as TypeScript's own reader, including texts only its more lenient reader accepts.
  const samples = [
    '// c\n{ "a": 1, }', '\uFEFF{ "a": 1 }', '', '[1]', '{ "a": 1', "{ 'a': 1 }", '{ "a": [1,], }', '{ "a": "x" }//', '// only a comment',
    '{ "a": .5, "compilerOptions": { "baseUrl": "." } }', '{ "a": 0x1 }', '{ "a": 1_000 }', '{ "a": "tab\there" }', '{ "a": "\\x2e\\u{2e}" }',
    '{\u00a0"compilerOptions": {}\u000b}', '{ "a": 1 }\u2028', '\uFEFF\uFEFF{}', '#!/usr/bin/env node\n{ "a": 1 }', '{ "a": "x\\\ny" }',
  ];
  for (const text of samples) {
    const theirs = ts.parseConfigFileTextToJson('tsconfig.json', text);
    const expected = theirs.error !== undefined || theirs.config === null || typeof theirs.config !== 'object' || Array.isArray(theirs.config) ? null : theirs.config;
    assert.deepEqual(parseConfigText(text), expected, JSON.stringify(text));
  }
});
