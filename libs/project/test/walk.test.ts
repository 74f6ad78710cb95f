// Pins the source walk (roots, extensions, excludes, state dir, symlinks) and the cheap/source identities.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cheapIdentity, codeSourcePathMatcher, excludeGlobOf, loadDescriptor, MAX_CODE_SOURCE_BYTES, MAX_CONTENT_SOURCE_BYTES, sourceHash, sourcePathClassifier, statIdentity, walkSources } from '../src/index.js';
import { removeTree, tempTree, testDescriptor } from './helpers.js';

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

test('missing roots and roots that are neither directories nor files of their role are error issues, never throws', () => {
  const root = fixture();
  try {
    const desc = loadDescriptor(root);
    // A file is a root only when its role reads it (issue 30 item 11): notes.txt is no content source.
    writeFileSync(join(root, 'notes.txt'), 'a file, not a directory\n');
    const missing = { ...desc, sources: { ...desc.sources, content_roots: ['docs', 'notes.txt'], code_roots: ['nope'] } };
    const walk = walkSources(missing, ['.ts']);
    assert.deepEqual(walk.issues.map((item) => [item.severity, item.code, item.path]), [['error', 'root_not_found', 'notes.txt'], ['error', 'root_not_found', 'nope']]);
    assert.match(walk.issues[0]?.message ?? '', /notes\.txt: declared content root is not a directory, nor a Markdown or TOML file/);
    assert.match(walk.issues[1]?.message ?? '', /nope: declared code root does not exist/);
  } finally {
    removeTree(root);
  }
});

test('a file is a content or code root (README.md, pino.js): that one source, its folder read for the watcher; nothing beside it', () => {
  const root = fixture();
  try {
    writeFileSync(join(root, 'README.md'), '# Main\n');
    writeFileSync(join(root, 'main.js'), 'module.exports = 1;\n');
    writeFileSync(join(root, 'other.js'), 'module.exports = 2;\n');
    writeFileSync(join(root, 'config.toml'), 'a = 1\n');
    const desc = loadDescriptor(root);
    const withFiles = { ...desc, sources: { ...desc.sources, content_roots: ['docs', 'README.md'], code_roots: ['main.js', 'src'] } };
    const walk = walkSources(withFiles, ['.ts', '.js']);
    assert.deepEqual(walk.issues, []);
    const byPath = new Map(walk.entries.map((entry) => [entry.path, entry.role]));
    assert.equal(byPath.get('README.md'), 'content');
    assert.equal(byPath.get('main.js'), 'code');
    assert.ok(!byPath.has('other.js') && !byPath.has('config.toml') && !byPath.has('other/outside-roots.md'));
    assert.ok(walk.directories.includes(''), 'the root folder holds the file roots, so it is watched');
    const classify = sourcePathClassifier(withFiles, ['.ts', '.js']);
    assert.equal(classify('README.md').kind, 'entry');
    assert.equal(classify('main.js').kind, 'entry');
    assert.equal(classify('other.js').kind, 'none');
    assert.equal(classify('config.toml').kind, 'none');
    const isCode = codeSourcePathMatcher(withFiles, ['.ts', '.js']);
    assert.equal(isCode('main.js'), true);
    assert.equal(isCode('other.js'), false);
  } finally {
    removeTree(root);
  }
});

