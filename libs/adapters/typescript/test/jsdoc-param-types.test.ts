// Pins new-user trial 48 F5 (issue 31/33): in plain JavaScript a call through a parameter typed only by
// JSDoc (`@param {Option} option`) resolved to nothing, so `impact Option.attributeName` on commander
// answered "no callers". A JSDoc `@param {T} name` (or `@type {T}` on a one-declaration const/let) is now
// the declared type, with the rules of a TypeScript annotation; every other type expression is refused.
// Real inputs: commander 14.0.3 as published (`npm pack` at test time, never a committed copy) and the
// installed avvio 9.3.1 (`Boot.prototype._loadPlugin`, `@param {Plugin} plugin`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LinkResult } from '@docforge/core';
import { callsFrom as calls, linkFiles as link } from './helpers.js';

function callersOf(result: LinkResult, target: string): string[] {
  return result.edges.filter((e) => e.relation === 'calls' && e.target_id === target).map((e) => e.source_id).sort();
}

/** The `.js` files under `dir/sub` of a package, keyed `sub/<name>`. */
function jsFiles(dir: string, sub: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(path.join(dir, sub))) {
    if (name.endsWith('.js')) files[`${sub}/${name}`] = readFileSync(path.join(dir, sub, name), 'utf8');
  }
  return files;
}

test('commander 14.0.3: option.attributeName() and option.name() in addOption (@param {Option} option) call Option; arrow callback parameters stay unresolved', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-jsdoc-commander-'));
  try {
    execFileSync('npm', ['pack', 'commander@14.0.3', '--pack-destination', dir, '--loglevel', 'warn'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    execFileSync('tar', ['xzf', tarball, '--strip-components=1'], { cwd: dir });
    const result = link({ 'index.js': readFileSync(path.join(dir, 'index.js'), 'utf8'), ...jsFiles(dir, 'lib') });
    assert.deepEqual(callersOf(result, 'code:lib/option.js#Option.attributeName'), [
      'code:lib/command.js#Command.addOption', // 674: `@param {Option} option` on addOption
      'code:lib/command.js#Command.version', // 2201: `const versionOption = this.createOption(...)`, `@return {Option}` (adapter 1.7.4)
      'code:lib/option.js#DualOptions.valueFromOption', // 298: `@param {Option} option`
    ]);
    const addOption = calls(result, 'code:lib/command.js#Command.addOption');
    assert.ok(addOption.includes('code:lib/option.js#Option.name'), addOption.join(', '));
    // `@param {Command} cmd` (same-file class) and `@param {Help} helper` in help.js.
    assert.ok(calls(result, 'code:lib/command.js#Command._initCommandGroup').includes('code:lib/command.js#Command.helpGroup'));
    assert.ok(calls(result, 'code:lib/help.js#Help.formatHelp').includes('code:lib/help.js#Help.padWidth'));
    // `_conflictingOption(option, ...)` has `@param {Option} option`, but its inner arrow's own untyped
    // `option` parameter shadows it: `option.attributeName()` there proves nothing.
    assert.deepEqual(calls(result, 'code:lib/command.js#Command._conflictingOption.findBestOptionFromValue'), ['code:lib/command.js#Command.getOptionValue']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('avvio 9.3.1: Boot.prototype._loadPlugin (@param {Plugin} plugin, Plugin required from ./lib/plugin) calls Plugin.exec and Plugin.setFunc', () => {
  const avvio = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../node_modules/avvio');
  const result = link({ 'index.js': readFileSync(path.join(avvio, 'index.js'), 'utf8'), ...jsFiles(avvio, 'lib') });
  const loads = calls(result, 'code:index.js#Boot._loadPlugin');
  assert.ok(loads.includes('code:lib/plugin.js#Plugin.exec') && loads.includes('code:lib/plugin.js#Plugin.setFunc'), loads.join(', '));
});

const MODEL = `class Model {
  save() {}
}
module.exports = { Model };
`;

/** A caller file whose one function `run(m)` calls `m.save()` under the given JSDoc block. */
function caller(doc: string, head = "const { Model } = require('./model.js');\n"): Record<string, string> {
  return { 'model.js': MODEL, 'main.js': `${head}\n/**\n${doc}\n */\nfunction run(m) {\n  m.save();\n}\nmodule.exports = { run };\n` };
}

test('a bare or dotted JSDoc type of a required or same-file class types the parameter; [m] and [m=x] name it too', () => {
  for (const doc of [' * @param {Model} m', ' * @param {Model} [m]', ' * @param {Model} [m=undefined] the model', ' * @param {model.Model} m']) {
    const head = doc.includes('model.Model') ? "const model = require('./model.js');\n" : undefined;
    assert.deepEqual(calls(link(caller(doc, head)), 'code:main.js#run'), ['code:model.js#Model.save'], doc);
  }
  const same = { 'main.js': `class Model {\n  save() {}\n}\n/** @param {Model} m */\nfunction run(m) {\n  m.save();\n}\n` };
  assert.deepEqual(calls(link(same), 'code:main.js#run'), ['code:main.js#Model.save']);
});

test('refused: unions, nullable markers, generics, *, ?, T=, import(), Object, Function, unknown names, conflicting tags, and TypeScript files', () => {
  const refused = [
    '{Model|null}', '{Model|Other}', '{?Model}', '{!Model}', '{Array<Model>}', '{Model[]}', '{*}', '{?}', '{Model=}',
    '{...Model}', '{import("./model.js").Model}', '{Object}', '{Function}', '{Unknown}', '{ {save: Function} }',
  ];
  for (const type of refused) {
    assert.deepEqual(calls(link(caller(` * @param ${type} m`)), 'code:main.js#run'), [], type);
  }
  // Not imported: a JSDoc name alone proves nothing (no guess by class name across files).
  assert.deepEqual(calls(link(caller(' * @param {Model} m', '')), 'code:main.js#run'), []);
  // Tagged twice with different types.
  assert.deepEqual(calls(link(caller(' * @param {Model} m\n * @param {Other} m')), 'code:main.js#run'), []);
  // A TypeScript file: JSDoc types are not TypeScript's annotations.
  const ts = { 'model.ts': 'export class Model {\n  save() {}\n}\n', 'main.ts': "import { Model } from './model.js';\n/** @param {Model} m */\nexport function run(m) {\n  m.save();\n}\n" };
  assert.deepEqual(calls(link(ts), 'code:main.ts#run'), []);
});

test('@type {T} on a one-declaration const or let types the local; var, several declarations and unions do not', () => {
  const body = (decl: string): Record<string, string> => ({
    'model.js': MODEL,
    'main.js': `const { Model } = require('./model.js');\nfunction run(make) {\n${decl}\n  m.save();\n}\nmodule.exports = { run };\n`,
  });
  assert.deepEqual(calls(link(body('  /** @type {Model} */\n  const m = make();')), 'code:main.js#run'), ['code:model.js#Model.save']);
  assert.deepEqual(calls(link(body('  /** @type {Model} */\n  let m = make();')), 'code:main.js#run'), ['code:model.js#Model.save']);
  assert.deepEqual(calls(link(body('  /** @type {Model} */\n  var m = make();')), 'code:main.js#run'), []);
  assert.deepEqual(calls(link(body('  /** @type {Model} */\n  const m = make(), n = 1;')), 'code:main.js#run'), []);
  assert.deepEqual(calls(link(body('  /** @type {Model | undefined} */\n  let m = make();')), 'code:main.js#run'), []);
});
