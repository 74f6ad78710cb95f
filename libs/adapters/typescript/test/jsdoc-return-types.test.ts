// Pins issue 31's JSDoc follow-up (TypeScript adapter 1.7.4): in plain JavaScript a JSDoc `@return {T}` /
// `@returns {T}` declares a function's return type, so `const helper = this.createHelp(); helper.formatHelp()`
// resolves to `Help#formatHelp` (commander 14.0.3, where `impact Help.formatHelp` missed that caller);
// `@typedef {T} Alias` and `@typedef {import('./m').T} Alias` name T; `T|undefined` / `T|null` on a
// `@return` name T, as a TypeScript annotation does (commander's `_findCommand`, so
// `subCommand._parseCommand(...)` resolves). Every other type expression is refused, as for `@param`.
// Real input: commander 14.0.3 as published (`npm pack` at test time, never a committed copy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { callsFrom as calls, linkFiles as link } from './helpers.js';

test('commander 14.0.3: helpInformation reaches Help.formatHelp through this.createHelp() (@return {Help}); _dispatchSubcommand reaches _parseCommand (@return {Command | undefined})', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-jsdoc-return-'));
  try {
    execFileSync('npm', ['pack', 'commander@14.0.3', '--pack-destination', dir, '--loglevel', 'warn'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    execFileSync('tar', ['xzf', tarball, '--strip-components=1'], { cwd: dir });
    const files: Record<string, string> = { 'index.js': readFileSync(path.join(dir, 'index.js'), 'utf8') };
    for (const name of readdirSync(path.join(dir, 'lib'))) if (name.endsWith('.js')) files[`lib/${name}`] = readFileSync(path.join(dir, 'lib', name), 'utf8');
    const result = link(files);
    const help = calls(result, 'code:lib/command.js#Command.helpInformation');
    for (const method of ['formatHelp', 'prepareContext']) assert.ok(help.includes(`code:lib/help.js#Help.${method}`), `${method}: ${help.join(', ')}`);
    // `subCommand._prepareForParse()` and, inside the arrow passed to _chainOrCall, `subCommand._parseCommand(...)`.
    const dispatch = calls(result, 'code:lib/command.js#Command._dispatchSubcommand');
    for (const method of ['_parseCommand', '_prepareForParse']) assert.ok(dispatch.includes(`code:lib/command.js#Command.${method}`), `${method}: ${dispatch.join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const MODEL = `class Model {
  save() {}
}
module.exports = { Model };
`;

/** `make()` under the given JSDoc block, and `run()` calling `make().save()` through a const. */
function maker(doc: string, head = "const { Model } = require('./model.js');\n"): Record<string, string> {
  return {
    'model.js': MODEL,
    'main.js': `${head}\n/**\n${doc}\n */\nfunction make() {\n  return get();\n}\nfunction run() {\n  const m = make();\n  m.save();\n}\nmodule.exports = { run, make };\n`,
  };
}

test('@return {T} and @returns {T} type the result of a call; T|undefined and T|null name T', () => {
  for (const doc of [' * @return {Model}', ' * @returns {Model} the model', ' * @return {Model | undefined}', ' * @returns {null|Model}', ' * @return {Model|undefined|null}']) {
    assert.deepEqual(calls(link(maker(doc)), 'code:main.js#run'), ['code:main.js#make', 'code:model.js#Model.save'], doc);
  }
});

test('@return refused: other unions, nullable markers, generics, Promise, Object, unknown names, two tags, and TypeScript files', () => {
  const refused = [
    '{Model|Other}', '{?Model}', '{!Model}', '{Array<Model>}', '{Promise<Model>}', '{Model[]}', '{*}', '{Object}', '{Function}',
    '{Unknown}', '{undefined}', '{Model|Model}', '{import("./model.js").Model}',
  ];
  for (const type of refused) assert.deepEqual(calls(link(maker(` * @return ${type}`)), 'code:main.js#run'), ['code:main.js#make'], type);
  assert.deepEqual(calls(link(maker(' * @return {Model}\n * @returns {Model}')), 'code:main.js#run'), ['code:main.js#make']);
  assert.deepEqual(calls(link(maker(' * @return {Model}', '')), 'code:main.js#run'), ['code:main.js#make']);
  const ts = {
    'model.ts': 'export class Model {\n  save() {}\n}\n',
    'main.ts': "import { Model } from './model.js';\n/** @return {Model} */\nexport function make() {\n  return get();\n}\nexport function run() {\n  const m = make();\n  m.save();\n}\n",
  };
  assert.deepEqual(calls(link(ts), 'code:main.ts#run'), ['code:main.ts#make']);
});

test('a body that returns a local object literal proves what it returns: its @return is not read', () => {
  const files = {
    'model.js': MODEL,
    'main.js': "const { Model } = require('./model.js');\n/** @return {Model} */\nfunction make() {\n  const api = { save };\n  return api;\n}\nfunction save() {}\nfunction run() {\n  const m = make();\n  m.save();\n}\nmodule.exports = { run };\n",
  };
  assert.deepEqual(calls(link(files), 'code:main.js#run'), ['code:main.js#make']);
});

test('const x = this.f() takes f\'s declared return type as the this call would resolve f; a rebound this proves nothing', () => {
  const files = {
    'model.js': MODEL,
    'main.js': `const { Model } = require('./model.js');
class Store {
  /** @return {Model} */
  model() {
    return get();
  }
  run() {
    const m = this.model();
    m.save();
    [1].forEach(function () {
      const n = this.model();
      n.save();
    });
  }
}
module.exports = { Store };
`,
  };
  const result = link(files);
  assert.deepEqual(calls(result, 'code:main.js#Store.run'), ['code:main.js#Store.model', 'code:model.js#Model.save']);
  assert.equal(result.edges.filter((e) => e.relation === 'calls' && e.line === 12).length, 0);
  // TypeScript: the annotation declares it.
  const ts = {
    'model.ts': 'export class Model {\n  save() {}\n}\n',
    'main.ts': "import { Model } from './model.js';\nexport class Store {\n  model(): Model {\n    return new Model();\n  }\n  run() {\n    const m = this.model();\n    m.save();\n  }\n}\n",
  };
  assert.deepEqual(calls(link(ts), 'code:main.ts#Store.run'), ['code:main.ts#Store.model', 'code:model.ts#Model.save']);
});

/** `run(m)` typed `@param {M} m` under the given typedef block. */
function typed(typedef: string, head = ''): Record<string, string> {
  return { 'model.js': MODEL, 'main.js': `${head}/**\n${typedef}\n */\n\n/** @param {M} m */\nfunction run(m) {\n  m.save();\n}\nmodule.exports = { run };\n` };
}

test('@typedef {import(\'./m\').T} Alias and @typedef {T} Alias are followed; chains too', () => {
  assert.deepEqual(calls(link(typed(" * @typedef {import('./model.js').Model} M")), 'code:main.js#run'), ['code:model.js#Model.save']);
  assert.deepEqual(calls(link(typed(' * @typedef {Model} M', "const { Model } = require('./model.js');\n")), 'code:main.js#run'), ['code:model.js#Model.save']);
  assert.deepEqual(calls(link(typed(" * @typedef {import('./model.js').Model} Base\n * @typedef {Base} M")), 'code:main.js#run'), ['code:model.js#Model.save']);
  // At the end of the file, after every statement.
  const tail = { 'model.js': MODEL, 'main.js': "/** @param {M} m */\nfunction run(m) {\n  m.save();\n}\nmodule.exports = { run };\n/** @typedef {import('./model.js').Model} M */\n" };
  assert.deepEqual(calls(link(tail), 'code:main.js#run'), ['code:model.js#Model.save']);
});

test('@typedef refused: a whole module, Object, unions, an unresolved name, two different definitions, and cycles; a declaration or binding of the name wins', () => {
  const refused: Array<[string, string]> = [
    [" * @typedef {import('./model.js')} M", ''],
    [' * @typedef {Object} M\n * @property {Function} save', ''],
    [" * @typedef {import('./model.js').Model|null} M", ''],
    [" * @typedef {import('./model.js').Other} M", ''],
    [" * @typedef {import('./model.js').Model} M\n * @typedef {import('./other.js').Model} M", ''],
    [' * @typedef {N} M\n * @typedef {M} N', ''],
  ];
  for (const [typedef, head] of refused) {
    const owner = calls(link(typed(typedef, head)), 'code:main.js#run');
    assert.deepEqual(owner.filter((id) => id.startsWith('code:model.js')), [], typedef);
  }
  // The name is also declared (or required) in the file: it resolves as it did without the alias (mocha's
  // `const Runner = require('./runner')` beside `@typedef {import('./runner.js')} Runner`).
  const declared = link(typed(" * @typedef {import('./model.js').Model} M", 'class M {\n  save() {}\n}\n'));
  assert.deepEqual(calls(declared, 'code:main.js#run'), ['code:main.js#M.save']);
});
