// Pins the staleness tester's findings 2-4 through the real `docforge` command line: after an edit to a tsconfig.json between the
// root and a code root, to an `extends` target of another name (relative, or a package under node_modules) or to the existence of
// an extensionless link target, `docforge sync` (the launcher's bundled fast path, then the full CLI) rebuilds instead of
// answering "up to date", and the graph and `docforge validate` equal those of a build from scratch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { IndexReader, readPublication, stateLayout } from '@docforge/store';
import { CLI_COMPILED, CLI_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';

const LAUNCHER = CLI_ENTRY;

interface Run { status: number | null; stdout: string; trace: string[] }

function docforge(entry: string, args: string[]): Run {
  const result = spawnSync(process.execPath, [entry, ...args], { encoding: 'utf8', env: { ...process.env, DOCFORGE_CLI_TRACE: '1' } });
  const lines = result.stderr.split('\n');
  return { status: result.status, stdout: result.stdout, trace: lines.filter((l) => l.startsWith('docforge-trace: ')).map((l) => l.slice('docforge-trace: '.length)) };
}

/** {@link docforge} without blocking, so that independent runs overlap. */
function docforgeAsync(entry: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [entry, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, DOCFORGE_CLI_TRACE: '1' } }, (error, stdout, stderr) => {
      const code = (error as { code?: unknown } | null)?.code;
      const lines = stderr.split('\n');
      resolve({ status: error === null ? 0 : typeof code === 'number' ? code : null, stdout, trace: lines.filter((l) => l.startsWith('docforge-trace: ')).map((l) => l.slice('docforge-trace: '.length)) });
    });
  });
}

