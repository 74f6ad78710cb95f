// Pins docforge init on the languages of the tree-sitter family (issue 33 item 5): a go.mod project's code roots and adapter, its
// vendor/ folder excluded and listed among what init left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadDescriptor } from '@docforge/project';
import { initProject } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

test('a Go module: go.mod marks it, code roots skip vendor/, which is excluded and listed as left out', () => {
  const nested = tempTree({
    'go.mod': 'module example.com/app\n', 'docs/guide.md': '# Guide\n', 'cmd/app/main.go': 'package main\nfunc main() {}\n',
    'internal/store/store.go': 'package store\n', 'vendor/github.com/x/y/y.go': 'package y\n',
  });
  const flat = tempTree({ 'go.mod': 'module example.com/lib\n', 'README.md': '# Lib\n', 'lib.go': 'package lib\n', 'vendor/a/a.go': 'package a\n' });
  try {
    const first = initProject(nested);
    assert.deepEqual(first.code_roots, ['cmd', 'internal']);
    assert.deepEqual(loadDescriptor(nested).adapter.code, ['go']);
    assert.ok(loadDescriptor(nested).sources.exclude.includes('**/vendor/**'), first.descriptor_text);
    const vendor = first.left_out.find((item) => item.path === 'vendor');
    assert.match(vendor?.reason ?? '', /Go build output or vendored dependencies \(the project has go\.mod\); excluded as "\*\*\/vendor\/\*\*"/);
    const second = initProject(flat);
    assert.deepEqual(second.code_roots, ['.']);
    assert.deepEqual(loadDescriptor(flat).adapter.code, ['go']);
    assert.ok(second.descriptor_text.includes('"**/vendor/**"'));
  } finally {
    removeTree(nested);
    removeTree(flat);
  }
});

test('a Cargo crate and a Maven project: target/ (and build/, .gradle/) excluded and listed; rust and java proposed', () => {
  const crate = tempTree({ 'Cargo.toml': '[package]\nname = "x"\n', 'src/lib.rs': 'pub fn f() {}\n', 'target/debug/build.rs': 'fn main() {}\n', 'README.md': '# X\n' });
  const maven = tempTree({ 'pom.xml': '<project/>\n', 'src/main/java/a/A.java': 'package a;\nclass A {}\n', 'target/gen/B.java': 'class B {}\n' });
  try {
    const first = initProject(crate);
    assert.deepEqual(first.code_roots, ['src']);
    assert.deepEqual(loadDescriptor(crate).adapter.code, ['rust']);
    assert.ok(loadDescriptor(crate).sources.exclude.includes('**/target/**'));
    assert.match(first.left_out.find((item) => item.path === 'target')?.reason ?? '', /Rust build output .*Cargo\.toml/);
    const second = initProject(maven);
    assert.deepEqual(second.code_roots, ['src']);
    assert.deepEqual(loadDescriptor(maven).adapter.code, ['java']);
    for (const glob of ['**/target/**', '**/build/**', '**/.gradle/**']) assert.ok(loadDescriptor(maven).sources.exclude.includes(glob), glob);
    assert.match(second.left_out.find((item) => item.path === 'target')?.reason ?? '', /Java build output .*pom\.xml/);
  } finally {
    removeTree(crate);
    removeTree(maven);
  }
});

test('a C# project: *.csproj marks it; bin/ and obj/ excluded and listed; csharp proposed', () => {
  const root = tempTree({ 'App.csproj': '<Project/>\n', 'src/Program.cs': 'class P { static void Main() {} }\n', 'bin/Debug/x.cs': 'class X {}\n', 'obj/y.cs': 'class Y {}\n' });
  try {
    const result = initProject(root);
    assert.deepEqual(result.code_roots, ['src']);
    assert.deepEqual(loadDescriptor(root).adapter.code, ['csharp']);
    for (const glob of ['**/bin/**', '**/obj/**']) assert.ok(loadDescriptor(root).sources.exclude.includes(glob), glob);
    assert.deepEqual(result.left_out.map((item) => item.path).sort(), ['bin', 'obj']);
  } finally {
    removeTree(root);
  }
});

