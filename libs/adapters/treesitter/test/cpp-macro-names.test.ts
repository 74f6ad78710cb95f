// Pins a C++ naming rule of tree-sitter adapters 1.2.9 (issue 30, new-user trial of stop 49): a function defined or declared
// through a declaration macro (Node addons' `NODE_METHOD(Database::JS_close) { … }`, `static INIT(Init);`, nan's
// `NAN_METHOD(New)`), which the parser sees as a function named after the macro, is named by the macro's argument. Before,
// better-sqlite3's methods were `NODE_METHOD~10`, ids that shift whenever an earlier macro is added. Its arity is unknown
// (any count), since the macro's parameter list is not the function's. A constructor of an all-caps class with one unnamed
// parameter (`AB(Bar);` inside `class AB`) keeps its own name.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, readTree } from './helpers.js';

const require = createRequire(import.meta.url);

let cpp: CodeAdapter;
before(async () => {
  cpp = await adapterFor('cpp');
});

describe('functions named through a declaration macro', () => {
  it('takes the macro argument as the name, in a class and at namespace scope, and keeps an all-caps constructor', () => {
    const { parsed } = buildMemory(cpp, {
      'db.cpp': [
        '#define NODE_METHOD(name) void name(int info)', 'class Database {', 'public:', '  static NODE_METHOD(JS_close);', '};',
        'class AB { public: AB(Bar); };', 'NODE_METHOD(Database::JS_close) {', '  helper();', '}', 'static NODE_METHOD(JS_other) { }', '',
      ].join('\n'),
    });
    const ids = parsed.flatMap((file) => file.nodes.map((node) => node.id)).filter((id) => id.includes('#'));
    assert.ok(ids.includes('code:db.cpp#Database.JS_close'), ids.join(', '));
    assert.ok(ids.includes('code:db.cpp#JS_other'), ids.join(', '));
    assert.ok(ids.includes('code:db.cpp#AB.AB'), ids.join(', '));
    assert.deepEqual(ids.filter((id) => id.includes('NODE_METHOD')), []);
  });

  it('names better-sqlite3 12.11.1\'s NODE_METHOD, NODE_GETTER and INIT members by their argument, and joins INIT bodies to their declarations', () => {
    let dir = dirname(require.resolve('better-sqlite3'));
    while (!existsSync(join(dir, 'package.json')) || !dir.endsWith('better-sqlite3')) dir = dirname(dir);
    const { parsed, link } = buildMemory(cpp, readTree(join(dir, 'src'), ['.cpp', '.hpp']), 'ast', false);
    const ids = parsed.flatMap((file) => file.nodes.map((node) => node.id));
    assert.deepEqual(ids.filter((id) => /#(\w+\.)?(NODE_METHOD|NODE_GETTER|INIT)(~\d+)?$/.test(id)), []);
    for (const id of ['code:objects/database.cpp#Database.JS_close', 'code:objects/backup.cpp#Backup.JS_close', 'code:objects/statement.cpp#Statement.JS_run', 'code:objects/database.cpp#Database.Init']) {
      assert.ok(ids.includes(id), id);
    }
    const calls = edgeLines(link.edges, 'calls');
    for (const expected of ['code:better_sqlite3.cpp#NODE_MODULE_INIT calls code:objects/database.cpp#Database.Init @64', 'code:objects/database.cpp#Database.JS_new calls code:objects/database.cpp#Database.ThrowSqliteError @164']) {
      assert.ok(calls.includes(expected), `${expected}\n${calls.filter((line) => line.includes('Init') || line.includes('JS_new')).join('\n')}`);
    }
    assert.ok(edgeLines(link.edges, 'implements').includes('code:objects/database.cpp#Database.Init implements code:objects/database.hpp#Database.Init @126'));
  });
});
