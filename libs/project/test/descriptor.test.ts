// Pins docforge.toml loading: defaults, accepted forms, and descriptor_invalid errors with file:line:key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DocforgeError } from '@docforge/core';
import { loadDescriptor, MAX_DESCRIPTOR_BYTES, MIN_MAX_OUTPUT_CHARS } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

function loadText(text: string, extra: Record<string, string> = {}): ReturnType<typeof loadDescriptor> {
  const root = tempTree({ 'docforge.toml': text, ...extra });
  try {
    return loadDescriptor(root);
  } finally {
    removeTree(root);
  }
}

function expectInvalid(text: string, line: number | null, key: string | null, pattern: RegExp, extra: Record<string, string> = {}): DocforgeError {
  let caught: unknown;
  try {
    loadText(text, extra);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof DocforgeError, `expected a DocforgeError, got ${String(caught)}`);
  assert.equal(caught.code, 'descriptor_invalid');
  assert.equal(caught.details['path'], 'docforge.toml');
  assert.equal(caught.details['line'], line);
  assert.equal(caught.details['key'], key);
  assert.match(caught.message, pattern);
  return caught;
}

const MINIMAL = 'schema_version = 1\n[project]\nid = "demo"\nname = "Demo"\n';

test('minimal descriptor gets every default', () => {
  const d = loadText(MINIMAL);
  assert.equal(d.schema_version, 1);
  assert.deepEqual(d.project, { id: 'demo', name: 'Demo' });
  assert.deepEqual(d.sources.content_roots, ['docs']);
  assert.deepEqual(d.sources.code_roots, []);
  assert.deepEqual(d.sources.exclude, ['**/node_modules/**', '**/.git/**', '.docforge/**']);
  assert.deepEqual(d.adapter, { code: [], strategy: 'ast', module: null, canonical_applier: null, c: { include_dirs: [] } });
  assert.deepEqual(d.vocabulary, { kinds: null, authorities: null, statuses: null, relations: null });
  assert.deepEqual(d.limits, { max_results: 200, max_output_chars: 60000 });
  assert.deepEqual(d.state, { dir: '.docforge' });
  assert.deepEqual(d.views, []);
  assert.ok(d.path.endsWith('/docforge.toml'));
});

test('full descriptor from DESIGN.md section 3 loads', () => {
  const text = `schema_version = 1
[project]
id = "acme-payments"
name = "Acme Payments"
[sources]
content_roots = ["docs", "./notes/"]
code_roots = ["src"]
exclude = ["**/node_modules/**"]
[adapter]
code = "typescript"
strategy = "lexical"
module = ".docforge/adapter.mjs"
canonical_applier = "generic"
[vocabulary]
kinds = ["requirement", "component", "decision", "document"]
relations = []
[limits]
max_results = 50
max_output_chars = 2000
[state]
dir = "var/state"
[[views]]
id = "architecture"
title = "Architecture"
renderer = "catalog"
select = { kinds = ["component"] }
output = "site/architecture.html"
`;
  const d = loadText(text);
  assert.deepEqual(d.sources.content_roots, ['docs', 'notes']);
  assert.deepEqual(d.sources.exclude, ['**/node_modules/**', 'var/state/**', '**/.git/**']);
  assert.deepEqual(d.adapter, { code: ['typescript'], strategy: 'lexical', module: '.docforge/adapter.mjs', canonical_applier: 'generic', c: { include_dirs: [] } });
  assert.deepEqual(d.vocabulary.kinds, ['requirement', 'component', 'decision', 'document']);
  assert.deepEqual(d.vocabulary.relations, []);
  assert.equal(d.vocabulary.statuses, null);
  // A configured 2000 stays valid and is raised to the floor, with a warning at its line (issue 30, item 8).
  assert.deepEqual(d.limits, { max_results: 50, max_output_chars: MIN_MAX_OUTPUT_CHARS });
  assert.deepEqual(d.warnings?.map((w) => [w.severity, w.code, w.path, w.line]), [['warning', 'max_output_chars_raised', 'docforge.toml', 19]]);
  assert.equal(d.state.dir, 'var/state');
  assert.deepEqual(d.views, [{ id: 'architecture', title: 'Architecture', renderer: 'catalog', select: { kinds: ['component'] }, output: 'site/architecture.html' }]);
});