function write(root: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

function replaceIn(root: string, rel: string, from: string, to: string): void {
  const text = readFileSync(path.join(root, rel), 'utf8');
  assert.ok(text.includes(from));
  writeFileSync(path.join(root, rel), text.replace(from, to));
}

/** Every edge of the current publication (outgoing edges of every node) and `docforge validate --json` (through the launcher). */
async function graph(root: string): Promise<{ edges: string[]; validate: unknown }> {
  const validate = await docforgeAsync(LAUNCHER, ['validate', '--json', '-C', root]);
  return { edges: edgesOf(root), validate: JSON.parse(validate.stdout) };
}

/** Every edge of the current publication, read in this process (no CLI spawned). */
function edgesOf(root: string): string[] {
  const layout = stateLayout(path.join(root, '.docforge'), root);
  const publication = readPublication(layout);
  assert.ok(publication !== null);
  const reader = new IndexReader(path.join(layout.indexDir, publication.index_file));
  const edges: string[] = [];
  try {
    for (const node of reader.nodesByFilter({}, 1000).items) {
      for (const edge of reader.edges(node.id, 'outgoing', null, 1000)) edges.push(`${edge.source_id} ${edge.relation} ${edge.target_id}`);
    }
  } finally {
    reader.close();
  }
  return edges.sort();
}

/**
 * The graph a from-scratch `docforge sync` (through the launcher, whose bundled full CLI test/cli-full-bundle pins
 * to print what the compiled one prints) builds from a copy of the tree as it is now (copied
 * before this returns, so the caller may read the tree meanwhile).
 */
function scratchGraph(root: string): Promise<{ edges: string[]; validate: unknown }> {
  const fresh = tempDir('docforge-deps-scratch-');
  cpSync(root, fresh, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') });
  return (async () => {
    const run = await docforgeAsync(LAUNCHER, ['sync', '--no-progress', '-C', fresh]);
    assert.match(run.stdout, /^rebuilt: /);
    const result = await graph(fresh);
    rmSync(fresh, { recursive: true, force: true });
    return result;
  })();
}

const DESCRIPTOR = (codeRoot: string): string => [
  'schema_version = 1', '[project]', 'id = "deps-e2e"', '[sources]', 'content_roots = ["docs"]', `code_roots = ["${codeRoot}"]`,
  'exclude = ["**/node_modules/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
].join('\n');

function aliasedCode(root: string, dir: string): void {
  write(root, `${dir}/alias.ts`, "import { one } from '@x/lib';\nexport function viaAlias() {\n  return one();\n}\n");
  write(root, `${dir}/one/lib.ts`, 'export function one() {\n  return 1;\n}\n');
  write(root, `${dir}/two/lib.ts`, 'export function one() {\n  return 2;\n}\n');
  write(root, 'docs/readme.md', '# Readme\n\nSee [the license](../LICENSE) and [diagram](assets/arch).\n');
}

/** One change outside the walked sources: both `docforge sync` entries rebuild it, then answer "up to date" like a scratch build. */
async function assertSeen(root: string, what: string, change: () => void, entry: string): Promise<void> {
  change();
  const sync = docforge(entry, ['sync', '--no-progress', '-C', root]);
  assert.equal(sync.status, 0, what);
  assert.match(sync.stdout, /^rebuilt: /, `${what}: ${sync.stdout}`);
  if (entry === LAUNCHER) assert.deepEqual(sync.trace, ['bundle used', 'full cli (prior: build true)'], `${what}: the fast path declined`);
  // The scratch build runs beside the read of this tree: neither writes the other's files.
  const scratch = scratchGraph(root);
  const [seen, fresh] = await Promise.all([graph(root), scratch]);
  assert.deepEqual(seen, fresh, `${what}: like a build from scratch`);
  const again = docforge(LAUNCHER, ['sync', '--no-progress', '-C', root]);
  assert.match(again.stdout, /^up to date: /, what);
  assert.deepEqual(again.trace, ['bundle used'], `${what}: the fast path answers`);
}

test('docforge sync sees a tsconfig.json above the code root, extends targets and extensionless link targets', async () => {
  const root = tempDir('docforge-deps-e2e-');
  write(root, 'docforge.toml', DESCRIPTOR('packages/app/src'));
  write(root, 'packages/app/tsconfig.json', '{"compilerOptions":{"baseUrl":".","paths":{"@x/*":["src/one/*"]}}}\n');
  aliasedCode(root, 'packages/app/src');
  assert.match(docforge(LAUNCHER, ['sync', '--no-progress', '-C', root]).stdout, /^rebuilt: /);
  const calls = (target: string): boolean => edgesOf(root).includes(`code:packages/app/src/alias.ts#viaAlias calls code:packages/app/src/${target}/lib.ts#one`);
  assert.ok(calls('one'));

  // Finding 2: the monorepo tsconfig.json (fast path, then the full CLI entry).
  await assertSeen(root, 'tsconfig paths retargeted', () => replaceIn(root, 'packages/app/tsconfig.json', 'src/one/*', 'src/two/*'), LAUNCHER);
  assert.ok(calls('two'));
  await assertSeen(root, 'tsconfig paths back', () => replaceIn(root, 'packages/app/tsconfig.json', 'src/two/*', 'src/one/*'), CLI_COMPILED);
  assert.ok(calls('one'));

  // Finding 3: a relative `extends` of another name, then a package config under node_modules.
  await assertSeen(root, 'extends a relative base', () => {
    write(root, 'packages/app/tsconfig.json', '{"extends":"../../config/base.json"}\n');
    write(root, 'config/base.json', '{"compilerOptions":{"baseUrl":"../packages/app","paths":{"@x/*":["src/one/*"]}}}\n');
  }, LAUNCHER);
  assert.ok(calls('one'));
  await assertSeen(root, 'relative base edited', () => replaceIn(root, 'config/base.json', 'src/one/*', 'src/two/*'), LAUNCHER);
  assert.ok(calls('two'));
  await assertSeen(root, 'extends a package', () => {
    write(root, 'packages/app/tsconfig.json', '{"extends":"@acme/tsconfig/base.json"}\n');
    write(root, 'node_modules/@acme/tsconfig/base.json', '{"compilerOptions":{"baseUrl":"../../../packages/app","paths":{"@x/*":["src/one/*"]}}}\n');
  }, LAUNCHER);
  assert.ok(calls('one'));
  await assertSeen(root, 'package base edited', () => replaceIn(root, 'node_modules/@acme/tsconfig/base.json', 'src/one/*', 'src/two/*'), CLI_COMPILED);
  assert.ok(calls('two'));

  // Finding 4: extensionless link targets appear, then disappear.
  const broken = async (): Promise<number> => ((await graph(root)).validate as { issues: { code: string }[] }).issues.filter((i) => i.code === 'broken_link').length;
  assert.equal(await broken(), 2);
  await assertSeen(root, 'link targets created', () => {
    write(root, 'LICENSE', 'MIT\n');
    write(root, 'docs/assets/arch', 'diagram\n');
  }, LAUNCHER);
  assert.equal(await broken(), 0);
  await assertSeen(root, 'a link target deleted', () => rmSync(path.join(root, 'LICENSE')), LAUNCHER);
  assert.equal(await broken(), 1);
  await assertSeen(root, 'the other link target deleted', () => rmSync(path.join(root, 'docs/assets/arch')), CLI_COMPILED);
  assert.equal(await broken(), 2);
});