// Root bypasses permission bits, so as root the walk runs in a child process as uid/gid 65534 (nobody).
test('an unreadable directory is an error issue unreadable_path and its files are not listed', () => {
  const root = fixture();
  try {
    mkdirSync(join(root, 'docs/locked'));
    writeFileSync(join(root, 'docs/locked/x.md'), '# x\n');
    chmodSync(join(root, 'docs/locked'), 0o000);
    let result: { entries: string[]; issues: [string, string, string | null][] };
    if (process.getuid?.() === 0) {
      chmodSync(root, 0o755);
      const moduleUrl = new URL('../src/index.js', import.meta.url).href;
      const script = `const m = await import(${JSON.stringify(moduleUrl)}); const w = m.walkSources(m.loadDescriptor(${JSON.stringify(root)}), ['.ts']);`
        + 'process.stdout.write(JSON.stringify({ entries: w.entries.map((e) => e.path), issues: w.issues.map((i) => [i.severity, i.code, i.path]) }));';
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { uid: 65534, gid: 65534, encoding: 'utf8' });
      assert.equal(child.status, 0, child.stderr);
      result = JSON.parse(child.stdout) as typeof result;
    } else {
      const walk = walkSources(loadDescriptor(root), ['.ts']);
      result = { entries: walk.entries.map((e) => e.path), issues: walk.issues.map((i) => [i.severity, i.code, i.path]) };
    }
    chmodSync(join(root, 'docs/locked'), 0o755);
    assert.deepEqual(result.issues, [['error', 'unreadable_path', 'docs/locked']]);
    assert.ok(!result.entries.includes('docs/locked/x.md'));
    assert.ok(result.entries.includes('docs/index.md'));
  } finally {
    removeTree(root);
  }
});

test('symlinks cannot bypass excludes, .git or the state dir; loops are reported as loops', () => {
  const root = fixture();
  try {
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git/notes.md'), '# git internals\n');
    symlinkSync(join(root, 'docs/draft.skip.md'), join(root, 'docs/to-glob.md'));
    symlinkSync('node_modules/pkg/readme.md', join(root, 'docs/to-node-modules.md'));
    symlinkSync(join(root, '.git/notes.md'), join(root, 'docs/to-git.md'));
    symlinkSync(join(root, '.docforge/index/x.md'), join(root, 'docs/to-state.md'));
    symlinkSync(join(root, '.docforge/index'), join(root, 'docs/to-state-dir'));
    symlinkSync(join(root, 'src/generated/d.ts'), join(root, 'src/to-generated.ts'));
    symlinkSync(join(root, 'src/a.ts'), join(root, 'src/to-a.ts'));
    symlinkSync('loop-b.md', join(root, 'docs/loop-a.md'));
    symlinkSync('loop-a.md', join(root, 'docs/loop-b.md'));
    symlinkSync('self.md', join(root, 'docs/self.md'));
    const walk = walkSources(loadDescriptor(root), ['.ts']);
    const paths = walk.entries.map((entry) => entry.path);
    for (const link of ['docs/to-glob.md', 'docs/to-node-modules.md', 'docs/to-git.md', 'docs/to-state.md', 'src/to-generated.ts']) assert.ok(!paths.includes(link), link);
    assert.ok(paths.includes('src/to-a.ts'), 'a link to a normal source is still followed');
    const excluded = walk.issues.filter((item) => item.code === 'symlink_to_excluded_path');
    assert.deepEqual(excluded.map((item) => item.path).sort(), ['docs/to-git.md', 'docs/to-glob.md', 'docs/to-node-modules.md', 'docs/to-state-dir', 'docs/to-state.md', 'src/to-generated.ts']);
    assert.ok(excluded.every((item) => item.severity === 'warning'));
    assert.match(excluded.find((item) => item.path === 'docs/to-glob.md')?.message ?? '', /^docs\/to-glob\.md: symbolic link target docs\/draft\.skip\.md is excluded/);
    assert.match(excluded.find((item) => item.path === 'docs/to-git.md')?.message ?? '', /target \.git\/notes\.md is excluded/);
    assert.match(excluded.find((item) => item.path === 'src/to-generated.ts')?.message ?? '', /target src\/generated\/d\.ts is excluded/);
    const loops = walk.issues.filter((item) => item.code === 'symlink_loop');
    assert.deepEqual(loops.map((item) => item.path).sort(), ['docs/loop-a.md', 'docs/loop-b.md', 'docs/self.md']);
    assert.ok(loops.every((item) => /symbolic link loop \(ELOOP\)/.test(item.message)));
    assert.deepEqual(walk.issues.filter((item) => item.code === 'broken_symlink'), []);
  } finally {
    removeTree(root);
  }
});