test('a Ruby gem: a *.gemspec (or Gemfile) marks it; vendor/bundle/ excluded and listed; ruby proposed', () => {
  const root = tempTree({ 'shop.gemspec': 'Gem::Specification.new\n', 'lib/shop.rb': 'module Shop; end\n', 'vendor/bundle/ruby/x.rb': 'module X; end\n', 'README.md': '# Shop\n' });
  try {
    const result = initProject(root);
    assert.deepEqual(result.code_roots, ['lib']);
    assert.deepEqual(loadDescriptor(root).adapter.code, ['ruby']);
    assert.ok(loadDescriptor(root).sources.exclude.includes('**/vendor/bundle/**'));
    assert.match(result.left_out.find((item) => item.path === 'vendor/bundle')?.reason ?? '', /Ruby build output .*shop\.gemspec/);
  } finally {
    removeTree(root);
  }
});

test('a PHP package: composer.json marks it; vendor/ excluded and listed; php proposed', () => {
  const root = tempTree({ 'composer.json': '{"autoload": {"psr-4": {"Shop\\\\": "src/"}}}\n', 'src/Ledger.php': '<?php\nnamespace Shop;\nclass Ledger {}\n', 'vendor/x/y/Y.php': '<?php\nclass Y {}\n' });
  try {
    const result = initProject(root);
    assert.deepEqual(result.code_roots, ['src']);
    assert.deepEqual(loadDescriptor(root).adapter.code, ['php']);
    assert.ok(loadDescriptor(root).sources.exclude.includes('**/vendor/**'));
    assert.match(result.left_out.find((item) => item.path === 'vendor')?.reason ?? '', /PHP build output .*composer\.json/);
  } finally {
    removeTree(root);
  }
});

test('a C/C++ project: CMakeLists.txt marks it; build/ and cmake-build-*/ excluded and listed; a Makefile marks it only beside C sources', () => {
  const cmake = tempTree({ 'CMakeLists.txt': 'project(x)\n', 'src/main.c': 'int main(void) { return 0; }\n', 'build/gen.c': 'int g;\n', 'cmake-build-debug/x.c': 'int x;\n' });
  const make = tempTree({ Makefile: 'all:\n', 'src/a.c': 'int a;\n', 'build/b.c': 'int b;\n' });
  const js = tempTree({ Makefile: 'all:\n', 'package.json': '{}\n', 'lib/a.js': 'export const a = 1;\n', 'build/out.js': 'x\n' });
  try {
    const result = initProject(cmake);
    assert.deepEqual(result.code_roots, ['src']);
    assert.deepEqual(loadDescriptor(cmake).adapter.code, ['cpp']);
    for (const glob of ['**/build/**', '**/cmake-build-*/**']) assert.ok(loadDescriptor(cmake).sources.exclude.includes(glob), glob);
    assert.deepEqual(result.left_out.map((item) => item.path).sort(), ['build', 'cmake-build-debug']);
    assert.ok(initProject(make).descriptor_text.includes('"**/build/**"'));
    assert.ok(!initProject(js).descriptor_text.includes('"**/build/**"'));
  } finally {
    removeTree(cmake);
    removeTree(make);
    removeTree(js);
  }
});

