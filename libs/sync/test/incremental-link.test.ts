// Pins issue 14 item 4: a build re-links only what a change can affect, and after edits, additions, deletions and renamed exports the graph equals a full build's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { loadTypeScriptAdapter } from '@docforge/adapter-typescript';
import { IndexManager } from '../src/index.js';
import { fullBuildOf } from './full-build.js';

const { linkTypeScriptFiles } = await loadTypeScriptAdapter();

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples');

interface Snapshot { nodes: string[]; edges: string[]; issues: string[]; unresolved: string[] }

function snapshot(root: string, file: string): Snapshot {
  const db = new Database(path.join(root, '.docforge', 'index', file), { readonly: true });
  try {
    const rows = (sql: string): string[] => (db.prepare(sql).all() as Record<string, unknown>[]).map((r) => Object.values(r).join(' '));
    return {
      nodes: rows('SELECT id, content_hash, capabilities FROM nodes ORDER BY id'),
      edges: rows('SELECT source_id, relation, target_id, source_path, line, mention FROM edges ORDER BY 1, 2, 3'),
      // drift_unreviewed_change and drift_unresolved_mention (issue 32) depend on the disposable review baseline of the state dir, not on the sources: left out of this build-equivalence comparison.
      issues: rows('SELECT code, path, line, message FROM issues WHERE code NOT IN (\'drift_unreviewed_change\', \'drift_unresolved_mention\') ORDER BY seq'),
      unresolved: rows('SELECT node_id, count FROM unresolved_calls ORDER BY node_id'),
    };
  } finally {
    db.close();
  }
}

/**
 * Runs each edit in one long-lived manager (incremental builds) and compares every publication with
 * a full build; an edit's optional third element checks the incremental snapshot itself.
 */
async function checkEdits(root: string, edits: readonly (readonly [string, () => void, ((s: Snapshot) => void)?])[]): Promise<void> {
  const manager = new IndexManager({ root, noAst: false });
  try {
    await manager.sync();
    for (const [label, edit, check] of edits) {
      edit();
      const outcome = await manager.sync();
      assert.equal(outcome.stats!.mode, 'delta', `${label}: an incremental build`);
      const incremental = snapshot(root, outcome.publication.index_file);
      const expected = await fullBuildOf(root, snapshot);
      assert.ok(expected.edges.length > 0);
      for (const key of ['nodes', 'edges', 'issues', 'unresolved'] as const) assert.deepEqual(incremental[key], expected[key], `${label}: ${key}`);
      check?.(incremental);
    }
  } finally {
    await manager.close();
  }
}

