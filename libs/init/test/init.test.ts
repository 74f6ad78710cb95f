// Pins docforge init: root detection on real projects (copies of fastify and pino; top-level Markdown as file roots), atomic write, refusal to overwrite, and a loadable result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocforgeError } from '@docforge/core';
import { loadDescriptor, parseContentSource, resolveGraph, walkSources } from '@docforge/project';
import { initProject, renderDescriptor } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const FASTIFY = fileURLToPath(new URL('../../../../node_modules/fastify', import.meta.url));
const PINO = fileURLToPath(new URL('../../../../node_modules/pino', import.meta.url));

test('init on a copy of fastify picks docs/ and, for its root-level fastify.js, the root as code root, then loads and walks', () => {
  const parent = tempTree({});
  const root = join(parent, 'Fastify Copy');
  try {
    cpSync(FASTIFY, root, { recursive: true });
    const result = initProject(root);
    assert.equal(result.path, join(root, 'docforge.toml'));
    // docs/, then each top-level Markdown file as its own file root (issue 30 item 11): the main README is indexed.
    assert.deepEqual(result.content_roots, ['docs', 'GOVERNANCE.md', 'PROJECT_CHARTER.md', 'README.md', 'SECURITY.md', 'SPONSORS.md']);
    assert.deepEqual(result.left_out.map((item) => item.path), ['test', 'build'], 'test/ holds Markdown but is left out, with a reason; so is build/, by the root code excludes');
    assert.match(result.left_out[1]!.reason, /excluded as "build\/\*\*"\. It holds 3 code files/);
    assert.match(result.left_out[0]!.reason, /holds 1 Markdown file, but docs is the documentation folder; add "test" to content_roots/);
    // fastify.js (the package entry point) sits at the root: only `.` covers it (issue 9 item 5).
    assert.deepEqual(result.code_roots, ['.']);
    assert.match(result.descriptor_text, /exclude = \["\*\*\/node_modules\/\*\*", "\*\*\/\.git\/\*\*", "dist\/\*\*", "build\/\*\*", "coverage\/\*\*", "\.nyc_output\/\*\*"\]/);
    assert.ok(result.markdown_files > 30);
    assert.equal(readFileSync(result.path, 'utf8'), result.descriptor_text);
    assert.deepEqual(readdirSync(root).filter((name) => name.includes('.tmp')), [], 'no temp file left behind');

    const desc = loadDescriptor(root);
    assert.equal(desc.project.id, 'fastify-copy');
    assert.equal(desc.project.name, 'Fastify Copy');
    assert.deepEqual(desc.adapter.code, ['typescript']);
    const walk = walkSources(desc, ['.js', '.ts']);
    const content = walk.entries.filter((entry) => entry.role === 'content');
    assert.equal(content.length, result.markdown_files);
    assert.ok(walk.entries.some((entry) => entry.path === 'lib/hooks.js' && entry.role === 'code'));
    assert.ok(walk.entries.some((entry) => entry.path === 'fastify.js' && entry.role === 'code'));
    assert.ok(!walk.entries.some((entry) => entry.path.startsWith('node_modules/')));

    const sources = content.map((entry) => {
      const parsed = parseContentSource({ path: entry.path, text: readFileSync(join(root, entry.path), 'utf8'), descriptor: desc });
      return { path: entry.path, ...parsed };
    });
    const graph = resolveGraph({ descriptor: desc, sources, codePaths: new Set(walk.entries.filter((entry) => entry.role === 'code').map((entry) => entry.path)) });
    assert.equal(graph.nodes.length, content.length);
    assert.ok(graph.nodes.some((node) => node.id === 'Reference/Hooks' && node.title === 'Hooks'));
    assert.ok(graph.nodes.some((node) => node.id === 'README' && node.source_path === 'README.md'), 'the main README is a node');
    assert.ok(graph.edges.filter((edge) => edge.relation === 'relates_to').length > 50);
    assert.ok(graph.issues.every((item) => item.severity === 'warning'));

    assert.throws(() => initProject(root), (error: unknown) => error instanceof DocforgeError && error.code === 'invalid_arguments' && /already exists/.test(error.message));
  } finally {
    removeTree(parent);
  }
});

test('init falls back to top-level Markdown directories, then to the root', () => {
  const withDirs = tempTree({ 'guides/a.md': '# A\n', 'notes/deep/b.md': '# B\n', 'src/main.py': 'print(1)\n', 'README.md': '# R\n' });
  const flat = tempTree({ 'README.md': '# R\n', 'index.js': 'module.exports = 1;\n' });
  try {
    const first = initProject(withDirs, { id: 'custom.id' });
    assert.deepEqual(first.content_roots, ['guides', 'notes', 'README.md']);
    assert.deepEqual(first.code_roots, ['src']);
    assert.equal(first.markdown_files, 3);
    assert.deepEqual(loadDescriptor(withDirs).adapter.code, ['python']);
    assert.equal(loadDescriptor(withDirs).project.id, 'custom.id');
    const second = initProject(flat);
    // Never `.` as a content root (every top-level *.toml would become a record file): the file itself.
    assert.deepEqual(second.content_roots, ['README.md']);
    assert.deepEqual(second.code_roots, ['.']);
    assert.equal(second.markdown_files, 1);
  } finally {
    removeTree(withDirs);
    removeTree(flat);
  }
});