test('a C-only project gets [adapter.c] headers = "c" (its .h files are C); one with a C++ source keeps the default', () => {
  const c = tempTree({ 'CMakeLists.txt': 'project(x)\n', 'src/main.c': 'int main(void) { return 0; }\n', 'src/util.h': 'int util(void);\n' });
  const mixed = tempTree({ 'CMakeLists.txt': 'project(x)\n', 'src/main.c': 'int main(void) { return 0; }\n', 'src/util.h': 'int util(void);\n', 'src/deep/w.cpp': 'int w() { return 1; }\n' });
  try {
    assert.match(initProject(c).descriptor_text, /^\[adapter\.c\]\n#[^\n]*\nheaders = "c"$/m);
    assert.equal(loadDescriptor(c).adapter.c?.headers, 'c');
    assert.ok(!initProject(mixed).descriptor_text.includes('headers'));
    assert.equal(loadDescriptor(mixed).adapter.c?.headers, undefined);
  } finally {
    removeTree(c);
    removeTree(mixed);
  }
});

test('markers below the top level: a C# solution of nested projects and a Maven multi-module tree get their build folders excluded and listed', () => {
  const solution = tempTree({
    'README.md': '# Shop\n', 'src/App/App.csproj': '<Project/>\n', 'src/App/Program.cs': 'class P { static void Main() {} }\n',
    'src/App/bin/Debug/net8.0/Gen.cs': 'class Gen {}\n', 'src/App/obj/Debug/Assembly.cs': 'class A {}\n', 'src/Lib/Lib.csproj': '<Project/>\n', 'src/Lib/Lib.cs': 'class L {}\n',
  });
  const modules = tempTree({ 'core/pom.xml': '<project/>\n', 'core/src/main/java/a/A.java': 'package a;\nclass A {}\n', 'core/target/gen/B.java': 'class B {}\n' });
  const sphinx = tempTree({ 'docs/Makefile': 'html:\n\tsphinx-build . _build\n', 'docs/index.md': '# Docs\n', 'pkg/app.py': 'def main():\n    pass\n', 'build/lib/pkg/app.py': 'x = 1\n' });
  try {
    const first = initProject(solution);
    assert.deepEqual(loadDescriptor(solution).adapter.code, ['csharp']);
    for (const glob of ['**/bin/**', '**/obj/**']) assert.ok(loadDescriptor(solution).sources.exclude.includes(glob), glob);
    const listed = first.left_out.filter((item) => /C# build output/.test(item.reason));
    assert.deepEqual(listed.map((item) => item.path).sort(), ['src/App/bin', 'src/App/obj']);
    assert.match(listed[0]!.reason, /the project has src\/App\/App\.csproj/);
    const second = initProject(modules);
    assert.deepEqual(loadDescriptor(modules).adapter.code, ['java']);
    assert.ok(loadDescriptor(modules).sources.exclude.includes('**/target/**'));
    assert.deepEqual(second.left_out.filter((item) => /Java build output/.test(item.reason)).map((item) => item.path), ['core/target']);
    // A Makefile beside Markdown (Sphinx) marks C/C++ only where C or C++ code exists: build/ stays as the Python rules leave it.
    initProject(sphinx);
    assert.equal(loadDescriptor(sphinx).sources.exclude.includes('**/cmake-build-*/**'), false);
  } finally {
    removeTree(solution);
    removeTree(modules);
    removeTree(sphinx);
  }
});

test('a package whose code root is the project root: build/, dist/ and coverage/ are listed as left out with their reason, never excluded silently', () => {
  const root = tempTree({
    // Only a test imports build/ (fastify's layout): a build/ the runtime code imports is kept (init-build-code.test.ts).
    'index.js': 'module.exports = {}\n', 'test/validation.test.js': 'require("../build/validation.js")\n', 'build/validation.js': 'module.exports = {}\n', 'build/serializer.js': 'module.exports = {}\n',
    'coverage/lcov.info': 'TN:\n', 'docs/guide.md': '# Guide\n',
  });
  try {
    const result = initProject(root);
    assert.deepEqual(result.code_roots, ['.']);
    const build = result.left_out.find((item) => item.path === 'build');
    assert.match(build?.reason ?? '', /excluded as "build\/\*\*"\. It holds 2 code files: if they are sources, not generated, remove "build\/\*\*" from \[sources\]\.exclude\./);
    assert.match(result.left_out.find((item) => item.path === 'coverage')?.reason ?? '', /excluded as "coverage\/\*\*"\.$/);
    assert.equal(result.left_out.some((item) => item.path === 'dist'), false, 'an absent folder is not listed');
  } finally {
    removeTree(root);
  }
});

test('a top-level name docforge.toml cannot hold (a backslash) is left out with its reason, so the written descriptor validates', () => {
  const root = tempTree({ 'go.mod': 'module example.com/m\n', 'm.go': 'package m\n', 'back\\slash/x.go': 'package x\n', 'docs/a.md': '# A\n' });
  try {
    const result = initProject(root);
    assert.ok(!result.descriptor_text.includes('back'), result.descriptor_text);
    assert.match(result.left_out.find((item) => item.path === 'back\\slash')?.reason ?? '', /backslash/);
    assert.deepEqual(loadDescriptor(root).adapter.code, ['go'], 'the written descriptor loads');
  } finally {
    removeTree(root);
  }
});
