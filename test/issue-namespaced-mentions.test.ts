// Pins a new-user trial finding on monolog (PHP): `doc/03-utilities.md` names `Monolog\Registry` and
// `Monolog\ErrorHandler`, `04-extending.md` `Monolog\Handler\HandlerInterface`, and no mention linked (`backlinks
// code:.../Registry.php#Registry --relations documents` printed "no backlinks"). A PHP name written
// with its namespace now links to the class the file's `namespace` declaration proves, as C# and
// Java `Namespace.Type` already did. Input: Debian's php-monolog (sources under /usr/share/php,
// docs under /usr/share/doc/php-monolog).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

function documentedBy(root: string, id: string): string {
  const run = cli(['backlinks', id, '-C', root, '--relations', 'documents']);
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

describe('PHP namespaced names in docs link (monolog)', () => {
  let root = '';
  before(() => {
    root = tempDir('docforge-monolog-');
    cpSync('/usr/share/php/Monolog', path.join(root, 'Monolog'), { recursive: true, dereference: true });
    rmSync(path.join(root, 'Monolog/autoload.php'), { force: true });
    mkdirSync(path.join(root, 'doc'));
    for (const page of ['03-utilities.md', '04-extending.md']) cpSync(`/usr/share/doc/php-monolog/${page}`, path.join(root, 'doc', page));
    writeFileSync(path.join(root, 'docforge.toml'), [
      'schema_version = 1', '[project]', 'id = "monolog"', 'name = "monolog"', '[sources]', 'content_roots = ["doc"]', 'code_roots = ["Monolog"]',
      'exclude = []', '[adapter]', 'code = "php"', 'strategy = "ast"', '',
    ].join('\n'));
    const sync = cli(['sync', '-C', root]);
    assert.equal(sync.status, 0, sync.stderr);
  });
  after(() => {
    if (root !== '') removeDir(root);
  });

  test('`Monolog\\Registry` and `Monolog\\ErrorHandler` document their classes', () => {
    assert.match(documentedBy(root, 'code:Monolog/Registry.php#Registry'), /03-utilities/);
    assert.match(documentedBy(root, 'code:Monolog/ErrorHandler.php#ErrorHandler'), /03-utilities/);
  });

  test('a nested namespace: `Monolog\\Handler\\HandlerInterface`', () => {
    assert.match(documentedBy(root, 'code:Monolog/Handler/HandlerInterface.php#HandlerInterface'), /04-extending/);
    assert.match(documentedBy(root, 'code:Monolog/Handler/AbstractProcessingHandler.php#AbstractProcessingHandler'), /04-extending/);
  });
});
