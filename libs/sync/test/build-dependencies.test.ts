// Pins that the cheap source identity covers what a build reads or probes outside the walked sources (a tsconfig.json between
// the root and a code root, `extends` targets of any name, inside node_modules too, and extensionless link targets): after each
// such change the no-change fast path, a fresh manager (the CLI) and a watching manager (the server) all rebuild, and every
// publication equals a build from scratch; the watcher still stands for the walk afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadDescriptor, sourcePathClassifier, walkSources } from '@docforge/project';
import { IndexManager, type SyncReport } from '../src/index.js';
import { noChangeSync } from '../src/index.js';
import { partialWalk } from '../src/index.js';
import { DependencyRecorder, dependencyIdentities, dependencyWatch } from '@docforge/identity';
import { fullBuildOf } from './full-build.js';

interface Graph { edges: string[]; issues: string[]; dependencies: string }

function graphOf(root: string, file: string): Graph {
  const db = new Database(path.join(root, '.docforge', 'index', file), { readonly: true });
  try {
    const rows = (sql: string): string[] => (db.prepare(sql).all() as Record<string, unknown>[]).map((r) => JSON.stringify(Object.values(r)));
    return {
      edges: rows('SELECT source_id, relation, target_id, source_path, line FROM edges ORDER BY 1, 2, 3'),
      issues: rows('SELECT severity, code, message, path FROM issues ORDER BY seq'),
      dependencies: (db.prepare("SELECT value FROM meta WHERE key = 'build_dependencies'").get() as { value: string }).value,
    };
  } finally {
    db.close();
  }
}

