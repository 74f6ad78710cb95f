// Pins a new-user trial finding (2026-12-07, commander's layout): a package whose `exports` map
// sends `import` to an ESM wrapper of its CommonJS entry (`export const { a } = cjs`) keeps its
// public API, so the README's `mini.makeWidget()` is a documents edge and a name the package does
// not export is an unresolved_code_mention that names the package, not one of its functions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

test('an ESM wrapper entry keeps the CommonJS entry\'s public API for mentions; a missing export names the package', () => {
  const root = tempDir('docforge-esm-wrapper-');
  try {
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'mini', version: '1.0.0', main: './index.js', exports: { '.': { require: './index.js', import: './esm.mjs' } } }),
      'esm.mjs': "import mini from './index.js';\nexport const { makeWidget, helper } = mini;\n",
      'index.js': "const { helper } = require('./lib/helper.js');\n/** Make a widget. */\nfunction makeWidget(n) { return helper(n); }\nmodule.exports = { makeWidget, helper };\n",
      'lib/helper.js': '/** Double it. */\nfunction helper(n) { return n * 2; }\nmodule.exports = { helper };\n',
      'README.md': '# mini\n\nCall `mini.makeWidget()` to build one; `mini.helper()` doubles. `mini.removedThing()` is gone.\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    assert.equal(cli(['init', root]).status, 0);
    const deps = cli(['deps', 'README', '-C', root, '--json']);
    assert.equal(deps.status, 0, deps.stderr);
    const targets = (JSON.parse(deps.stdout) as { result: { items: { id: string }[] } }).result.items.map((item) => item.id).sort();
    assert.deepEqual(targets, ['code:index.js#makeWidget', 'code:lib/helper.js#helper']);
    const validate = JSON.parse(cli(['validate', '-C', root, '--json']).stdout) as { issues: { code: string; message: string }[] };
    const missing = validate.issues.filter((issue) => issue.code === 'unresolved_code_mention');
    assert.equal(missing.length, 1, JSON.stringify(validate.issues));
    assert.match(missing[0]!.message, /`mini\.removedThing\(\)`.*the public API of package "mini" has no "removedThing"/);
  } finally {
    removeDir(root);
  }
});