test('init on a copy of pino: its README and other top-level Markdown are file roots; what it leaves out is listed with the reason', () => {
  const parent = tempTree({});
  const root = join(parent, 'pino');
  try {
    cpSync(PINO, root, { recursive: true });
    // What real repositories also hold: a tool's TOML, a hidden folder of Markdown, a README twin.
    writeFileSync(join(root, 'taplo.toml'), '[formatting]\nalign_entries = true\n');
    mkdirSync(join(root, '.github'));
    writeFileSync(join(root, '.github', 'PULL_REQUEST_TEMPLATE.md'), '# Checklist\n');
    writeFileSync(join(root, 'CHANGELOG.md'), '# Changelog\n');
    writeFileSync(join(root, 'docs', 'CHANGELOG.md'), '# Older changes\n');
    const result = initProject(root);
    assert.deepEqual(result.content_roots, ['docs', 'CONTRIBUTING.md', 'README.md', 'SECURITY.md']);
    assert.ok(!result.content_roots.includes('.'));
    assert.deepEqual(result.code_roots, ['.']);
    const reasons = new Map(result.left_out.map((item) => [item.path, item.reason]));
    assert.match(reasons.get('CHANGELOG.md') ?? '', /document id "CHANGELOG" would be the id of docs\/CHANGELOG\.md too/);
    assert.match(reasons.get('taplo.toml') ?? '', /top-level TOML is configuration/);
    assert.match(reasons.get('.github') ?? '', /hidden folder/);
    const desc = loadDescriptor(root);
    const walk = walkSources(desc, ['.js', '.ts']);
    const content = walk.entries.filter((entry) => entry.role === 'content').map((entry) => entry.path);
    assert.ok(content.includes('README.md') && content.includes('docs/api.md'));
    assert.ok(!content.includes('taplo.toml') && !content.includes('package.json'));
    assert.equal(content.length, result.markdown_files);
    assert.deepEqual(walk.issues.filter((item) => item.severity === 'error'), []);
  } finally {
    removeTree(parent);
  }
});

test('init rejects a bad id and a missing directory', () => {
  const root = tempTree({});
  try {
    mkdirSync(join(root, 'docs'));
    assert.throws(() => initProject(root, { id: 'Bad Id' }), (error: unknown) => error instanceof DocforgeError && error.code === 'descriptor_invalid' && error.details['key'] === 'project.id');
    assert.throws(() => initProject(join(root, 'absent')), (error: unknown) => error instanceof DocforgeError && error.code === 'invalid_arguments');
  } finally {
    removeTree(root);
  }
});

/** The descriptor a text loads to (written to a temporary project, then removed). */
function loadText(text: string): ReturnType<typeof loadDescriptor> {
  const root = tempTree({ 'docforge.toml': text });
  try {
    return loadDescriptor(root);
  } finally {
    removeTree(root);
  }
}

test('renderDescriptor output loads back with the same values', () => {
  const text = renderDescriptor({ id: 'my-proj', name: 'My "Proj"', content_roots: ['docs'], code_roots: ['lib', 'src'], code: ['typescript'] });
  const d = loadText(text);
  assert.deepEqual(d.project, { id: 'my-proj', name: 'My "Proj"' });
  assert.deepEqual(d.sources.content_roots, ['docs']);
  assert.deepEqual(d.sources.code_roots, ['lib', 'src']);
  assert.deepEqual(d.adapter.code, ['typescript']);
  const none = loadText(renderDescriptor({ id: 'p', name: 'P', content_roots: ['.'], code_roots: [], code: [] }));
  assert.deepEqual(none.adapter.code, []);
  assert.deepEqual(none.sources.content_roots, ['.']);
});

test('a top-level folder init cannot read is listed as left out with its error, never skipped without a word', () => {
  const root = tempTree({ 'docs/guide.md': '# Guide\n', 'private/notes.md': '# Notes\n', 'src/a.ts': 'export const a = 1;\n' });
  try {
    chmodSync(join(root, 'private'), 0o000);
    let result: { content_roots: string[]; left_out: { path: string; reason: string }[] };
    if (process.getuid?.() === 0) {
      // root reads every folder: run init as an unprivileged user, over a project that user may write.
      chmodSync(root, 0o777);
      const entry = new URL('../src/index.js', import.meta.url).href;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', `const { initProject } = await import(${JSON.stringify(entry)}); process.stdout.write(JSON.stringify(initProject(${JSON.stringify(root)})));`], { encoding: 'utf8', uid: 65534, gid: 65534 });
      assert.equal(run.status, 0, run.stderr);
      result = JSON.parse(run.stdout) as typeof result;
    } else result = initProject(root);
    assert.deepEqual(result.content_roots, ['docs']);
    const item = result.left_out.find((entry) => entry.path === 'private');
    assert.ok(item !== undefined, JSON.stringify(result.left_out));
    assert.match(item.reason, /could not be read \(EACCES\)/);
  } finally {
    chmodSync(join(root, 'private'), 0o755);
    removeTree(root);
  }
});
