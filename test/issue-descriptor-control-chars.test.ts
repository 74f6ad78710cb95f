// Pins that a control character (NUL included) in any path-like value of docforge.toml (the state
// dir, content and code roots, the adapter module, view outputs, exclude and writer globs) is
// descriptor_invalid naming the key, for every command and for the server (break-it trial of
// issue 30: a NUL in `[state].dir` answered application_in_progress for every command, and a NUL
// in a view output made `docforge render` answer internal_error). Nothing is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { treeHashes } from './helpers/hashes.js';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

/** The example descriptor with `edit` applied (a TOML string with `\u0000` escapes stays valid TOML). */
function withDescriptor(edit: (toml: string) => string): string {
  const root = exampleProjectCopy();
  const file = path.join(root, 'docforge.toml');
  const before = readFileSync(file, 'utf8');
  const after = edit(before);
  assert.notEqual(after, before, 'the edit applies');
  writeFileSync(file, after);
  return root;
}

const CASES: { key: RegExp; edit: (toml: string) => string }[] = [
  { key: /state\.dir/, edit: (t) => t.replace('dir = ".docforge"', 'dir = "docs\\u0000x"') },
  { key: /views\.\d+\.output/, edit: (t) => t.replace(/output = "([^"]+)"/, 'output = "site/a\\u0000b.html"') },
  { key: /views\.\d+\.output/, edit: (t) => t.replace(/output = "([^"]+)"/, 'output = "site/a\\u001bb.html"') },
  { key: /sources\.content_roots/, edit: (t) => t.replace(/content_roots = \["docs"/, 'content_roots = ["do\\u0000cs"') },
  { key: /sources\.exclude/, edit: (t) => t.replace('exclude = ["**/node_modules/**"]', 'exclude = ["**/node_modules/**", "x\\u0000y"]') },
];

test('a control character in a descriptor path value is descriptor_invalid naming the key, for every command', async () => {
  for (const { key, edit } of CASES) {
    const root = withDescriptor(edit);
    const before = treeHashes(root);
    for (const args of [['validate'], ['sync'], ['render'], ['changeset', 'list']]) {
      const r = cli([...args, '-C', root]);
      assert.notEqual(r.status, 0, `${args.join(' ')} ${key}`);
      assert.match(r.stderr + r.stdout, /descriptor_invalid/, `${args.join(' ')} ${key}: ${r.stderr.slice(0, 400)}`);
      assert.match(r.stderr + r.stdout, key, `${args.join(' ')} names the key`);
      assert.doesNotMatch(r.stderr + r.stdout, /internal_error|application_in_progress/);
    }
    const server = await useServer(root);
    const info = await server.call('docforge_search', { query: 'ledger' });
    assert.equal(info.error?.code, 'descriptor_invalid', `server ${key}: ${JSON.stringify(info.error)}`);
    await server.close();
    assert.deepEqual(treeHashes(root), before, `${key}: nothing is written`);
  }
});
