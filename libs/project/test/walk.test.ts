// Pins the source walk (roots, extensions, excludes, state dir, symlinks) and the cheap/source identities.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cheapIdentity, loadDescriptor, sourceHash, statIdentity, walkSources } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const DESCRIPTOR = `schema_version = 1
[project]
id = "walk"
[sources]
content_roots = ["docs"]
code_roots = ["src"]
exclude = ["**/node_modules/**", "**/*.skip.md", "src/generated/**"]
`;

function fixture(): string {
  return tempTree({
    'docforge.toml': DESCRIPTOR,
    'docs/index.md': '# Index\n',
    'docs/guide/setup.markdown': '# Setup\n',
    'docs/records.toml': '[[node]]\nid = "r"\nkind = "k"\ntitle = "R"\n',
    'docs/notes.txt': 'not a source',
    'docs/draft.skip.md': '# skipped by glob\n',
    'docs/node_modules/pkg/readme.md': '# excluded\n',
    'docs/.hidden/secret.md': '# dot dirs are walked unless excluded\n',
    'src/a.ts': 'export const a = 1;\n',
    'src/b.py': 'b = 1\n',
    'src/lib/c.ts': 'export {};\n',
    'src/generated/d.ts': 'export {};\n',
    'src/readme.md': '# code roots do not contribute markdown\n',
    '.docforge/index/x.md': '# state dir\n',
    'other/outside-roots.md': '# not under a root\n',
  });
}

test('walk lists content and code sources sorted, applying excludes', () => {
  const root = fixture();
  try {
    const desc = loadDescriptor(root);
    const walk = walkSources(desc, ['.ts']);
    assert.deepEqual(walk.entries.map((entry) => `${entry.role}:${entry.path}`), [
      'content:docs/.hidden/secret.md',
      'content:docs/guide/setup.markdown',
      'content:docs/index.md',
      'content:docs/records.toml',
      'code:src/a.ts',
      'code:src/lib/c.ts',
    ]);
    assert.deepEqual(walk.issues, []);
    const index = walk.entries.find((entry) => entry.path === 'docs/index.md');
    assert.equal(index?.size, 8);
    assert.match(index?.mtime_ns ?? '', /^\d{16,}$/);
    assert.match(index?.ino ?? '', /^\d+$/);
    assert.deepEqual(walkSources(desc, ['.ts', '.py']).entries.filter((entry) => entry.role === 'code').map((entry) => entry.path), ['src/a.ts', 'src/b.py', 'src/lib/c.ts']);
  } finally {
    removeTree(root);
  }
});

test('the state dir is skipped even when it lies inside a content root', () => {
  const root = tempTree({
    'docforge.toml': 'schema_version = 1\n[project]\nid = "s"\n[sources]\ncontent_roots = ["."]\nexclude = []\n[state]\ndir = "state"\n',
    'a.md': '# A\n',
    'state/index/stale.md': '# must not be listed\n',
    '.git/HEAD.md': '# never\n',
  });
  try {
    const walk = walkSources(loadDescriptor(root), []);
    assert.deepEqual(walk.entries.map((entry) => entry.path), ['a.md', 'docforge.toml']);
  } finally {
    removeTree(root);
  }
});

test('symlinks: outside the root is an error issue, inside file is followed, directories are not descended', () => {
  const outside = tempTree({ 'secret.md': '# secret\n', 'dir/x.md': '# x\n' });
  const root = fixture();
  try {
    symlinkSync(join(outside, 'secret.md'), join(root, 'docs/leak.md'));
    symlinkSync(join(outside, 'dir'), join(root, 'docs/leakdir'));
    symlinkSync(join(root, 'docs/index.md'), join(root, 'docs/alias.md'));
    symlinkSync(join(root, 'docs/guide'), join(root, 'docs/guide-link'));
    symlinkSync(join(root, 'docs/missing.md'), join(root, 'docs/dangling.md'));
    symlinkSync(join(outside, 'secret.md'), join(root, 'docs/not-a-source.png'));
    const walk = walkSources(loadDescriptor(root), ['.ts']);
    const paths = walk.entries.map((entry) => entry.path);
    assert.ok(paths.includes('docs/alias.md'));
    assert.ok(!paths.includes('docs/leak.md'));
    assert.ok(!paths.some((path) => path.startsWith('docs/leakdir') || path.startsWith('docs/guide-link')));
    const alias = walk.entries.find((entry) => entry.path === 'docs/alias.md');
    const target = walk.entries.find((entry) => entry.path === 'docs/index.md');
    assert.equal(alias?.ino, target?.ino, 'a symlinked file carries its target stat');
    assert.equal(alias?.size, target?.size);
    const byCode = (code: string): string[] => walk.issues.filter((item) => item.code === code).map((item) => item.path ?? '').sort();
    assert.deepEqual(byCode('path_outside_root'), ['docs/leak.md', 'docs/leakdir']);
    assert.ok(walk.issues.filter((item) => item.code === 'path_outside_root').every((item) => item.severity === 'error' && item.message.includes(item.path ?? '?')));
    assert.deepEqual(byCode('symlinked_directory_skipped'), ['docs/guide-link']);
    assert.deepEqual(byCode('broken_symlink'), ['docs/dangling.md']);
  } finally {
    removeTree(root);
    removeTree(outside);
  }
});

test('unreadable directories and missing roots become issues, never throws', () => {
  const root = fixture();
  try {
    const desc = loadDescriptor(root);
    const missing = { ...desc, sources: { ...desc.sources, code_roots: ['nope'] } };
    const walk = walkSources(missing, ['.ts']);
    assert.deepEqual(walk.issues.map((item) => [item.code, item.path]), [['root_not_found', 'nope']]);
    mkdirSync(join(root, 'docs/locked'));
    writeFileSync(join(root, 'docs/locked/x.md'), '# x\n');
    chmodSync(join(root, 'docs/locked'), 0o000);
    const locked = walkSources(desc, ['.ts']);
    chmodSync(join(root, 'docs/locked'), 0o755);
    if (process.getuid?.() !== 0) {
      assert.deepEqual(locked.issues.map((item) => [item.code, item.path]), [['unreadable_path', 'docs/locked']]);
    } else {
      // root bypasses permission bits: the file is simply listed.
      assert.ok(locked.entries.some((entry) => entry.path === 'docs/locked/x.md'));
    }
  } finally {
    removeTree(root);
  }
});

test('cheap identity changes on touch and edit, not on an unchanged re-walk', () => {
  const root = fixture();
  try {
    const desc = loadDescriptor(root);
    const extra = [statIdentity(join(root, 'docforge.toml'), 'docforge.toml')!];
    const first = cheapIdentity(walkSources(desc, ['.ts']).entries, extra);
    assert.match(first, /^[0-9a-f]{64}$/);
    assert.equal(cheapIdentity(walkSources(desc, ['.ts']).entries, extra), first);
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, 'docs/index.md'), later, later);
    const touched = cheapIdentity(walkSources(desc, ['.ts']).entries, extra);
    assert.notEqual(touched, first);
    appendFileSync(join(root, 'src/a.ts'), '// edit\n');
    const edited = cheapIdentity(walkSources(desc, ['.ts']).entries, extra);
    assert.notEqual(edited, touched);
    appendFileSync(join(root, 'docforge.toml'), '# comment\n');
    const descriptorEdited = cheapIdentity(walkSources(desc, ['.ts']).entries, [statIdentity(join(root, 'docforge.toml'), 'docforge.toml')!]);
    assert.notEqual(descriptorEdited, edited);
    assert.equal(statIdentity(join(root, 'absent.mjs'), 'absent.mjs'), null);
  } finally {
    removeTree(root);
  }
});

test('sourceHash is order-independent and content-sensitive', () => {
  const a = { path: 'docs/a.md', content_hash: 'a'.repeat(64) };
  const b = { path: 'src/b.ts', content_hash: 'b'.repeat(64) };
  assert.equal(sourceHash([a, b]), sourceHash([b, a]));
  assert.notEqual(sourceHash([a, b]), sourceHash([a, { ...b, content_hash: 'c'.repeat(64) }]));
  assert.match(sourceHash([]), /^[0-9a-f]{64}$/);
});
