// Pins a new-user trial finding (2026-12-07, PyJWT as Debian installs it): `docforge init` on a
// Python project wrote `strategy = "ast"  # … function Logic allowed`, although the Python adapter
// builds no Logic (docforge_get_logic answers logic_not_found). The comment now comes from each
// built-in adapter's manifest (`logic`), and each manifest's flag is checked here against what its
// adapter really extracts from real files, and against the languages logic_not_found names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { LOGIC_LANGUAGES } from '@docforge/core';
import { BUILTIN_ADAPTER_MANIFESTS } from '@docforge/identity';
import { loadBuiltinAdapter } from '@docforge/builder';
import { initProject } from '@docforge/init';
import { FASTIFY_DIR } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';

const PYJWT = '/usr/lib/python3/dist-packages/jwt';
const SPEW = '/usr/share/gocode/src/github.com/davecgh/go-spew/spew';

/** A real file of each language with functions, for the adapters of the manifests. */
const SAMPLES: Record<string, string> = {
  python: path.join(PYJWT, 'api_jwt.py'),
  typescript: path.join(FASTIFY_DIR, 'lib', 'reply.js'),
  go: path.join(SPEW, 'format.go'),
};

test('init on PyJWT says the python adapter builds no Logic; a mixed project names who builds it', () => {
  const root = tempDir('docforge-init-logic-');
  try {
    mkdirSync(path.join(root, 'jwt'));
    for (const name of readdirSync(PYJWT).filter((file) => file.endsWith('.py'))) copyFileSync(path.join(PYJWT, name), path.join(root, 'jwt', name));
    const python = initProject(root).descriptor_text;
    assert.ok(python.includes('# "ast" (syntax trees; the "python" adapter builds no Logic) or "lexical" (no syntax trees, no Logic).\nstrategy = "ast"'), python);
    assert.doesNotMatch(python, /Logic allowed/);
    // The same tree with fastify's reply.js beside it: TypeScript/JavaScript builds Logic, Python none.
    const mixed = tempDir('docforge-init-logic-mixed-');
    try {
      mkdirSync(path.join(mixed, 'jwt'));
      mkdirSync(path.join(mixed, 'lib'));
      copyFileSync(path.join(PYJWT, 'api_jwt.py'), path.join(mixed, 'jwt', 'api_jwt.py'));
      copyFileSync(SAMPLES.typescript!, path.join(mixed, 'lib', 'reply.js'));
      const text = readFileSync(initProject(mixed).path, 'utf8');
      assert.ok(text.includes('# "ast" (syntax trees; function Logic for "typescript", none for "python") or "lexical"'), text);
    } finally {
      removeDir(mixed);
    }
  } finally {
    removeDir(root);
  }
});

test('each manifest\'s logic flag is what its adapter does on a real file, and what logic_not_found says', async () => {
  for (const [id, file] of Object.entries(SAMPLES)) {
    const manifest = BUILTIN_ADAPTER_MANIFESTS.find((m) => m.id === id)!;
    const adapter = await loadBuiltinAdapter(id);
    assert.ok(adapter, id);
    const filePath = `src/${path.basename(file)}`;
    // A tree-sitter adapter loads the file's grammar first (CodeAdapter.prepare; the builder does the same).
    await adapter.prepare?.({ path: filePath, strategy: 'ast' });
    const parsed = adapter.extract({ path: filePath, content: readFileSync(file, 'utf8'), strategy: 'ast', logic: true });
    assert.ok(parsed.nodes.some((node) => node.kind === 'function' || node.kind === 'method'), `${id}: no functions in ${file}`);
    assert.equal(parsed.logic_steps.length > 0, manifest.logic, `${id}: manifest logic ${String(manifest.logic)}, ${parsed.logic_steps.length} steps from ${file}`);
  }
  // The languages logic_not_found names as building Logic are exactly the manifests that say so.
  for (const manifest of BUILTIN_ADAPTER_MANIFESTS) assert.equal(LOGIC_LANGUAGES.includes(manifest.id), manifest.logic, manifest.id);
});
