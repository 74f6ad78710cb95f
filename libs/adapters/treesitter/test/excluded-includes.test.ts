// Pins the new-user trial's F2 for the tree-sitter family (issue 30): an import whose file a `[sources].exclude` glob
// leaves out said nothing (the TypeScript adapter names the glob). Now a C/C++ `#include "..."`, a Ruby
// `require_relative`, a PHP `use` mapped by PSR-4 and a Rust `mod m;` into an excluded file are `unresolved_import`
// warnings worded as the TypeScript adapter's (core `excludedImportIssue`). An include of a file that is indexed, or of a
// system header, says nothing. The C input is tree-sitter-c's src/tree_sitter/array.h (MIT, as installed), whose
// `#include "./alloc.h"` reaches a file here excluded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CodeAdapter, SourceIssue } from '@docforge/core';
import { adapterFor } from './helpers.js';

const MODULES = fileURLToPath(new URL('../../../../../node_modules/', import.meta.url));
/** Debian's golang-github-stretchr-testify-dev (as go.test.ts reads it). */
const TESTIFY = '/usr/share/gocode/src/github.com/stretchr/testify';

/** The `unresolved_import` issues of linking `texts` (every file extracted) with `exclude` leaving paths out of the build. */
async function excludedIssues(id: string, texts: Record<string, string>, excluded: (path: string) => string | null): Promise<SourceIssue[]> {
  const adapter: CodeAdapter = await adapterFor(id);
  const code = Object.keys(texts).filter((path) => adapter.extensions.some((ext) => path.endsWith(ext)) && excluded(path) === null).sort();
  const parsed = code.map((path) => ({ path, ...adapter.extract({ path, content: texts[path] as string, strategy: 'ast', logic: false }) }));
  const known = new Set(code);
  const link = adapter.link(parsed, { hasFile: (path) => known.has(path), readText: (path) => texts[path] ?? null, excludedBy: excluded });
  return link.issues.filter((issue) => issue.code === 'unresolved_import');
}

const glob = (pattern: string, test: (path: string) => boolean) => (path: string): string | null => (test(path) ? pattern : null);

test('C: array.h including an excluded "./alloc.h" names the glob; <stdlib.h> and indexed headers say nothing', async () => {
  const array = readFileSync(`${MODULES}tree-sitter-c/src/tree_sitter/array.h`, 'utf8');
  const texts = { 'src/tree_sitter/array.h': array, 'src/tree_sitter/alloc.h': readFileSync(`${MODULES}tree-sitter-c/src/tree_sitter/alloc.h`, 'utf8') };
  const issues = await excludedIssues('cpp', texts, glob('src/tree_sitter/alloc.*', (p) => p.startsWith('src/tree_sitter/alloc.')));
  assert.deepEqual(issues.map((i) => [i.severity, i.path, i.line, i.node_id]), [['warning', 'src/tree_sitter/array.h', 8, 'code:src/tree_sitter/array.h']]);
  assert.equal(issues[0]!.message, `Cannot resolve module './alloc.h' to a project file: its path src/tree_sitter/alloc.h matches [sources].exclude "src/tree_sitter/alloc.*" of docforge.toml, so it is not indexed (remove that glob to index it).`);
  assert.deepEqual(await excludedIssues('cpp', texts, () => null), []);
});

test('Ruby, PHP and Rust: require_relative, a PSR-4 use and mod m; into an excluded folder name the glob', async () => {
  const vendor = glob('vendor/**', (p) => p.startsWith('vendor/'));
  const ruby = await excludedIssues('ruby', { 'lib/app.rb': 'require_relative "../vendor/util"\nrequire "json"\n', 'vendor/util.rb': 'module Util; end\n' }, vendor);
  assert.deepEqual(ruby.map((i) => [i.line, i.message.includes('its path vendor/util.rb matches [sources].exclude "vendor/**"')]), [[1, true]]);
  const php = await excludedIssues('php', {
    'composer.json': JSON.stringify({ autoload: { 'psr-4': { 'App\\': 'src/', 'Lib\\': 'vendor/lib/' } } }),
    'src/Main.php': '<?php\nnamespace App;\n\nuse Lib\\Client;\nuse App\\Other;\n\nclass Main {}\n',
    'src/Other.php': '<?php\nnamespace App;\n\nclass Other {}\n',
    'vendor/lib/Client.php': '<?php\nnamespace Lib;\n\nclass Client {}\n',
  }, vendor);
  assert.deepEqual(php.map((i) => [i.path, i.line, i.message.includes('its path vendor/lib/Client.php matches')]), [['src/Main.php', 4, true]]);
  const rust = await excludedIssues('rust', { 'Cargo.toml': '[package]\nname = "demo"\n', 'src/lib.rs': 'mod generated;\nmod kept;\n', 'src/kept.rs': 'pub fn f() {}\n', 'src/generated.rs': 'pub fn g() {}\n' }, glob('src/generated.rs', (p) => p === 'src/generated.rs'));
  assert.deepEqual(rust.map((i) => [i.line, i.message.includes('its path src/generated.rs matches')]), [[1, true]]);
});