test('[adapter].code accepts auto, none and arrays', () => {
  assert.deepEqual(loadText(`${MINIMAL}[adapter]\ncode = "auto"\n`).adapter.code, ['typescript', 'python', 'go', 'rust', 'java', 'csharp', 'ruby', 'php', 'cpp']);
  assert.deepEqual(loadText(`${MINIMAL}[adapter]\ncode = "none"\n`).adapter.code, []);
  assert.deepEqual(loadText(`${MINIMAL}[adapter]\ncode = ["python", "typescript"]\n`).adapter.code, ['python', 'typescript']);
  // Issue 30 (third trial 48): an adapter listed twice is refused at its line, no longer merged silently.
  expectInvalid(`${MINIMAL}[adapter]\ncode = ["python", "typescript", "python"]\n`, 6, 'adapter.code', /^docforge\.toml:6: \[adapter\]\.code names "python" twice/);
  assert.deepEqual(loadText(`${MINIMAL}[sources]\ncode_roots = ["lib"]\n`).adapter.code, ['typescript', 'python', 'go', 'rust', 'java', 'csharp', 'ruby', 'php', 'cpp']);
  expectInvalid(`${MINIMAL}[adapter]\ncode = "cobol"\n`, 6, 'adapter.code', /^docforge\.toml:6: \[adapter\]\.code names an unknown code adapter "cobol"/);
});

test('[adapter.c] include_dirs: project-relative folders of the C/C++ adapter, checked like the other paths', () => {
  assert.deepEqual(loadText(`${MINIMAL}[adapter]\ncode = "cpp"\n[adapter.c]\ninclude_dirs = ["include/", "./src/vendor"]\n`).adapter.c, { include_dirs: ['include', 'src/vendor'] });
  expectInvalid(`${MINIMAL}[adapter.c]\ninclude_dirs = ["../sys"]\n`, 6, 'adapter.c.include_dirs', /^docforge\.toml:6: \[adapter\]\.c\.include_dirs must not escape the project root/);
  assert.deepEqual(loadText(`${MINIMAL}[adapter]\ncode = "cpp"\n[adapter.c]\nheaders = "c"\n`).adapter.c, { include_dirs: [], headers: 'c' });
  expectInvalid(`${MINIMAL}[adapter.c]\nheaders = "h"\n`, 6, 'adapter.c.headers', /must be "c" or "cpp"/);
  expectInvalid(`${MINIMAL}[adapter.c]\ninclude = ["inc"]\n`, 6, 'adapter.c.include', /is not a known key \(expected one of: include_dirs, headers\)/);
});

test('TOML syntax error reports the line from the parser', () => {
  expectInvalid('schema_version = 1\n[project]\nid = "demo"\nname = "Demo\n', 4, null, /^docforge\.toml:4: TOML syntax error/);
});

test('max_results out of range names file, line and key', () => {
  const text = `${MINIMAL}\n[limits]\nmax_results = 0\n`;
  expectInvalid(text, 7, 'limits.max_results', /^docforge\.toml:7: \[limits\]\.max_results must be an integer from 1 to 10000, got 0$/);
  expectInvalid(`${MINIMAL}[limits]\nmax_results = 10001\n`, 6, 'limits.max_results', /from 1 to 10000/);
  expectInvalid(`${MINIMAL}[limits]\nmax_results = 2.5\n`, 6, 'limits.max_results', /integer/);
  expectInvalid(`${MINIMAL}[limits]\nmax_output_chars = 1999\n`, 6, 'limits.max_output_chars', /from 2000 to 10000000/);
});

test('max_output_chars below the floor is raised to it with a warning naming file and line; at the floor and above nothing is said', () => {
  assert.equal(MIN_MAX_OUTPUT_CHARS, 4000);
  for (const configured of [2000, 3999]) {
    const d = loadText(`${MINIMAL}[limits]\nmax_output_chars = ${configured}\n`);
    assert.equal(d.limits.max_output_chars, MIN_MAX_OUTPUT_CHARS);
    assert.equal(d.warnings?.length, 1);
    const warning = d.warnings![0]!;
    assert.deepEqual([warning.severity, warning.code, warning.path, warning.line, warning.node_id], ['warning', 'max_output_chars_raised', 'docforge.toml', 6, null]);
    assert.match(warning.message, new RegExp(`^docforge\\.toml:6: \\[limits\\]\\.max_output_chars = ${configured} is below the floor of 4000 characters.*; 4000 is used$`));
  }
  for (const configured of [4000, 60000]) {
    const d = loadText(`${MINIMAL}[limits]\nmax_output_chars = ${configured}\n`);
    assert.equal(d.limits.max_output_chars, configured);
    assert.equal(d.warnings, undefined);
  }
  assert.equal(loadText(MINIMAL).warnings, undefined);
});

