// Pins a new-user trial finding (issue 30, stop 45 "Left"): commander's README names its API in the
// method-call style, `.option()`, `.command()`, `program.parse()`, and none of it became a
// `documents` edge (the README linked one class). Such a mention now links to the one member of the
// package's public API of that name; a name several classes declare (`.name()`: Command, Option and
// Argument) stays unlinked and is counted as ambiguous. A method of a bound `new C()` links only
// when it is an instance method. Inputs: commander 14.0.2 packed from the npm registry; a made-up
// package only for the static method commander does not have.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

function init(root: string): void {
  const run = spawnSync(process.execPath, [CLI_ENTRY, 'init', root], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
}

describe('commander: `.option()` and `program.parse()` link through the public API', async () => {
  const pack = tempDir('docforge-commander-pack-');
  const root = tempDir('docforge-commander-');
  try {
    execFileSync('npm', ['pack', 'commander@14.0.2', '--silent'], { cwd: pack, stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('tar', ['xzf', 'commander-14.0.2.tgz'], { cwd: pack });
    cpSync(path.join(pack, 'package'), root, { recursive: true });
  } finally {
    removeDir(pack);
  }
  after(() => removeDir(root));
  const readme = readFileSync(path.join(root, 'Readme.md'), 'utf8');
  init(root);
  const s = await useServer(root);
  const deps = await s.call('docforge_dependencies', { node_id: 'Readme', relations: ['documents'], depth: 1, limit: 200 });
  assert.equal(deps.ok, true, JSON.stringify(deps.error));
  const documented: string[] = deps.result!.items.map((item: Json) => item.id as string);
  const validate = await s.call('docforge_validate_project', {});
  assert.equal(validate.ok, true, JSON.stringify(validate.error));
  const mentions = validate.result!.mentions as Json;

  test('each method the README names with a leading dot, declared once in the public API, is documented', () => {
    for (const method of ['option', 'command', 'argument', 'addCommand', 'requiredOption', 'opts', 'helpCommand', 'allowUnknownOption']) {
      assert.ok(readme.includes(`\`.${method}(`), `the README names .${method}()`);
      assert.ok(documented.includes(`code:lib/command.js#Command.${method}`), `Command.${method}: ${JSON.stringify(documented)}`);
    }
    // An Option method: `.makeOptionMandatory()` (Option is exported as commander.Option).
    assert.ok(documented.includes('code:lib/option.js#Option.makeOptionMandatory'));
    // `program.parse(arguments)` after `const program = new Command();`: an instance method of the class.
    assert.ok(readme.includes('`program.parse(arguments)`'));
    assert.ok(documented.includes('code:lib/command.js#Command.parse'));
    // The implementation, never its typings twin.
    assert.ok(!documented.some((id) => id.startsWith('code:typings/')), JSON.stringify(documented));
    assert.ok(documented.length >= 30, `${documented.length} documented`);
  });

  test('a name several public classes declare stays unlinked and is counted as ambiguous', () => {
    for (const file of ['lib/command.js', 'lib/option.js', 'lib/argument.js']) assert.match(readFileSync(path.join(root, file), 'utf8'), /\n {2}name\(/);
    assert.ok(!documented.some((id) => /#\w+\.(name|helpGroup)$/.test(id)), JSON.stringify(documented));
    // Every `.name()` and `.helpGroup()` span, and the table of contents' `[.name]` link text, is one ambiguous mention.
    const spans = (readme.match(/`\.(name|helpGroup)\(\)`|\[\.(name|helpGroup)\]/g) ?? []).length;
    assert.ok(spans >= 4);
    assert.equal(mentions.ambiguous, spans, JSON.stringify(mentions));
    // File extensions in the same style (`.js`) name no member: neither linked nor counted.
    assert.ok(readme.includes('`.js`'));
  });
});

test('a static method is no method of a constructed value; an instance method is', async () => {
  const root = tempDir('docforge-static-member-');
  try {
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'mini', version: '1.0.0', main: './index.js' }),
      'index.js': "const { Widget } = require('./lib/widget.js');\nmodule.exports = { Widget };\n",
      'lib/widget.js': 'class Widget {\n  /** Make one. */\n  static create() { return new Widget(); }\n  /** Run it. */\n  run() { return 1; }\n}\nmodule.exports = { Widget };\n',
      'README.md': "# mini\n\n```js\nconst { Widget } = require('mini');\nconst w = new Widget();\n```\n\nCall `w.run()`; `w.create()` is no instance method.\n",
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    init(root);
    const s = await useServer(root);
    const deps = await s.call('docforge_dependencies', { node_id: 'README', relations: ['documents'], depth: 1 });
    assert.equal(deps.ok, true, JSON.stringify(deps.error));
    assert.deepEqual(deps.result!.items.map((item: Json) => item.id), ['code:lib/widget.js#Widget.run']);
    await s.close();
  } finally {
    removeDir(root);
  }
});
