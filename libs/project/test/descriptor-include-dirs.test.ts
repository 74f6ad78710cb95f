// Pins the checks of `[adapter.c] include_dirs` (issue 30, helper fx30): values that can never name a folder the C/C++
// linker searches are descriptor_invalid at the item's own line, with a remedy (an empty string, an absolute path, a
// ".." escape, a link leaving the root, the state dir, version-control metadata); a folder that is not there, or that no
// code root holds, is a warning at its line. Before, the errors named the key's line and no remedy, and a missing or
// unindexed folder was accepted without a word. The project holds tree-sitter-c's src/tree_sitter headers (as installed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocforgeError } from '@docforge/core';
import { loadDescriptor } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const HEADERS = fileURLToPath(new URL('../../../../node_modules/tree-sitter-c/src/tree_sitter/', import.meta.url));
const HEAD = 'schema_version = 1\n[project]\nid = "tsc"\n[sources]\ncontent_roots = []\ncode_roots = ["src"]\n[adapter]\ncode = "cpp"\n[adapter.c]\ninclude_dirs = [\n';

/** A project with tree-sitter-c's headers under src/tree_sitter and `include_dirs` listing `items`, one a line (from line 11). */
function project(items: readonly string[], head = HEAD): string {
  const files: Record<string, string> = { 'docforge.toml': `${head}${items.map((item) => `  ${item},\n`).join('')}]\n` };
  for (const name of ['alloc.h', 'array.h', 'parser.h']) files[`src/tree_sitter/${name}`] = readFileSync(join(HEADERS, name), 'utf8');
  return tempTree(files);
}

function refusal(items: readonly string[], setup: (root: string) => void = () => {}): DocforgeError {
  const root = project(items);
  try {
    setup(root);
    loadDescriptor(root);
  } catch (error) {
    assert.ok(error instanceof DocforgeError, String(error));
    return error;
  } finally {
    removeTree(root);
  }
  assert.fail(`expected ${items.join(', ')} to be refused`);
}

test('never-working include_dirs are descriptor_invalid at the item line, with a remedy', () => {
  const cases: [string[], number, RegExp, ((root: string) => void)?][] = [
    [['"src/tree_sitter"', '""'], 12, /include_dirs must be a non-empty string; list folders inside the project/],
    [['"/usr/include"'], 11, /must be a relative path, got "\/usr\/include"; list folders inside the project, relative to its root/],
    [['"src"', '"../sys/include"'], 12, /must not escape the project root \(".."\) in "..\/sys\/include"; list folders/],
    [['"src"', '"src/out"'], 12, /resolves outside the project root \("src\/out" -> [^)]+\); list folders/, (root) => symlinkSync('/usr/include', join(root, 'src/out'))],
    [['".docforge/include"'], 11, /".docforge\/include" lies in the state dir ".docforge", which DocForge never indexes; list folders/],
    [['"src"', '".git/include"'], 12, /".git\/include" lies in ".git", version-control metadata/],
    // Break-it trial 50: a link inside the project to .git or to the state dir is refused as the path itself is.
    [['"src"', '"lngit"'], 12, /"lngit" leads through a symbolic link to "\.git", which lies in "\.git", version-control metadata, which DocForge never indexes/, (root) => { mkdirSync(join(root, '.git')); symlinkSync(join(root, '.git'), join(root, 'lngit')); }],
    [['"lnstate"'], 11, /"lnstate" leads through a symbolic link to "\.docforge", which lies in the state dir "\.docforge", which DocForge never indexes/, (root) => { mkdirSync(join(root, '.docforge')); symlinkSync(join(root, '.docforge'), join(root, 'lnstate')); }],
  ];
  for (const [items, line, pattern, setup] of cases) {
    const error = refusal(items, setup);
    assert.equal(error.code, 'descriptor_invalid', items.join());
    assert.deepEqual([error.details['key'], error.details['line']], ['adapter.c.include_dirs', line], items.join());
    assert.match(error.message, new RegExp(`^docforge\\.toml:${line}: \\[adapter\\]\\.c\\.include_dirs `), items.join());
    assert.match(error.message, pattern, items.join());
  }
  // A wrong type stays the schema's refusal, at the key's line.
  const root = tempTree({ 'docforge.toml': `${HEAD.replace('include_dirs = [\n', 'include_dirs = "src/tree_sitter"\n')}` });
  try {
    assert.throws(() => loadDescriptor(root), (error: unknown) => error instanceof DocforgeError && error.code === 'descriptor_invalid' && error.details['key'] === 'adapter.c.include_dirs' && error.details['line'] === 10);
  } finally {
    removeTree(root);
  }
});

test('a missing folder and a folder no code root holds are warnings at their lines; an indexed folder is silent', () => {
  const root = project(['"src/tree_sitter/"', '"build/include"', '"."']);
  try {
    const d = loadDescriptor(root);
    assert.deepEqual(d.adapter.c?.include_dirs, ['src/tree_sitter', 'build/include', '.']);
    assert.deepEqual(d.warnings?.map((w) => [w.severity, w.code, w.line]), [['warning', 'include_dir_missing', 12], ['warning', 'include_dir_not_indexed', 13]]);
    assert.match(d.warnings![0]!.message, /^docforge\.toml:12: \[adapter\.c\]\.include_dirs "build\/include" is not a folder of the project .* so no #include resolves into it; create it, or remove it from the list$/);
    assert.match(d.warnings![1]!.message, /"\." lies in no code root \("src"\), so its headers are not indexed .*; add it to \[sources\]\.code_roots$/);
  } finally {
    removeTree(root);
  }
  const clean = project(['"src/tree_sitter"']);
  try {
    assert.equal(loadDescriptor(clean).warnings, undefined);
  } finally {
    removeTree(clean);
  }
});

test('a content or code root that leads through a symbolic link into .git is refused as ".git" itself is (break-it trial 50)', () => {
  const root = project(['"src/tree_sitter"'], HEAD.replace('code_roots = ["src"]', 'code_roots = [\n  "src",\n  "lngit",\n]'));
  try {
    mkdirSync(join(root, '.git/hooks'), { recursive: true });
    symlinkSync(join(root, '.git'), join(root, 'lngit'));
    assert.throws(() => loadDescriptor(root), (error: unknown) => {
      assert.ok(error instanceof DocforgeError);
      assert.equal(error.code, 'descriptor_invalid');
      assert.deepEqual([error.details['key'], error.details['line']], ['sources.code_roots', 8]);
      assert.match(error.message, /"lngit" leads through a symbolic link to "\.git", which lies in "\.git", version-control metadata, never a source/);
      return true;
    });
  } finally {
    removeTree(root);
  }
});