test('unknown tables and keys are errors at their line', () => {
  expectInvalid(`${MINIMAL}[extras]\nfoo = 1\n`, 5, 'extras', /^docforge\.toml:5: extras is not a known top-level table or key/);
  expectInvalid(`${MINIMAL}[sources]\ncontent_root = ["docs"]\n`, 6, 'sources.content_root', /^docforge\.toml:6: \[sources\]\.content_root is not a known key/);
  expectInvalid(`${MINIMAL}[[views]]\nid = "a"\nrenderer = "page"\noutput = "a.html"\n[[views]]\nid = "b"\nrenderer = "chart"\noutput = "b.html"\n`, 11, 'views.1.renderer', /\[\[views\]\]\[1\]\.renderer must be one of/);
});

test('bad project id and missing schema version', () => {
  expectInvalid('schema_version = 1\n[project]\nid = "Bad Id"\n', 3, 'project.id', /^docforge\.toml:3: \[project\]\.id must be a string matching .*got "Bad Id"/);
  expectInvalid('schema_version = 2\n[project]\nid = "x"\n', 1, 'schema_version', /schema_version must be 1/);
  expectInvalid('[project]\nid = "x"\n', null, 'schema_version', /^docforge\.toml: schema_version is required/);
  expectInvalid('schema_version = 1\n', null, 'project', /\[project\] is required/);
});

test('roots must be relative and stay inside the root', () => {
  expectInvalid(`${MINIMAL}[sources]\ncontent_roots = ["../elsewhere"]\n`, 6, 'sources.content_roots', /must not escape the project root/);
  expectInvalid(`${MINIMAL}[sources]\ncode_roots = ["/etc"]\n`, 6, 'sources.code_roots', /must be a relative path/);
  expectInvalid(`${MINIMAL}[state]\ndir = "a/../../b"\n`, 6, 'state.dir', /must not escape/);
  expectInvalid(`${MINIMAL}[[views]]\nid = "v"\nrenderer = "page"\noutput = "../out.html"\n`, 8, 'views.0.output', /must not escape/);
});

test('a root that is a symlink leaving the project is rejected after realpath', () => {
  const outside = tempTree({ 'x.md': '# x\n' });
  const root = tempTree({ 'docforge.toml': `${MINIMAL}[sources]\ncontent_roots = ["linked"]\n` });
  try {
    symlinkSync(outside, join(root, 'linked'));
    assert.throws(() => loadDescriptor(root), (error: unknown) => error instanceof DocforgeError && error.code === 'descriptor_invalid' && /resolves outside the project root/.test(error.message) && error.details['line'] === 6);
  } finally {
    removeTree(root);
    removeTree(outside);
  }
});

test('missing docforge.toml is descriptor_invalid with a clear message', () => {
  const root = tempTree({});
  try {
    assert.throws(() => loadDescriptor(root), (error: unknown) => error instanceof DocforgeError && error.code === 'descriptor_invalid' && /no docforge\.toml in /.test(error.message) && /docforge init/.test(error.message));
  } finally {
    removeTree(root);
  }
  assert.throws(() => loadDescriptor('/nonexistent/docforge-root'), (error: unknown) => error instanceof DocforgeError && error.code === 'descriptor_invalid');
});

function expectFileRefused(root: string, pattern: RegExp): void {
  assert.throws(() => loadDescriptor(root), (error: unknown) => {
    assert.ok(error instanceof DocforgeError, String(error));
    assert.equal(error.code, 'descriptor_invalid');
    assert.deepEqual(error.details, { path: 'docforge.toml', line: null, key: null });
    assert.match(error.message, /^docforge\.toml: /);
    assert.match(error.message, pattern);
    return true;
  });
}

test('a docforge.toml that is a FIFO, device or directory is refused without being read', () => {
  const root = tempTree({});
  try {
    // A FIFO with no writer: any read (or blocking open) would hang this test forever.
    execFileSync('mkfifo', [join(root, 'docforge.toml')]);
    expectFileRefused(root, /docforge\.toml is not a regular file \(it is a FIFO\)/);
    removeTree(root);
    mkdirSync(root);
    mkdirSync(join(root, 'docforge.toml'));
    expectFileRefused(root, /is not a regular file \(it is a directory\)/);
    if (process.getuid?.() === 0) {
      removeTree(root);
      mkdirSync(root);
      // A character device with /dev/zero's numbers: reading it would never end.
      execFileSync('mknod', [join(root, 'docforge.toml'), 'c', '1', '5']);
      expectFileRefused(root, /is not a regular file \(it is a device\)/);
    }
  } finally {
    removeTree(root);
  }
});

