// Pins issue 33's C/C++, Ruby and PHP adapters end to end (spawned docforge-mcp): `[adapter.c] include_dirs` reaches the C linker
// (an `#include <ledger.h>` found under include/, and the call through the header's prototype), Ruby and PHP nodes are built by
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

  test('an angle-bracket include is found under the declared include folder, and the call reaches the prototype', async () => {
    const deps = await s.call('docforge_dependencies', { node_id: 'code:native/src/main.c', relations: ['imports'], depth: 1, limit: 10 });
    assert.equal(deps.ok, true, JSON.stringify(deps.error));
    assert.deepEqual((deps.result!.items as Json[]).map((i) => i.id), ['code:native/include/ledger.h']);
    const calls = await s.call('docforge_dependencies', { node_id: 'code:native/src/main.c#main', relations: ['calls'], depth: 1, limit: 10 });
    assert.equal(calls.ok, true, JSON.stringify(calls.error));
    assert.deepEqual((calls.result!.items as Json[]).map((i) => i.id), ['code:native/include/ledger.h#ledger_post']);
  });

  test('the doc documents the C header, the Ruby method and the PHP method', async () => {
    const deps = await s.call('docforge_dependencies', { node_id: 'ledger', relations: ['documents'], depth: 1, limit: 100 });
    assert.equal(deps.ok, true, JSON.stringify(deps.error));
    const ids = (deps.result!.items as Json[]).map((i) => i.id);
    for (const id of ['code:native/include/ledger.h', 'code:lib/shop/ledger.rb#Shop.Ledger.post', 'code:src/Ledger.php#Ledger.refund']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
  });
});