// Go, Java and C# (issue 30, helper fx30): their imports into an excluded folder said nothing. A Go import of the
// module's own package, a Java import of a class or package under a source root and a C# `using` of a namespace whose
// folder the build's files lay out now name the glob, as C's includes do. Imports of the standard library say nothing.
test('Go: testify/require importing an excluded github.com/stretchr/testify/assert names the glob; "fmt" says nothing', async () => {
  const texts: Record<string, string> = { 'go.mod': readFileSync(`${TESTIFY}/go.mod`, 'utf8') };
  for (const name of ['require.go', 'requirements.go', 'doc.go']) texts[`require/${name}`] = readFileSync(`${TESTIFY}/require/${name}`, 'utf8');
  texts['assert/doc.go'] = readFileSync(`${TESTIFY}/assert/doc.go`, 'utf8');
  const issues = await excludedIssues('go', texts, glob('assert/**', (p) => p === 'assert' || p.startsWith('assert/')));
  const line = texts['require/require.go']!.split('\n').findIndex((l) => l.includes('"github.com/stretchr/testify/assert"')) + 1;
  assert.deepEqual(issues.map((i) => [i.severity, i.path, i.line]), [['warning', 'require/require.go', line]]);
  assert.equal(issues[0]!.message, `Cannot resolve module 'github.com/stretchr/testify/assert' to a project file: its path assert matches [sources].exclude "assert/**" of docforge.toml, so it is not indexed (remove that glob to index it).`);
  assert.deepEqual(await excludedIssues('go', texts, () => null), []);
});

test('Java and C#: a class, a package and a namespace in an excluded folder name the glob; java.util and System say nothing', async () => {
  const gen = glob('src/main/java/com/acme/gen/**', (p) => p === 'src/main/java/com/acme/gen' || p.startsWith('src/main/java/com/acme/gen/'));
  const java = await excludedIssues('java', {
    'src/main/java/com/acme/App.java': 'package com.acme;\n\nimport com.acme.gen.Model;\nimport com.acme.util.Strings;\nimport java.util.List;\nimport com.acme.gen.*;\nimport static com.acme.gen.Model.VERSION;\n\npublic class App {}\n',
    'src/main/java/com/acme/util/Strings.java': 'package com.acme.util;\n\npublic class Strings {}\n',
    'src/main/java/com/acme/gen/Model.java': 'package com.acme.gen;\n\npublic class Model { public static final int VERSION = 1; }\n',
  }, gen);
  assert.deepEqual(java.map((i) => [i.line, i.message.slice(i.message.indexOf('its path'), i.message.indexOf(' matches'))]), [
    [3, 'its path src/main/java/com/acme/gen/Model.java'], [6, 'its path src/main/java/com/acme/gen'], [7, 'its path src/main/java/com/acme/gen/Model.java'],
  ]);
  const generated = glob('src/Acme/Generated/**', (p) => p === 'src/Acme/Generated' || p.startsWith('src/Acme/Generated/'));
  const csharp = await excludedIssues('csharp', {
    'src/Acme/App.cs': 'using System;\nusing Acme.Generated;\nusing Acme.Util;\n\nnamespace Acme\n{\n    public class App {}\n}\n',
    'src/Acme/Util/Strings.cs': 'namespace Acme.Util\n{\n    public class Strings {}\n}\n',
    'src/Acme/Generated/Model.cs': 'namespace Acme.Generated\n{\n    public class Model {}\n}\n',
  }, generated);
  assert.deepEqual(csharp.map((i) => [i.path, i.line, i.message.includes('its path src/Acme/Generated matches [sources].exclude "src/Acme/Generated/**"')]), [['src/Acme/App.cs', 2, true]]);
});
