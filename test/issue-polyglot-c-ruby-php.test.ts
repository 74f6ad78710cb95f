// Pins issue 33's C/C++, Ruby and PHP adapters end to end (spawned docforge-mcp): `[adapter.c] include_dirs` reaches the C linker
// (an `#include <ledger.h>` found under include/, and the call through the header's prototype, which goes on to the one definition
// in ledger.c, which implements the prototype: new-user trial 2026-12-07), Ruby and PHP nodes are built by
// the same build, and a doc naming a C header, a Ruby method (`Shop::Ledger.post`) and a PHP method documents all three (a C function's bare
// name has two nodes here, the prototype and the definition, so a mention of it alone is ambiguous and links neither).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeDir, tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

const FILES: Record<string, string> = {
  'docforge.toml': [
    'schema_version = 1', '[project]', 'id = "polyglot-c"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["native", "lib", "src"]',
    '[adapter]', 'code = ["cpp", "ruby", "php"]', '[adapter.c]', 'include_dirs = ["native/include"]', '',
  ].join('\n'),
  'native/include/ledger.h': '/** Posts an amount to the ledger. */\nint ledger_post(int amount);\n',
  'native/src/ledger.c': '#include "../include/ledger.h"\nint ledger_post(int amount) { return amount; }\n',
  'native/src/main.c': '#include <ledger.h>\n\nint main(void) {\n  return ledger_post(5);\n}\n',
  'lib/shop/ledger.rb': 'module Shop\n  class Ledger\n    # Posts an amount.\n    def self.post(amount)\n      amount\n    end\n  end\nend\n',
  'src/Ledger.php': '<?php\nnamespace Shop;\n\nclass Ledger\n{\n    public static function refund(int $amount): int { return $amount; }\n}\n',
  'docs/ledger.md': '# Ledger\n\nNative code posts through `native/include/ledger.h`, the Ruby side with `Shop::Ledger.post`, and PHP refunds through `Ledger.refund`.\n',
};

describe('a project with C, Ruby and PHP code and [adapter.c] include_dirs', async () => {
  const root = tempDir('docforge-polyglot-c-');
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  after(() => removeDir(root));
  const s = await useServer(root);

  test('an angle-bracket include is found under the declared include folder, and the call reaches the definition behind the prototype', async () => {
    const deps = await s.call('docforge_dependencies', { node_id: 'code:native/src/main.c', relations: ['imports'], depth: 1, limit: 10 });
    assert.equal(deps.ok, true, JSON.stringify(deps.error));
    assert.deepEqual((deps.result!.items as Json[]).map((i) => i.id), ['code:native/include/ledger.h']);
    const calls = await s.call('docforge_dependencies', { node_id: 'code:native/src/main.c#main', relations: ['calls'], depth: 1, limit: 10 });
    assert.equal(calls.ok, true, JSON.stringify(calls.error));
    assert.deepEqual((calls.result!.items as Json[]).map((i) => i.id), ['code:native/src/ledger.c#ledger_post']);
    const joined = await s.call('docforge_dependencies', { node_id: 'code:native/src/ledger.c#ledger_post', relations: ['implements'], depth: 1, limit: 10 });
    assert.equal(joined.ok, true, JSON.stringify(joined.error));
    assert.deepEqual((joined.result!.items as Json[]).map((i) => i.id), ['code:native/include/ledger.h#ledger_post']);
    // The definition's impact holds its caller; the prototype's, the definition and through it the caller.
    const impact = await s.call('docforge_impact', { node_id: 'code:native/src/ledger.c#ledger_post', relations: ['calls'], depth: 1, limit: 10 });
    assert.equal(impact.ok, true, JSON.stringify(impact.error));
    assert.deepEqual((impact.result!.items as Json[]).map((i) => i.id), ['code:native/src/main.c#main']);
    const header = await s.call('docforge_impact', { node_id: 'code:native/include/ledger.h#ledger_post', relations: ['implements', 'calls'], depth: 2, limit: 10 });
    assert.equal(header.ok, true, JSON.stringify(header.error));
    assert.deepEqual((header.result!.items as Json[]).map((i) => i.id).sort(), ['code:native/src/ledger.c#ledger_post', 'code:native/src/main.c#main']);
  });

  test('the doc documents the C header, the Ruby method and the PHP method', async () => {
    const deps = await s.call('docforge_dependencies', { node_id: 'ledger', relations: ['documents'], depth: 1, limit: 100 });
    assert.equal(deps.ok, true, JSON.stringify(deps.error));
    const ids = (deps.result!.items as Json[]).map((i) => i.id);
    for (const id of ['code:native/include/ledger.h', 'code:lib/shop/ledger.rb#Shop.Ledger.post', 'code:src/Ledger.php#Ledger.refund']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
  });
});