test('a symlinked docforge.toml must resolve to a regular file inside the root', () => {
  const outside = tempTree({ 'docforge.toml': MINIMAL });
  const root = tempTree({ 'config/real.toml': MINIMAL });
  try {
    symlinkSync(join(root, 'config/real.toml'), join(root, 'docforge.toml'));
    assert.equal(loadDescriptor(root).project.id, 'demo');
    removeTree(join(root, 'docforge.toml'));
    symlinkSync(join(outside, 'docforge.toml'), join(root, 'docforge.toml'));
    expectFileRefused(root, /is not a regular file inside the project root \(symbolic link to /);
    removeTree(join(root, 'docforge.toml'));
    symlinkSync('/dev/zero', join(root, 'docforge.toml'));
    expectFileRefused(root, /is not a regular file inside the project root \(symbolic link to \/dev\/zero\)/);
    removeTree(join(root, 'docforge.toml'));
    execFileSync('mkfifo', [join(root, 'config/pipe')]);
    symlinkSync(join(root, 'config/pipe'), join(root, 'docforge.toml'));
    expectFileRefused(root, /is not a regular file \(it is a FIFO, via symbolic link to .*config\/pipe\)/);
    removeTree(join(root, 'docforge.toml'));
    symlinkSync(join(root, 'docforge.toml'), join(root, 'docforge.toml'));
    expectFileRefused(root, /is not a regular file \(symbolic link whose target cannot be resolved: ELOOP\)/);
  } finally {
    removeTree(root);
    removeTree(outside);
  }
});

test('a descriptor larger than 1 MiB is refused; exactly 1 MiB loads', () => {
  const root = tempTree({});
  try {
    const file = join(root, 'docforge.toml');
    writeFileSync(file, MINIMAL + '#'.repeat(MAX_DESCRIPTOR_BYTES - MINIMAL.length));
    assert.equal(loadDescriptor(root).project.id, 'demo');
    truncateSync(file, MAX_DESCRIPTOR_BYTES + 1);
    expectFileRefused(root, new RegExp(`is larger than ${MAX_DESCRIPTOR_BYTES} bytes \\(${MAX_DESCRIPTOR_BYTES + 1} bytes\\); not read`));
    truncateSync(file, 1024 ** 3);
    expectFileRefused(root, /is larger than 1048576 bytes \(1073741824 bytes\)/);
  } finally {
    removeTree(root);
  }
});

test('[state].dir must not overlap a content or code root in either direction', () => {
  expectInvalid(`${MINIMAL}[state]\ndir = "."\n`, 6, 'state.dir', /^docforge\.toml:6: \[state\]\.dir must not be the project root itself$/);
  expectInvalid(`${MINIMAL}[state]\ndir = "./"\n`, 6, 'state.dir', /must not be the project root itself/);
  // Version-control metadata is no state dir (break-it trial: `.git` was accepted, and a sync wrote .git/locks).
  expectInvalid(`${MINIMAL}[state]\ndir = ".git"\n`, 6, 'state.dir', /"\.git" lies in "\.git", version-control metadata/);
  expectInvalid(`${MINIMAL}[state]\ndir = "tools/.hg/state"\n`, 6, 'state.dir', /lies in "\.hg"/);
  expectInvalid(`${MINIMAL}[state]\ndir = "docs"\n`, 6, 'state.dir', /^docforge\.toml:6: \[state\]\.dir "docs" is the same directory as the content root "docs"; DocForge deletes files/);
  expectInvalid(`${MINIMAL}[state]\ndir = "docs/.state"\n`, 6, 'state.dir', /"docs\/\.state" lies inside the content root "docs"/);
  expectInvalid(`${MINIMAL}[sources]\ncontent_roots = ["var/docs"]\n[state]\ndir = "var"\n`, 8, 'state.dir', /"var" contains the content root "var\/docs"/);
  expectInvalid(`${MINIMAL}[sources]\ncode_roots = ["src"]\n[state]\ndir = "src/.cache"\n`, 8, 'state.dir', /lies inside the code root "src"/);
  expectInvalid(`${MINIMAL}[sources]\ncode_roots = ["lib/a"]\n[state]\ndir = "lib"\n`, 8, 'state.dir', /"lib" contains the code root "lib\/a"/);
  // Default state dir (.docforge) not declared: the key is still state.dir, the line is the root list's.
  expectInvalid(`${MINIMAL}[sources]\ncontent_roots = [".docforge/docs"]\n`, 6, 'state.dir', /"\.docforge" contains the content root "\.docforge\/docs"/);
  // The project root as a content root is the one allowed container: the walk always skips the state dir.
  assert.equal(loadText(`${MINIMAL}[sources]\ncontent_roots = ["."]\ncode_roots = ["."]\n[state]\ndir = "state"\n`).state.dir, 'state');
  assert.equal(loadText(`${MINIMAL}[sources]\ncontent_roots = ["docs"]\n[state]\ndir = "docs-state"\n`).state.dir, 'docs-state');
});

test('[state].dir overlap is also checked after resolving symbolic links', () => {
  const root = tempTree({ 'docforge.toml': `${MINIMAL}[state]\ndir = "st"\n`, 'docs/a.md': '# A\n' });
  try {
    symlinkSync(join(root, 'docs'), join(root, 'st'));
    assert.throws(() => loadDescriptor(root), (error: unknown) => error instanceof DocforgeError && error.code === 'descriptor_invalid'
      && error.details['key'] === 'state.dir' && error.details['line'] === 6 && /after resolving symbolic links: "docs" vs "docs"/.test(error.message));
  } finally {
    removeTree(root);
  }
});

test('[proposals.writers.ID] narrows a writer; unknown operations and keys are refused with their line', () => {
  const d = loadText(`${MINIMAL}[proposals.writers.agent]\noperations = ["node_update", "relationship_update"]\npaths = ["docs/requirements/**"]\n[proposals.writers.bot]\n`);
  assert.deepEqual(d.proposals.writers, { agent: { operations: ['node_update', 'relationship_update'], paths: ['docs/requirements/**'] }, bot: { operations: null, paths: null } });
  assert.deepEqual(loadText(MINIMAL).proposals, { writers: {}, appliers: {} });
  // Issue 11: [proposals.appliers.ID] names whose changesets an applier may apply.
  assert.deepEqual(loadText(`${MINIMAL}[proposals.appliers.owner]\nwriters = ["agent"]\n`).proposals.appliers, { owner: { writers: ['agent'] } });
  expectInvalid(`${MINIMAL}[proposals.appliers.owner]\nwidens = true\n`, 6, 'proposals.appliers.owner.widens', /not a known key/);
  expectInvalid(`${MINIMAL}[adapter]\ncanonical_applier = "custom"\n`, 6, 'adapter.canonical_applier', /must be "generic"/);
  expectInvalid(`${MINIMAL}[proposals.writers.agent]\noperations = ["node_rename"]\n`, 6, 'proposals.writers.agent.operations', /unknown operation "node_rename"/);
  expectInvalid(`${MINIMAL}[proposals.writers.agent]\nwiden = true\n`, 6, 'proposals.writers.agent.widen', /not a known key/);
  expectInvalid(`${MINIMAL}[proposals.writers.agent]\npaths = ["../outside/**"]\n`, 6, 'proposals.writers.agent.paths', /project-relative/);
});

test('a TOML float where an integer is meant is refused naming the key and the integer expected, even with an integral value (issue 30)', () => {
  const hint = /got a TOML float: write the integer without a decimal point or exponent/;
  for (const version of ['1.0', '1e0', '+1.0', '1.5', 'nan', 'inf']) {
    const error = expectInvalid(`schema_version = ${version}\n[project]\nid = "x"\n`, 1, 'schema_version', /^docforge\.toml:1: schema_version must be 1 \(/);
    assert.match(error.message, hint, version);
  }
  for (const [key, value, line] of [['max_results', '50.0', 6], ['max_results', '5e1', 6], ['max_output_chars', '3000.0', 6], ['max_output_chars', '3e3', 6], ['max_results', '2.5', 6]] as const) {
    const error = expectInvalid(`${MINIMAL}[limits]\n${key} = ${value}\n`, line, `limits.${key}`, /must be an integer from \d+ to \d+ \(got a TOML float/);
    assert.match(error.message, hint, `${key} = ${value}`);
  }
  // Integers, including the same values, still load.
  assert.deepEqual(loadText(`${MINIMAL}[limits]\nmax_results = 50\nmax_output_chars = 5_000\n`).limits, { max_results: 50, max_output_chars: 5000 });
  assert.equal(loadText(`schema_version = +1\n[project]\nid = "x"\n`).schema_version, 1);
});
