// Pins the third trial's language label end to end (issue 30): the `cpp` adapter labelled C files `cpp`, so
// `docforge search --languages c` found nothing and its "languages in this index" list offered only `cpp`. On a
// project of real C and C++ (better-sqlite3's deps/test_extension.c and tree-sitter-c's bindings/node/binding.cc, MIT,
// as installed), a `c` filter now finds the C function and no C++ node, a `cpp` filter the reverse, `C` suggests `c`,
// and an unmatched value lists both languages.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';

const root = tempDir('docforge-c-language-');
after(() => removeDir(root));
mkdirSync(path.join(root, 'native'), { recursive: true });
copyFileSync(path.join(REPO_ROOT, 'node_modules/better-sqlite3/deps/test_extension.c'), path.join(root, 'native/test_extension.c'));
copyFileSync(path.join(REPO_ROOT, 'node_modules/tree-sitter-c/bindings/node/binding.cc'), path.join(root, 'native/binding.cc'));
writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "c-language"\n[sources]\ncontent_roots = []\ncode_roots = ["native"]\n[adapter]\ncode = ["cpp"]\n');

function search(query: string, languages: string, json: boolean): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI_ENTRY, 'search', query, '--languages', languages, '-C', root, ...(json ? ['--json'] : [])], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('--languages c finds the C function and no C++ node; cpp the C++ one', () => {
  const c = search('sqlite3_extension_init', 'c', true);
  assert.equal(c.status, 0, c.stderr);
  const ids = (JSON.parse(c.stdout) as { items: { id: string }[] }).items.map((item) => item.id);
  assert.ok(ids.includes('code:native/test_extension.c#sqlite3_extension_init'), JSON.stringify(ids));
  assert.ok(ids.every((id) => id.startsWith('code:native/test_extension.c')), JSON.stringify(ids));
  const cpp = search('Init', 'cpp', true);
  assert.equal(cpp.status, 0, cpp.stderr);
  const cppIds = (JSON.parse(cpp.stdout) as { items: { id: string }[] }).items.map((item) => item.id);
  assert.ok(cppIds.includes('code:native/binding.cc#Init'), JSON.stringify(cppIds));
  assert.ok(cppIds.every((id) => id.startsWith('code:native/binding.cc')), JSON.stringify(cppIds));
});

test('the filter suggestions name both languages', () => {
  const upper = search('sqlite3_extension_init', 'C', false);
  assert.match(upper.stdout, /no node has languages "C"; did you mean "c"\?/);
  const other = search('sqlite3_extension_init', 'objc', false);
  assert.match(other.stdout, /no node has languages "objc"; languages in this index: c, cpp/);
});
