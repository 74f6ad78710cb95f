// A `test` task on code that nothing tests says so (issue 30's trial: "a test task with no tested_by gives no gap"):
// docforge_get_task_context answers a `no_selected_evidence` gap with category `evidence` and the test relations
// (`tested_by`, `verifies`, `proves`) the project has, exactly when the completed traversal reached no item through
// one of them; a doc that `documents` the focus is evidence, but not a test. Through the real docforge-mcp on a
// copy of examples/ and on fastify's package (lib/ and test/, whose test files import the modules they test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedExampleProject } from './helpers/projects.js';
import { sharedFastifyProject } from './helpers/shared-fixtures.js';
import { useServer, type Json, type Server } from './helpers/server.js';
import { spawnSync } from 'node:child_process';
import { CLI_ENTRY } from './helpers/paths.js';
import { npmPackProject } from './helpers/npm-pack.js';
import { removeDir } from './helpers/projects.js';

const TESTS = ['tested_by', 'verifies', 'proves'];

async function testTask(s: Server, focus: string): Promise<Json> {
  const e = await s.call('docforge_get_task_context', { task_kind: 'test', task: `write tests for ${focus}`, focus_node_id: focus, budget: 200_000, limit: 200 });
  assert.equal(e.ok, true, JSON.stringify(e.error));
  return e.result!;
}

/** Whether an evidence item tests the focus: a test relation reached from the focus, or from what structurally holds it, or a reason naming the focus. */
function reachedByTest(items: Json[], focus: string): boolean {
  return items.some((item) => {
    const path = (item.path as Json[] | undefined) ?? [];
    const at = path.findIndex((hop) => TESTS.includes(hop.relation as string));
    if (at >= 0 && path.slice(0, at).every((hop) => hop.category === 'structure')) return true;
    return ((item.relationship_reasons as Json[] | undefined) ?? []).some((r) => TESTS.includes(r.relation as string) && r.other_id === focus);
  });
}

/** Checks every module's test task: the gap stands exactly when no test reached it; returns [modules with the gap, without]. */
async function checkModules(s: Server, modules: string[]): Promise<[string[], string[]]> {
  const gapped: string[] = [];
  const tested: string[] = [];
  for (const id of modules) {
    const result = await testTask(s, id);
    const gaps = result.gaps as Json[];
    assert.ok(!gaps.some((g) => g.kind === 'incomplete_proof'), `${id}: the traversal completed (${JSON.stringify(gaps)})`);
    const gap = gaps.find((g) => g.kind === 'no_selected_evidence' && g.category === 'evidence');
    if (reachedByTest(result.items as Json[], id)) {
      assert.equal(gap, undefined, `${id} is reached by a test: no gap`);
      tested.push(id);
    } else {
      assert.ok(gap, `${id}: no test reached it, so the gap says so (${JSON.stringify(gaps)})`);
      assert.equal(gap.stage, 'traversal');
      assert.equal(gap.task_kind, 'test');
      assert.ok((gap.relations as string[]).includes('tested_by'), JSON.stringify(gap));
      gapped.push(id);
    }
  }
  return [gapped, tested];
}

async function moduleIds(s: Server, prefix: string): Promise<string[]> {
  const e = await s.call('docforge_filter_nodes', { kinds: ['module'], limit: 200 });
  assert.equal(e.ok, true, JSON.stringify(e.error));
  return (e.result!.items as Json[]).map((n) => n.id as string).filter((id) => id.startsWith(prefix)).sort();
}

