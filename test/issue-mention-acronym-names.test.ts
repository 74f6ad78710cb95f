// New-user trial on pyjwt (Debian's python3-jwt, 2026-12-08): a page naming `RSAAlgorithm`, `ECAlgorithm` or
// `OKPAlgorithm` linked nothing (counted `bare_leaf`) while `NoneAlgorithm` linked. The trial suspected the
// `if has_crypto:` block around those classes; the sources show the classes are module-level nodes like
// `NoneAlgorithm` (exported, one top-level id each), and the difference is the name: a bare name links only when
// it is compound, and an acronym before a word (`RSA` + `Algorithm`) was not read as one. Pins, on Debian's
// jwt package, that such names link, conditional definitions included, and that `.ci/run` installs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

const JWT = '/usr/lib/python3/dist-packages/jwt';

test('acronym-prefixed class names of pyjwt (inside `if has_crypto:`) link from a page, as `NoneAlgorithm` does', async () => {
  assert.ok(existsSync(JWT), `${JWT} is missing: .ci/run installs python3-jwt (${readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8').includes('python3-jwt')})`);
  const algorithms = readFileSync(path.join(JWT, 'algorithms.py'), 'utf8');
  const guard = algorithms.indexOf('\nif has_crypto:\n');
  assert.ok(guard > 0 && algorithms.indexOf('\nclass NoneAlgorithm(') < guard, 'NoneAlgorithm is unconditional');
  for (const name of ['RSAAlgorithm', 'ECAlgorithm', 'OKPAlgorithm', 'RSAPSSAlgorithm']) assert.ok(algorithms.indexOf(`\n    class ${name}(`) > guard, `${name} is declared inside \`if has_crypto:\``);

  const root = tempDir('docforge-pyjwt-acronyms-');
  cpSync(JWT, path.join(root, 'jwt'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docs', 'algorithms.md'), [
    '# Algorithms', '', '`NoneAlgorithm` signs nothing; `RSAAlgorithm`, `RSAPSSAlgorithm`, `ECAlgorithm` and `OKPAlgorithm` need `cryptography`.', '',
    'Plural acronyms such as `URLs` and `APIs` name no code.', '',
  ].join('\n'));
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', 'id = "pyjwt"', 'name = "pyjwt"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["jwt"]',
    '[adapter]', 'code = "python"', 'strategy = "ast"', '',
  ].join('\n'));
  const s = await useServer(root);
  try {
    const deps = await s.call('docforge_dependencies', { node_id: 'algorithms', relations: ['documents'], depth: 1 });
    assert.equal(deps.ok, true, JSON.stringify(deps.error));
    assert.deepEqual((deps.result!.items as Json[]).map((item: Json) => item.id as string).sort(), [
      'code:jwt/algorithms.py#ECAlgorithm', 'code:jwt/algorithms.py#NoneAlgorithm', 'code:jwt/algorithms.py#OKPAlgorithm',
      'code:jwt/algorithms.py#RSAAlgorithm', 'code:jwt/algorithms.py#RSAPSSAlgorithm',
    ]);
    // Same node shape: module-level (contained by the module), exported.
    for (const name of ['NoneAlgorithm', 'RSAAlgorithm']) {
      const node = await s.call('docforge_get_node', { node_id: `code:jwt/algorithms.py#${name}` });
      assert.equal(node.ok, true, JSON.stringify(node.error));
      assert.deepEqual(node.result!.node.capabilities, ['exported'], name);
    }
  } finally {
    await s.close();
  }
});
