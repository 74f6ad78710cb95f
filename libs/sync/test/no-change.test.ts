// Pins the no-change fast path of a whole-process `docforge sync` (issue 14): it answers "current" exactly
// when a fresh IndexManager's sync would serve the publication unchanged, with the same publication, and
// falls back (leaving the decision to the full sync) on every doubt.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, utimesSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IndexManager, type SyncReport } from '../src/index.js';
import { stateLayout } from '@docforge/store';
import { noChangeSync, type NoChangeAnswer } from '../src/index.js';
import { BuildPools, prestartBuildWorker, type PrestartedBuildPool } from '../src/index.js';

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples');
const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function copyExamples(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docforge-nochange-'));
  roots.push(dir);
  cpSync(examples, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.docforge`) });
  return dir;
}

/** A fresh manager's sync, as a fresh `docforge sync` process runs it (noAst as given). */
async function fullSync(root: string, noAst = false, prestarted: PrestartedBuildPool | null = null): Promise<SyncReport> {
  const manager = new IndexManager({ root, noAst, ...(prestarted ? { buildPools: new BuildPools(undefined, prestarted) } : {}) });
  try {
    return await manager.sync();
  } finally {
    await manager.close();
  }
}

/** The fields `docforge sync --json` prints. */
function printed(report: { rebuilt: boolean; staleness: string; publication: unknown; stats: unknown; sync_error: unknown }): string {
  return JSON.stringify({ rebuilt: report.rebuilt, staleness: report.staleness, publication: report.publication, stats: report.stats, sync_error: report.sync_error }, null, 2);
}

/** Asserts the fast path answers "current" with what the full sync answers now. */
async function assertSameAsFull(root: string, noAst = false): Promise<void> {
  const fast = noChangeSync(root, { noAst });
  assert.equal(fast.current, true, `fast path fell back: ${JSON.stringify(fast)}`);
  const full = await fullSync(root, noAst);
  assert.equal(full.rebuilt, false);
  assert.equal(full.staleness, 'current');
  assert.equal(printed(full), printed({ rebuilt: false, staleness: 'current', publication: (fast as { publication: unknown }).publication, stats: null, sync_error: null }));
}

/**
 * A fallback; one for a changed identity also names what a prestarted build worker may prepare
 * (the project's root, state dir and Logic policy, and whether a code file is new or changed, so
 * the code adapters whose files are new or changed, which the worker loads whole: `parseAdapters`,
 * default none here).
 */
function assertFallback(answer: NoChangeAnswer, reason: string, build: boolean, parseAdapters: string[] = []): void {
  if (reason !== 'identity_changed') {
    assert.deepEqual(answer, { current: false, reason, build });
    return;
  }
  assert.ok(!answer.current);
  const root = answer.prepare!.root;
  assert.deepEqual(answer, { current: false, reason, build, prepare: { root, stateDir: path.join(root, '.docforge'), logicAllowed: true, parseAdapters } });
}

test('examples/: the fast path answers exactly what a fresh full sync answers, and falls back whenever sources or state changed', async () => {
  const root = copyExamples();
  const layout = stateLayout(path.join(root, '.docforge'), root);
  assertFallback(noChangeSync(root, { noAst: false }), 'no_publication', true);
  assert.equal((await fullSync(root)).rebuilt, true);
  await assertSameAsFull(root);

  // A touched source (new mtime, same content) changes the cheap identity: the full sync rebuilds.
  const page = path.join(root, 'docs', 'guides', 'getting-started.md');
  utimesSync(page, new Date(), new Date(Date.now() + 5_000));
  assertFallback(noChangeSync(root, { noAst: false }), 'identity_changed', true);
  assert.equal((await fullSync(root)).staleness, 'current');
  await assertSameAsFull(root);

  // An edited source and a new one.
  appendFileSync(page, '\nOne more line.\n');
  assertFallback(noChangeSync(root, { noAst: false }), 'identity_changed', true);
  await fullSync(root);
  writeFileSync(path.join(root, 'docs', 'guides', 'brand-new.md'), '# Brand new\n\nBody.\n');
  assertFallback(noChangeSync(root, { noAst: false }), 'identity_changed', true);
  await fullSync(root);
  await assertSameAsFull(root);

  // An edited code file, a touched one (same content) and a new one: the worker will parse code.
  const code = path.join(root, 'src', 'shared', 'retry.ts');
  appendFileSync(code, '\n// one more line\n');
  assertFallback(noChangeSync(root, { noAst: false }), 'identity_changed', true, ['typescript']);
  await fullSync(root);
  utimesSync(code, new Date(), new Date(Date.now() + 9_000));
  assertFallback(noChangeSync(root, { noAst: false }), 'identity_changed', true, ['typescript']);
  await fullSync(root);
  writeFileSync(path.join(root, 'src', 'shared', 'brand-new.ts'), 'export const n = 1;\n');
  assertFallback(noChangeSync(root, { noAst: false }), 'identity_changed', true, ['typescript']);
  await fullSync(root);
  await assertSameAsFull(root);

  // An edited descriptor (even a comment) is part of the identity.
  appendFileSync(path.join(root, 'docforge.toml'), '\n# a comment\n');
  assertFallback(noChangeSync(root, { noAst: false }), 'identity_changed', true);
  await fullSync(root);
  await assertSameAsFull(root);

  // A deleted index file.
  const current = JSON.parse(readFileSync(layout.currentFile, 'utf8')) as { index_file: string; logic_allowed: boolean };
  rmSync(path.join(layout.indexDir, current.index_file));
  assertFallback(noChangeSync(root, { noAst: false }), 'index_file_changed', true);
  assert.equal((await fullSync(root)).rebuilt, true);
  await assertSameAsFull(root);

  // An index file overwritten in place (same inode and size) that no longer opens as an index.
  const published = JSON.parse(readFileSync(layout.currentFile, 'utf8')) as { index_file: string; index_size: number };
  const fd = openSync(path.join(layout.indexDir, published.index_file), 'r+');
  writeSync(fd, Buffer.alloc(4096, 0x41), 0, 4096, 0);
  closeSync(fd);
  assertFallback(noChangeSync(root, { noAst: false }), 'index_unopenable', true);
  assert.equal((await fullSync(root)).rebuilt, true);
  await assertSameAsFull(root);

  // A corrupt current.json is no publication.
  const text = readFileSync(layout.currentFile, 'utf8');
  writeFileSync(layout.currentFile, text.slice(0, -5));
  assertFallback(noChangeSync(root, { noAst: false }), 'no_publication', true);
  assert.equal((await fullSync(root)).rebuilt, true);
  await assertSameAsFull(root);

  // A Logic binding that differs from the descriptor's (current.json claims Logic was not allowed).
  const record = JSON.parse(readFileSync(layout.currentFile, 'utf8')) as Record<string, unknown>;
  assert.equal(record.logic_allowed, true);
  writeFileSync(layout.currentFile, JSON.stringify({ ...record, logic_allowed: false }));
  assertFallback(noChangeSync(root, { noAst: false }), 'logic_binding', true);
  assert.equal((await fullSync(root)).rebuilt, true);
  await assertSameAsFull(root);
  // --no-ast against an index built with Logic allowed: a no-AST sync rebuilds.
  assertFallback(noChangeSync(root, { noAst: true }), 'logic_binding', true);
  assert.equal((await fullSync(root, true)).rebuilt, true);
  await assertSameAsFull(root, true);
  assertFallback(noChangeSync(root, { noAst: false }), 'logic_binding', true);
  await fullSync(root);
  await assertSameAsFull(root);

  // A publication of another DocForge version's adapters (an older code adapter): rebuilt, not served.
  const built = JSON.parse(readFileSync(layout.currentFile, 'utf8')) as Record<string, unknown>;
  assert.match(String(built.adapter_version), /^docs@\d+\+typescript@\d+\.\d+\.\d+\+strategy=ast$/);
  writeFileSync(layout.currentFile, JSON.stringify({ ...built, adapter_version: String(built.adapter_version).replace(/typescript@[\d.]+/, 'typescript@0.9.0') }));
  assertFallback(noChangeSync(root, { noAst: false }), 'adapter_version', true);
  const upgraded = await fullSync(root);
  assert.equal(upgraded.rebuilt, true);
  assert.equal(upgraded.publication.adapter_version, built.adapter_version);
  await assertSameAsFull(root);
  // An adapter that could not be loaded when the build ran is no reason to rebuild again and again.
  const rebuiltRecord = JSON.parse(readFileSync(layout.currentFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(layout.currentFile, JSON.stringify({ ...rebuiltRecord, adapter_version: String(rebuiltRecord.adapter_version).replace(/typescript@[\d.]+/, 'typescript@unavailable') }));
  assert.equal(noChangeSync(root, { noAst: false }).current, true);
  assert.equal((await fullSync(root)).rebuilt, false);
  writeFileSync(layout.currentFile, JSON.stringify(rebuiltRecord));

  // An open application journal: nothing is compared; the full sync answers staleness `unknown`.
  mkdirSync(layout.applicationDir, { recursive: true });
  writeFileSync(layout.applicationJournal, JSON.stringify({ schema_version: 1, changeset_id: 'cs-1', step: 'writing' }));
  assertFallback(noChangeSync(root, { noAst: false }), 'application_open', false);
  assert.equal((await fullSync(root)).staleness, 'unknown');
  rmSync(layout.applicationJournal);
  await assertSameAsFull(root);

  // An invalid descriptor: the full sync reports the error.
  const descriptor = readFileSync(path.join(root, 'docforge.toml'), 'utf8');
  writeFileSync(path.join(root, 'docforge.toml'), `${descriptor}\nunknown_key = 1\n`);
  assertFallback(noChangeSync(root, { noAst: false }), 'descriptor', false);
  await assert.rejects(fullSync(root), (error: { code?: string }) => error.code === 'descriptor_invalid');
  writeFileSync(path.join(root, 'docforge.toml'), descriptor);
  await fullSync(root);
  await assertSameAsFull(root);

  // A root that is not a directory.
  assertFallback(noChangeSync(path.join(root, 'docforge.toml'), { noAst: false }), 'project_root', false);
  assertFallback(noChangeSync(path.join(root, 'missing'), { noAst: false }), 'project_root', false);
});

test('a project-owned adapter always falls back (its cheap identity is known only to the build worker)', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-nochange-adapter-'));
  roots.push(root);
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docs', 'a.md'), '# A\n\nBody.\n');
  writeFileSync(path.join(root, 'adapter.mjs'), "export const version = '1';\nexport const inputs = [];\nexport function extract() { return { nodes: [], edges: [] }; }\n");
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "t"\nname = "T"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\nmodule = "adapter.mjs"\n');
  assert.equal((await fullSync(root)).staleness, 'current');
  assertFallback(noChangeSync(root, { noAst: false }), 'project_adapter', true);
});

test('a prestarted build worker is adopted by the next pool request, or released', async () => {
  const early = prestartBuildWorker();
  const errors: unknown[] = [];
  const pools = new BuildPools(undefined, early);
  const pool = pools.create((error) => errors.push(error));
  const other = pools.create(() => undefined);
  assert.notEqual(pool, other, 'the prestarted pool is adopted once');
  await early.release(); // adopted: nothing to release
  await Promise.all([pool.destroy(), other.destroy()]);
  const unused = prestartBuildWorker();
  await unused.release();
  await unused.release(); // nothing left
  assert.deepEqual(errors, []);

  // A sync after a prestart builds in the prestarted worker and answers as usual.
  const root = copyExamples();
  const started = prestartBuildWorker();
  const report = await fullSync(root, false, started);
  assert.equal(report.rebuilt, true);
  await started.release();
  await assertSameAsFull(root);
});