function write(root: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

function edit(root: string, rel: string, from: string, to: string): void {
  const file = path.join(root, rel);
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${rel} holds ${from}`);
  writeFileSync(file, text.replace(from, to));
}

const descriptor = (codeRoots: string[], exclude = '["**/node_modules/**"]'): string => [
  'schema_version = 1', '[project]', 'id = "deps"', '[sources]', 'content_roots = ["docs"]', `code_roots = ${JSON.stringify(codeRoots)}`,
  `exclude = ${exclude}`, '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
].join('\n');

/** Two modules exporting `one`, and a module importing `one` through the alias `@x/lib`. */
function aliasedCode(root: string, dir: string): void {
  write(root, `${dir}/alias.ts`, "import { one } from '@x/lib';\nexport function viaAlias(): number {\n  return one();\n}\n");
  write(root, `${dir}/one/lib.ts`, 'export function one(): number {\n  return 1;\n}\n');
  write(root, `${dir}/two/lib.ts`, 'export function one(): number {\n  return 2;\n}\n');
  write(root, 'docs/readme.md', '# Readme\n\nThe code.\n');
}

interface Scenario {
  name: string;
  setup(root: string): void;
  /** Changes only files outside the walked sources; each step must be seen. */
  steps: [string, (root: string) => void, (graph: Graph) => void][];
}

const viaOne = (graph: Graph): void => assert.ok(graph.edges.some((e) => e.includes('alias.ts#viaAlias') && e.includes('"calls"') && e.includes('one/lib.ts#one')), 'calls one/lib.ts');
const viaTwo = (graph: Graph): void => assert.ok(graph.edges.some((e) => e.includes('alias.ts#viaAlias') && e.includes('"calls"') && e.includes('two/lib.ts#one')), 'calls two/lib.ts');
const brokenLinks = (count: number) => (graph: Graph): void => assert.equal(graph.issues.filter((i) => i.includes('"broken_link"')).length, count, graph.issues.join('\n'));

const SCENARIOS: Scenario[] = [
  {
    name: 'a tsconfig.json between the root and the code root (monorepo)',
    setup: (root) => {
      write(root, 'docforge.toml', descriptor(['packages/app/src']));
      write(root, 'packages/app/tsconfig.json', '{"compilerOptions":{"baseUrl":".","paths":{"@x/*":["src/one/*"]}}}\n');
      aliasedCode(root, 'packages/app/src');
    },
    steps: [
      ['paths retargeted', (root) => edit(root, 'packages/app/tsconfig.json', 'src/one/*', 'src/two/*'), viaTwo],
      ['config removed', (root) => rmSync(path.join(root, 'packages/app/tsconfig.json')), (g) => assert.ok(!g.edges.some((e) => e.includes('lib.ts#one') && e.includes('"calls"')))],
      ['config back', (root) => write(root, 'packages/app/tsconfig.json', '{"compilerOptions":{"baseUrl":".","paths":{"@x/*":["src/one/*"]}}}\n'), viaOne],
    ],
  },
  {
    name: 'a relative `extends` target of another name',
    setup: (root) => {
      write(root, 'docforge.toml', descriptor(['src']));
      write(root, 'tsconfig.json', '{"extends":"./config/base.json"}\n');
      write(root, 'config/base.json', '{"compilerOptions":{"baseUrl":"..","paths":{"@x/*":["src/one/*"]}}}\n');
      aliasedCode(root, 'src');
    },
    steps: [['base retargeted', (root) => edit(root, 'config/base.json', 'src/one/*', 'src/two/*'), viaTwo]],
  },
  {
    name: 'an `extends` package under an excluded node_modules',
    setup: (root) => {
      write(root, 'docforge.toml', descriptor(['src']));
      write(root, 'tsconfig.json', '{"extends":"@acme/tsconfig/base.json"}\n');
      write(root, 'node_modules/@acme/tsconfig/base.json', '{"compilerOptions":{"baseUrl":"../../..","paths":{"@x/*":["src/one/*"]}}}\n');
      aliasedCode(root, 'src');
    },
    steps: [['package config retargeted', (root) => edit(root, 'node_modules/@acme/tsconfig/base.json', 'src/one/*', 'src/two/*'), viaTwo]],
  },
  {
    name: 'extensionless link targets that are no sources',
    setup: (root) => {
      write(root, 'docforge.toml', descriptor(['src']));
      write(root, 'src/index.ts', 'export const x = 1;\n');
      write(root, 'docs/readme.md', '# Readme\n\nSee [the license](../LICENSE) and [diagram](assets/arch).\n');
    },
    steps: [
      ['targets created', (root) => {
        write(root, 'LICENSE', 'MIT\n');
        write(root, 'docs/assets/arch', 'diagram\n');
      }, brokenLinks(0)],
      ['a target deleted', (root) => rmSync(path.join(root, 'LICENSE')), brokenLinks(1)],
      ['the other deleted', (root) => rmSync(path.join(root, 'docs/assets/arch')), brokenLinks(2)],
    ],
  },
];

function project(scenario: Scenario): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-deps-'));
  scenario.setup(root);
  return root;
}

async function freshSync(root: string): Promise<SyncReport> {
  const manager = new IndexManager({ root, noAst: false });
  try {
    return await manager.sync();
  } finally {
    await manager.close();
  }
}

/** Asserts the publication `report` names equals a build from scratch of the tree as it is now. */
async function assertLikeScratch(root: string, report: SyncReport, what: string): Promise<Graph> {
  const published = graphOf(root, report.publication.index_file);
  const scratch = await fullBuildOf(root, graphOf);
  assert.deepEqual(published.edges, scratch.edges, `${what}: edges`);
  assert.deepEqual(published.issues, scratch.issues, `${what}: issues`);
  // An incremental build may depend on more (texts its link cache checked), never on less.
  const own = JSON.parse(published.dependencies) as { reads: string[]; probes: string[] };
  const needed = JSON.parse(scratch.dependencies) as { reads: string[]; probes: string[] };
  for (const key of ['reads', 'probes'] as const) for (const rel of needed[key]) assert.ok(own[key].includes(rel), `${what}: ${key} ${rel} recorded`);
  return published;
}

for (const scenario of SCENARIOS) {
  test(`CLI: ${scenario.name}: the fast path and a fresh manager rebuild, like a build from scratch`, async () => {
    const root = project(scenario);
    try {
      assert.equal((await freshSync(root)).rebuilt, true);
      assert.equal(noChangeSync(root, { noAst: false }).current, true, 'unchanged: the fast path answers');
      for (const [what, change, check] of scenario.steps) {
        change(root);
        const answer = noChangeSync(root, { noAst: false });
        assert.deepEqual(answer, {
          current: false, reason: 'identity_changed', build: true,
          prepare: { root, stateDir: path.join(root, '.docforge'), logicAllowed: true, parseAdapters: (answer as { prepare?: { parseAdapters?: unknown } }).prepare?.parseAdapters },
        }, `${what}: the fast path`);
        const parsing = (answer as { prepare?: { parseAdapters?: unknown } }).prepare?.parseAdapters;
        assert.ok(Array.isArray(parsing) && parsing.every((id) => id === 'typescript'), `${what}: parseAdapters ${JSON.stringify(parsing)}`);
        const report = await freshSync(root);
        assert.equal(report.rebuilt, true, `${what}: rebuilt`);
        check(await assertLikeScratch(root, report, what));
        assert.equal(noChangeSync(root, { noAst: false }).current, true, `${what}: current afterwards`);
        assert.equal((await freshSync(root)).rebuilt, false, `${what}: nothing more to build`);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test(`server: ${scenario.name}: a watching manager sees the change and trusts its watcher again`, async () => {
    const root = project(scenario);
    const manager = new IndexManager({ root, noAst: false, watchSources: true });
    /** Syncs until the watcher stands for the walk, as it must for an unchanged tree. */
    const settle = async (what: string): Promise<void> => {
      for (let i = 0; i < 4; i += 1) {
        await manager.whenIdle();
        const report = await manager.sync();
        assert.equal(report.rebuilt, false, `${what}: nothing to build`);
        if (report.walk === 'watched') return;
      }
      assert.fail(`${what}: the watcher never stood in for the walk`);
    };
    try {
      assert.equal((await manager.sync()).rebuilt, true);
      await settle('cold');
      for (const [what, change, check] of scenario.steps) {
        change(root);
        const report = await manager.sync();
        assert.equal(report.rebuilt, true, `${what}: rebuilt`);
        assert.notEqual(report.walk, 'watched', what);
        check(await assertLikeScratch(root, report, what));
        assert.equal(manager.cheapIdentity(), report.publication.source_identity, `${what}: status identity`);
        await settle(what);
      }
    } finally {
      await manager.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
}

test('the recorder and a later identity computation agree; unwatchable dependencies make the watcher distrust', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-deps-unit-'));
  try {
    write(root, 'a/b/tsconfig.json', '{}\n');
    write(root, 'LICENSE', 'MIT\n');
    const recorder = new DependencyRecorder(root);
    for (const rel of ['a/b/tsconfig.json', 'a/b/c/package.json', 'x/y/z.json', 'a/b/tsconfig.json']) recorder.read(rel);
    assert.equal(recorder.exists('LICENSE'), true);
    assert.equal(recorder.exists('docs/missing'), false);
    const deps = recorder.dependencies();
    assert.deepEqual(deps, { reads: ['a/b/c/package.json', 'a/b/tsconfig.json', 'x/y/z.json'], probes: ['LICENSE', 'docs/missing'] });
    assert.deepEqual(dependencyIdentities(root, deps), recorder.identities());
    assert.deepEqual(dependencyIdentities(root, null).length, 1);
    // Existing directories on the way are watched; a missing one is seen through the last existing one.
    assert.deepEqual(dependencyWatch(root, deps), { directories: ['', 'a', 'a/b'], outside: false });
    assert.equal(dependencyWatch(root, { reads: ['../outside/tsconfig.json'], probes: [] }).outside, true);
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'docforge-deps-elsewhere-'));
    try {
      symlinkSync(elsewhere, path.join(root, 'linked'));
      symlinkSync(path.join(root, 'LICENSE'), path.join(root, 'COPYING'));
      assert.equal(dependencyWatch(root, { reads: ['linked/tsconfig.json'], probes: [] }).outside, true, 'a linked directory on the way');
      assert.equal(dependencyWatch(root, { reads: [], probes: ['COPYING'] }).outside, true, 'a probe that is a link');
      assert.equal(new DependencyRecorder(root).exists('linked'), false, 'a link leaving the root is no target');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a partial walk skips paths in directories watched only for dependencies, and walks fully when a directory above a walked one changes', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-deps-partial-'));
  try {
    write(root, 'docforge.toml', descriptor(['packages/app/src']));
    write(root, 'packages/app/tsconfig.json', '{}\n');
    write(root, 'packages/app/src/a.ts', 'export {};\n');
    write(root, 'docs/readme.md', '# R\n');
    const desc = loadDescriptor(root);
    const base = walkSources(desc, ['.ts']);
    const classify = sourcePathClassifier(desc, ['.ts']);
    const dependencyDirectories = new Set(['packages', 'packages/app']);
    assert.deepEqual(partialWalk(base, ['packages/app/tsconfig.json'], classify, dependencyDirectories)?.entries, base.entries);
    assert.equal(partialWalk(base, ['packages/app/tsconfig.json'], classify), null, 'not a watched dependency directory: full walk');
    assert.equal(partialWalk(base, ['packages/app'], classify, dependencyDirectories), null, 'a directory above a walked one');
    assert.equal(partialWalk(base, ['packages/app/src'], classify, dependencyDirectories), null, 'a walked directory');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