test('sources over 16 MiB (content) or 4 MiB (code) are source_too_large errors, not entries', () => {
  const root = fixture();
  try {
    // Sparse files: the sizes are real to stat, no disk is spent.
    truncateSync(join(root, 'docs/index.md'), MAX_CONTENT_SOURCE_BYTES);
    writeFileSync(join(root, 'docs/huge.md'), '');
    truncateSync(join(root, 'docs/huge.md'), MAX_CONTENT_SOURCE_BYTES + 1);
    truncateSync(join(root, 'src/a.ts'), MAX_CODE_SOURCE_BYTES);
    writeFileSync(join(root, 'src/huge.ts'), '');
    truncateSync(join(root, 'src/huge.ts'), MAX_CODE_SOURCE_BYTES + 1);
    writeFileSync(join(root, 'src/package.json'), '');
    truncateSync(join(root, 'src/package.json'), MAX_CODE_SOURCE_BYTES + 1);
    symlinkSync(join(root, 'docs/huge.md'), join(root, 'docs/huge-link.md'));
    assert.equal(MAX_CONTENT_SOURCE_BYTES, 16 * 1024 * 1024);
    assert.equal(MAX_CODE_SOURCE_BYTES, 4 * 1024 * 1024);
    const walk = walkSources(loadDescriptor(root), ['.ts']);
    const paths = walk.entries.map((entry) => entry.path);
    assert.ok(paths.includes('docs/index.md') && paths.includes('src/a.ts'), 'files exactly at the limit are sources');
    for (const big of ['docs/huge.md', 'docs/huge-link.md', 'src/huge.ts', 'src/package.json']) assert.ok(!paths.includes(big), big);
    const large = walk.issues.filter((item) => item.code === 'source_too_large');
    assert.deepEqual(large.map((item) => [item.severity, item.path]).sort(), [['error', 'docs/huge-link.md'], ['error', 'docs/huge.md'], ['error', 'src/huge.ts'], ['error', 'src/package.json']]);
    assert.match(large.find((item) => item.path === 'docs/huge.md')?.message ?? '', /^docs\/huge\.md: content source is 16777217 bytes, over the 16777216-byte limit/);
    assert.match(large.find((item) => item.path === 'src/huge.ts')?.message ?? '', /^src\/huge\.ts: code source is 4194305 bytes, over the 4194304-byte limit/);
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

test('tsconfig/jsconfig files (and package.json) under code roots and at the project root join the code sources and the cheap identity', () => {
  const root = tempTree({
    'docforge.toml': DESCRIPTOR,
    'docs/index.md': '# Index\n',
    'tsconfig.json': '{ "extends": "./tsconfig.base.json" }\n',
    'tsconfig.base.json': '{ "compilerOptions": { "baseUrl": "." } }\n',
    'package.json': '{ "name": "walk" }\n',
    'src/a.ts': 'export const a = 1;\n',
    'src/web/jsconfig.json': '{}\n',
    'src/web/tsconfig.build.json': '{}\n',
    'src/web/config.json': '{ "not": "a manifest" }\n',
    'other/tsconfig.json': '{}\n',
  });
  try {
    const desc = loadDescriptor(root);
    const walk = walkSources(desc, ['.ts']);
    const code = walk.entries.filter((e) => e.role === 'code').map((e) => e.path);
    assert.deepEqual(code, ['package.json', 'src/a.ts', 'src/web/jsconfig.json', 'src/web/tsconfig.build.json', 'tsconfig.base.json', 'tsconfig.json']);
    const extra = [statIdentity(join(root, 'docforge.toml'), 'docforge.toml')!];
    const before = cheapIdentity(walk.entries, extra);
    appendFileSync(join(root, 'tsconfig.base.json'), '\n');
    assert.notEqual(cheapIdentity(walkSources(desc, ['.ts']).entries, extra), before, 'an edit to an extended tsconfig changes the identity');
  } finally {
    removeTree(root);
  }
});

test('a file or directory name that is not UTF-8 is an invalid_encoding finding naming its bytes, not ENOENT', () => {
  const root = fixture();
  try {
    const latin1 = (rel: string, name: string) => Buffer.concat([Buffer.from(join(root, rel) + '/'), Buffer.from(name, 'latin1')]);
    writeFileSync(latin1('docs', 'lat\u00e9n.md'), '# Latin\n');
    writeFileSync(latin1('docs', 'caf\u00e9.txt'), 'not a source extension: no finding');
    mkdirSync(latin1('docs', 'd\u00e9j\u00e0'));
    writeFileSync(Buffer.concat([latin1('docs', 'd\u00e9j\u00e0'), Buffer.from('/inner.md')]), '# inner\n');
    writeFileSync(join(root, 'docs', 'r\u00e9sum\u00e9.md'), '# UTF-8 names stay sources\n');
    const walk = walkSources(loadDescriptor(root), ['.ts']);
    const found = walk.issues.filter((item) => item.code === 'invalid_encoding');
    assert.deepEqual(found.map((item) => item.path).sort(), ['docs/d\\xe9j\\xe0', 'docs/lat\\xe9n.md']);
    assert.ok(found.every((item) => item.severity === 'error' && item.message.startsWith(`${item.path}: `) && /not valid UTF-8/.test(item.message)));
    assert.deepEqual(walk.issues.filter((item) => item.code === 'unreadable_path'), [], 'no ENOENT for a name that exists');
    assert.ok(walk.entries.some((entry) => entry.path === 'docs/r\u00e9sum\u00e9.md'));
    assert.ok(!walk.entries.some((entry) => entry.path.includes('\uFFFD')));
  } finally {
    removeTree(root);
  }
});

test('a symlink cannot widen the declared roots: a docs/ link to a file elsewhere in the project (.env, other/) is skipped', () => {
  const root = fixture();
  try {
    writeFileSync(join(root, '.env'), 'SECRET=1\n');
    symlinkSync('../.env', join(root, 'docs/to-env.md'));
    symlinkSync('../other/outside-roots.md', join(root, 'docs/to-other.md'));
    symlinkSync('index.md', join(root, 'docs/to-index.md'));
    const walk = walkSources(loadDescriptor(root), ['.ts']);
    const paths = walk.entries.map((entry) => entry.path);
    assert.ok(!paths.includes('docs/to-env.md') && !paths.includes('docs/to-other.md'));
    assert.ok(paths.includes('docs/to-index.md'), 'a link inside a declared root is still followed');
    const skipped = walk.issues.filter((item) => item.code === 'symlink_to_excluded_path').map((item) => item.path).sort();
    assert.deepEqual(skipped, ['docs/to-env.md', 'docs/to-other.md']);
    assert.match(walk.issues.find((item) => item.path === 'docs/to-env.md')?.message ?? '', /target \.env lies outside the declared content and code roots/);
  } finally {
    removeTree(root);
  }
});

// Issue 30 (helper fx30): the glob named for an excluded import is the one the walk applies, also when it matches a
// folder above the file (`vendor` skips vendor/ and all below it): excludedBy answered null for vendor/x.rb before.
test('excludeGlobOf names a glob that matches a folder above the path, as the walk skips it', () => {
  const of = excludeGlobOf(testDescriptor({ sources: { content_roots: ['docs'], code_roots: ['.'], exclude: ['vendor', 'gen/*.h', '**/third_party/**'] } }));
  assert.deepEqual(['vendor/x.rb', 'vendor/a/b.rb', 'gen/a.h', 'gen/sub/a.h', 'src/third_party/z/q.c', 'src/vendor/x.rb', '.docforge/x.h'].map(of),
    ['vendor', 'vendor', 'gen/*.h', null, '**/third_party/**', null, '[state].dir ".docforge"']);
});