test('examples/: edits, additions, deletions and a renamed export give the graph of a full build', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-relink-'));
  cpSync(examples, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}.docforge`) });
  const at = (rel: string): string => path.join(root, rel);
  try {
    await checkEdits(root, [
      ['edit a leaf module', () => appendFileSync(at('src/shared/retry.ts'), '\nexport function jitter(ms: number): number {\n  return ms + 1;\n}\n')],
      ['rename an export', () => writeFileSync(at('src/shared/errors.ts'), readFileSync(at('src/shared/errors.ts'), 'utf8').replaceAll('ValidationError', 'InputError'))],
      ['rename it back', () => writeFileSync(at('src/shared/errors.ts'), readFileSync(at('src/shared/errors.ts'), 'utf8').replaceAll('InputError', 'ValidationError'))],
      ['add a module importing others', () => writeFileSync(at('src/ledger/audit.ts'), "import { Ledger } from './ledger';\nexport function audit(l: Ledger): void {\n  l.toString();\n}\n")],
      ['delete an imported module', () => rmSync(at('src/fraud/scorer.ts'))],
      ['edit a document', () => appendFileSync(at('docs/guides/glossary.md'), '\nSee [the ledger](../../src/ledger/ledger.ts).\n')],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('TypeScript re-exports: a renamed export reached through `export *` and a re-export updates its importers', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-relink-ts-'));
  const write = (rel: string, text: string): void => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  try {
    write('docforge.toml', 'schema_version = 1\n[project]\nid = "relink"\nname = "Relink"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\nstrategy = "ast"\n');
    write('docs/readme.md', '# Readme\n\nSee [core](../src/core.ts).\n');
    write('src/core.ts', 'export function compute(n: number): number {\n  return n * 2;\n}\nexport class Base {\n  run(): number {\n    return 1;\n  }\n}\n');
    write('src/barrel.ts', "export * from './core';\nexport { compute as calc } from './core';\n");
    write('src/use.ts', "import { compute, calc, Base } from './barrel';\nexport class Child extends Base {\n  go(): number {\n    return compute(1) + calc(2) + super.run();\n  }\n}\n");
    write('src/other.ts', 'export function alone(): number {\n  return 3;\n}\n');
    write('src/use.test.ts', "import { Child } from './use';\nexport function t(): number {\n  return new Child().go();\n}\n");
    const at = (rel: string): string => path.join(root, rel);
    await checkEdits(root, [
      ['rename the export behind `export *`', () => writeFileSync(at('src/core.ts'), readFileSync(at('src/core.ts'), 'utf8').replace('compute', 'compute2'))],
      ['rename the base class', () => writeFileSync(at('src/core.ts'), readFileSync(at('src/core.ts'), 'utf8').replace('class Base', 'class Base2'))],
      ['restore both', () => writeFileSync(at('src/core.ts'), readFileSync(at('src/core.ts'), 'utf8').replace('compute2', 'compute').replace('class Base2', 'class Base'))],
      ['add a file the barrel re-exports', () => {
        write('src/extra.ts', 'export function more(): number {\n  return 4;\n}\n');
        appendFileSync(at('src/barrel.ts'), "export * from './extra';\n");
      }],
      ['delete the barrel', () => rmSync(at('src/barrel.ts'))],
      ['edit an unrelated file', () => appendFileSync(at('src/other.ts'), 'export const x = 1;\n')],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('declaration files: adding or removing shapes.d.ts / shapes.ts / shapes.js re-resolves ./shapes.js in importers, as a full build does', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-relink-dts-'));
  const write = (rel: string, text: string): void => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  const at = (rel: string): string => path.join(root, rel);
  const DTS = 'export interface Money { amount: number }\nexport declare function makeMoney(n: number): Money;\n';
  const TS = 'export interface Money { amount: number }\nexport function makeMoney(n: number): Money {\n  return { amount: n };\n}\n';
  const JS = 'function makeMoney (n) { return { amount: n } }\nmodule.exports = { makeMoney }\n';
  /** Where each importer's specifier leads in a snapshot: the module its imports edge names, 'unresolved' (a warning) or 'none'. */
  const targets = (s: Snapshot): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const from of ['src/zero.ts', 'src/runtime.js', 'src/lib-user.ts']) {
      const edge = s.edges.find((e) => e.startsWith(`code:${from} imports `));
      const warned = s.issues.some((i) => i.startsWith(`unresolved_import ${from} `));
      out[from] = edge !== undefined ? edge.split(' ')[2]!.slice('code:'.length) : warned ? 'unresolved' : 'none';
    }
    return out;
  };
  const expectTargets = (shapes: string, runtime: string, lib: string) => (s: Snapshot): void => {
    assert.deepEqual(targets(s), { 'src/zero.ts': shapes, 'src/runtime.js': runtime, 'src/lib-user.ts': lib });
    // use.ts reaches makeMoney only through the barrel's `export * from './shapes.js'`
    const call = s.edges.find((e) => e.startsWith('code:src/use.ts#useIt calls '))?.split(' ')[2];
    assert.equal(call, shapes === 'unresolved' ? undefined : `code:${shapes}#makeMoney`);
  };
  try {
    write('docforge.toml', 'schema_version = 1\n[project]\nid = "dts"\nname = "Dts"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\nstrategy = "ast"\n');
    write('docs/readme.md', '# Readme\n\nSee [zero](../src/zero.ts).\n');
    write('src/zero.ts', "import type { Money } from './shapes.js';\nimport { makeMoney } from './shapes.js';\nexport function zero(): Money {\n  return makeMoney(0);\n}\n");
    write('src/barrel.ts', "export * from './shapes.js';\n");
    write('src/use.ts', "import { makeMoney } from './barrel.js';\nexport function useIt(): number {\n  return makeMoney(1).amount;\n}\n");
    write('src/runtime.js', "const { makeMoney } = require('./shapes.js')\nfunction run () { return makeMoney(2) }\nmodule.exports = { run }\n");
    write('src/lib-user.ts', "import { helper } from './lib';\nexport const h = helper;\n");
    write('src/lib/keep.ts', 'export const keep = 1;\n');
    write('src/other.ts', 'export function alone(): number {\n  return 3;\n}\n');
    await checkEdits(root, [
      ['add shapes.d.ts', () => write('src/shapes.d.ts', DTS), expectTargets('src/shapes.d.ts', 'src/shapes.d.ts', 'unresolved')],
      ['add shapes.ts beside it (TypeScript prefers the source)', () => write('src/shapes.ts', TS), expectTargets('src/shapes.ts', 'src/shapes.ts', 'unresolved')],
      ['remove shapes.ts', () => rmSync(at('src/shapes.ts')), expectTargets('src/shapes.d.ts', 'src/shapes.d.ts', 'unresolved')],
      ['add shapes.js (JavaScript importers take it, TypeScript keeps the declaration)', () => write('src/shapes.js', JS), expectTargets('src/shapes.d.ts', 'src/shapes.js', 'unresolved')],
      ['add lib/index.d.ts', () => write('src/lib/index.d.ts', 'export declare function helper(): void;\n'), expectTargets('src/shapes.d.ts', 'src/shapes.js', 'src/lib/index.d.ts')],
      ['remove shapes.d.ts', () => rmSync(at('src/shapes.d.ts')), expectTargets('src/shapes.js', 'src/shapes.js', 'src/lib/index.d.ts')],
      ['remove shapes.js and lib/index.d.ts', () => {
        rmSync(at('src/shapes.js'));
        rmSync(at('src/lib/index.d.ts'));
      }, expectTargets('unresolved', 'unresolved', 'unresolved')],
      ['edit an unrelated file', () => appendFileSync(at('src/other.ts'), 'export const x = 1;\n')],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('linkFiles: an added or removed declaration file re-links exactly the files whose specifiers reach it', () => {
  const texts: Record<string, string> = {
    'src/shapes.d.ts': 'export declare function makeMoney(n: number): number;\n',
    'src/zero.ts': "import { makeMoney } from './shapes.js';\nexport function zero(): number {\n  return makeMoney(0);\n}\n",
    'src/barrel.ts': "export * from './shapes.js';\n",
    'src/use.ts': "import { makeMoney } from './barrel.js';\nexport function u(): number {\n  return makeMoney(1);\n}\n",
    'src/other.ts': 'export function alone(): number {\n  return 3;\n}\n',
  };
  return import('@docforge/adapter-typescript').then((adapter) => adapter.loadTypeScriptAdapter()).then(({ extractTypeScript }) => {
    const inputsOf = (paths: string[]) => paths.map((p) => ({ path: p, ...extractTypeScript({ path: p, content: texts[p]!, strategy: 'ast', logic: false }) }));
    const resolverOf = (paths: string[]) => ({ hasFile: (p: string) => paths.includes(p), readText: () => null });
    const without = Object.keys(texts).filter((p) => p !== 'src/shapes.d.ts').sort();
    const withDts = Object.keys(texts).sort();
    const before = linkTypeScriptFiles(inputsOf(without), resolverOf(without), null);
    assert.ok(before.files.get('src/zero.ts')!.issues.some((i) => i.code === 'unresolved_import'));
    const added = linkTypeScriptFiles(inputsOf(withDts), resolverOf(withDts), { changed: new Set(['src/shapes.d.ts']), previous: before.files, pathsChanged: true });
    assert.deepEqual([...added.files.keys()], ['src/barrel.ts', 'src/shapes.d.ts', 'src/use.ts', 'src/zero.ts'], 'other.ts reaches no shapes file');
    const full = linkTypeScriptFiles(inputsOf(withDts), resolverOf(withDts), null);
    for (const [p, output] of added.files) assert.deepEqual(output, full.files.get(p), p);
    assert.deepEqual(full.files.get('src/zero.ts')!.issues, []);
    assert.ok(full.files.get('src/use.ts')!.edges.some((e) => e.relation === 'calls' && e.target_id === 'code:src/shapes.d.ts#makeMoney'));
    const removed = linkTypeScriptFiles(inputsOf(without), resolverOf(without), { changed: new Set(), previous: full.files, pathsChanged: true });
    assert.deepEqual([...removed.files.keys()], ['src/barrel.ts', 'src/use.ts', 'src/zero.ts']);
    for (const [p, output] of removed.files) assert.deepEqual(output, before.files.get(p), p);
  });
});

test('linkFiles re-links the changed file and its importers through re-exports, not the rest', () => {
  const files = [
    { path: 'src/a.ts', text: 'export function f(): number {\n  return 1;\n}\n' },
    { path: 'src/b.ts', text: "export * from './a';\n" },
    { path: 'src/c.ts', text: "import { f } from './b';\nexport function g(): number {\n  return f();\n}\n" },
    { path: 'src/d.ts', text: 'export function h(): number {\n  return 2;\n}\n' },
  ];
  return import('@docforge/adapter-typescript').then((adapter) => adapter.loadTypeScriptAdapter()).then(({ extractTypeScript }) => {
    const inputs = files.map((f) => ({ path: f.path, ...extractTypeScript({ path: f.path, content: f.text, strategy: 'ast', logic: false }) }));
    const resolver = { hasFile: (p: string) => files.some((f) => f.path === p), readText: () => null };
    const full = linkTypeScriptFiles(inputs, resolver, null);
    assert.deepEqual([...full.files.keys()], ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts']);
    assert.equal(full.reusable, true);
    assert.ok(full.files.get('src/c.ts')!.edges.some((e) => e.relation === 'calls' && e.target_id.endsWith('#f')));
    const partial = linkTypeScriptFiles(inputs, resolver, { changed: new Set(['src/a.ts']), previous: full.files, pathsChanged: false });
    assert.deepEqual([...partial.files.keys()], ['src/a.ts', 'src/b.ts', 'src/c.ts'], 'd.ts does not reach a.ts');
    const leaf = linkTypeScriptFiles(inputs, resolver, { changed: new Set(['src/d.ts']), previous: full.files, pathsChanged: false });
    assert.deepEqual([...leaf.files.keys()], ['src/d.ts']);
  });
});

test('linkFiles with the previous link data: a change importers cannot see re-links only the changed file', () => {
  const files = [
    { path: 'src/a.ts', text: 'export function f(): number {\n  return 1;\n}\nfunction g(): number {\n  return 2;\n}\n' },
    { path: 'src/b.ts', text: "export * from './a';\n" },
    { path: 'src/c.ts', text: "import { f } from './b';\nexport function k(): number {\n  return f();\n}\n" },
  ];
  return import('@docforge/adapter-typescript').then((adapter) => adapter.loadTypeScriptAdapter()).then(({ extractTypeScript }) => {
    const extract = (p: string, text: string) => ({ path: p, ...extractTypeScript({ path: p, content: text, strategy: 'ast', logic: false }) });
    const inputs = files.map((f) => extract(f.path, f.text));
    const resolver = { hasFile: (p: string) => files.some((f) => f.path === p), readText: () => null };
    const full = linkTypeScriptFiles(inputs, resolver, null);
    const previousLinkData = new Map(inputs.map((i) => [i.path, i.link_data]));
    const relink = (text: string): string[] => {
      const edited = [extract('src/a.ts', text), ...inputs.slice(1)];
      const partial = linkTypeScriptFiles(edited, resolver, { changed: new Set(['src/a.ts']), previous: full.files, pathsChanged: false, previousLinkData });
      const expected = linkTypeScriptFiles(edited, resolver, null);
      for (const [p, output] of partial.files) assert.deepEqual(output, expected.files.get(p), p);
      return [...partial.files.keys()];
    };
    assert.deepEqual(relink(`${files[0]!.text}// a comment\n`), ['src/a.ts'], 'a comment');
    assert.deepEqual(relink(files[0]!.text.replace('return 1;', 'return g();')), ['src/a.ts'], 'a new call in a body');
    assert.deepEqual(relink(files[0]!.text.replace('function f', 'function f2')), ['src/a.ts', 'src/b.ts', 'src/c.ts'], 'a renamed export');
    assert.deepEqual(relink(files[0]!.text.replace('function g', 'export function g')), ['src/a.ts', 'src/b.ts', 'src/c.ts'], 'a new export');
    assert.deepEqual(relink(`\n${files[0]!.text}`), ['src/a.ts', 'src/b.ts', 'src/c.ts'], 'moved declarations (lines)');
  });
});

test('fastify: comments, call edits, renamed functions, new methods and CommonJS assignments give the graph of a full build', async () => {
  const fastify = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../node_modules/fastify');
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-relink-fastify-'));
  for (const part of ['lib', 'fastify.js', 'package.json']) cpSync(path.join(fastify, part), path.join(root, part), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "fastify"\nname = "Fastify"\n[sources]\ncode_roots = ["."]\nexclude = ["**/node_modules/**"]\n[adapter]\ncode = "typescript"\nstrategy = "ast"\n');
  const at = (rel: string): string => path.join(root, rel);
  const replace = (rel: string, from: string, to: string): void => {
    const text = readFileSync(at(rel), 'utf8');
    assert.ok(text.includes(from), `${rel} holds ${from}`);
    writeFileSync(at(rel), text.replaceAll(from, to));
  };
  try {
    await checkEdits(root, [
      ['append a comment to lib/route.js', () => appendFileSync(at('lib/route.js'), '// an edit\n')],
      ['add a call in a body (same lines)', () => replace('lib/route.js', 'function noop () { }', 'function noop () { removeTrackedSocket() }')],
      ['rename an exported function', () => replace('lib/route.js', 'validateBodyLimitOption', 'checkBodyLimitOption')],
      ['rename it in the importer too', () => replace('fastify.js', 'validateBodyLimitOption', 'checkBodyLimitOption')],
      ['add a prototype method', () => appendFileSync(at('lib/reply.js'), 'Reply.prototype.extraSend = function (payload) {\n  return this.send(payload)\n}\n')],
      ['change a CommonJS assignment', () => replace('lib/reply.js', 'module.exports.buildReply = buildReply', 'module.exports.buildReply = setupResponseListeners')],
      ['restore it', () => replace('lib/reply.js', 'module.exports.buildReply = setupResponseListeners', 'module.exports.buildReply = buildReply')],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