describe('a test task names the missing tests', () => {
  test('examples/: untested modules get the gap, tested ones do not; a change task never gets it', async (t) => {
    // Reads only: the run's shared example project (a private copy would be built again, as its index file has a new inode).
    const s = await useServer(sharedExampleProject());
    t.after(() => s.close());
    const [gapped, tested] = await checkModules(s, (await moduleIds(s, 'code:src/')).filter((id) => !id.endsWith('.test.ts')));
    assert.ok(gapped.includes('code:src/shared/retry.ts'), `retry.ts has no test: ${gapped.join(' ')}`);
    assert.ok(tested.includes('code:src/ledger/ledger.ts'), `ledger.ts is tested: ${tested.join(' ')}`);
    // withRetry has no test; CMP-LEDGER documents it and has tests of its own: those are not tests of withRetry.
    const retry = await testTask(s, 'code:src/shared/retry.ts#withRetry');
    assert.ok((retry.items as Json[]).some((item) => ((item.path as Json[] | undefined) ?? []).some((hop) => hop.relation === 'tested_by')), 'a test is reached, through the doc');
    assert.ok((retry.gaps as Json[]).some((g) => g.kind === 'no_selected_evidence' && g.category === 'evidence'), JSON.stringify(retry.gaps));
    const change = await s.call('docforge_get_task_context', { task_kind: 'change', task: 'change retry', focus_node_id: 'code:src/shared/retry.ts', budget: 200_000 });
    assert.ok(!(change.result!.gaps as Json[]).some((g) => g.kind === 'no_selected_evidence'), 'a change task does not require tests');
  });

  test('fastify lib/ with its test/ folder: both kinds occur, and each module is answered by the rule', async (t) => {
    // Reads only: the run's shared built copy (test/helpers/shared-fixtures.ts).
    const root = sharedFastifyProject(['docs', 'lib', 'test', 'package.json', 'fastify.js'], 'schema_version = 1\n[project]\nid = "fastify"\nname = "Fastify"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["lib", "test", "fastify.js"]\n[adapter]\ncode = "typescript"\n');
    const s = await useServer(root);
    t.after(() => s.close());
    const modules = (await moduleIds(s, 'code:lib/')).slice(0, 40);
    assert.ok(modules.length >= 20, `lib/ modules: ${modules.length}`);
    const [gapped, tested] = await checkModules(s, modules);
    assert.ok(gapped.length > 0 && tested.length > 0, `gapped ${gapped.length}, tested ${tested.length}`);
  });
});

// Issue 30 (helper fx30): in a project that holds no test at all (commander as `npm pack` gives it ships none), a test
// task on a method said nothing about tests: the gap stood only when the project had edges of a test relation. Now it
// stands whenever no test of the subject was reached, with all three test relations; the CLI says it in words.
test('a project without tests: the test task says no tests were found for the subject, over MCP and in the CLI', async (t) => {
  const root = npmPackProject('commander@14.0.3', 'schema_version = 1\n[project]\nid = "commander"\n[sources]\ncontent_roots = ["Readme.md"]\ncode_roots = ["lib"]\n[adapter]\ncode = "typescript"\n', 'docforge-test-gap-');
  t.after(() => removeDir(root));
  const focus = 'code:lib/command.js#Command.parseOptions';
  const s = await useServer(root);
  try {
    const result = await testTask(s, focus);
    assert.ok((result.items as Json[]).length > 1, 'the traversal found related code');
    assert.ok(!reachedByTest(result.items as Json[], focus));
    const gap = (result.gaps as Json[]).find((g) => g.kind === 'no_selected_evidence' && g.category === 'evidence');
    assert.deepEqual(gap, { kind: 'no_selected_evidence', stage: 'traversal', category: 'evidence', task_kind: 'test', relations: TESTS });
    const change = await s.call('docforge_get_task_context', { task_kind: 'change', task: 'change parseOptions', focus_node_id: focus, budget: 200_000 });
    assert.ok(!(change.result!.gaps as Json[]).some((g) => g.kind === 'no_selected_evidence'), 'a change task does not require tests');
  } finally {
    await s.close();
  }
  const text = spawnSync(process.execPath, [CLI_ENTRY, 'context', '--task-kind', 'test', 'write tests for parseOptions', '--node', focus, '-C', root], { encoding: 'utf8' });
  assert.equal(text.status, 0, text.stderr);
  assert.ok(text.stdout.split('\n').includes(`no tests found for ${focus}: nothing reached it through tested_by, verifies, proves`), text.stdout);
});
