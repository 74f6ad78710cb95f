// Issue 32 item 3 over MCP: `docforge_get_task_context` with task_kind "change" includes the docs,
// requirements and tests its focus affects (the walk of `docforge affected`), each marked by why:
// role `affected`, the graph path that reached it, and the section to reread as `excerpt_section`.
// Through the real docforge-mcp and the MCP SDK client, on a copy of examples/ and on the fastify
// package, cross-checked against the real `docforge affected` CLI after an edit of the focus.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, fastifyProjectCopy } from './helpers/projects.js';
import { useServer, type Json, type Server } from './helpers/server.js';

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

async function changeContext(s: Server, focus: string, extra: Json = {}): Promise<Json> {
  const e = await s.call('docforge_get_task_context', { task_kind: 'change', task: `change ${focus}`, focus_node_id: focus, budget: 200_000, limit: 200, ...extra });
  assert.equal(e.ok, true, JSON.stringify(e.error));
  return e.result!;
}

/** The ids `docforge affected --json` lists after `file` was edited (it never synchronizes). */
function affectedIds(root: string): { changed: string[]; ids: string[] } {
  const run = cli(['affected', '--json', '-C', root]);
  assert.equal(run.status, 0, run.stderr);
  const answer = JSON.parse(run.stdout) as Json;
  return { changed: (answer.changed.nodes as Json[]).map((n) => n.id as string), ids: (answer.affected.items as Json[]).map((i) => i.id as string) };
}

/** Every affected item's path runs from the focus to the item, hop after hop. */
function assertPaths(items: Json[], focus: string): void {
  for (const item of items) {
    const hops = item.path as Json[];
    assert.ok(hops.length >= 1, `${item.id} has a path`);
    assert.equal(hops[0]!.from, focus, `${item.id}: ${JSON.stringify(hops)}`);
    assert.equal(hops.at(-1)!.to, item.id);
    for (let i = 1; i < hops.length; i += 1) assert.equal(hops[i]!.from, hops[i - 1]!.to);
    assert.equal(item.depth, hops.length);
  }
}

describe('change task context on a copy of examples/', async () => {
  const root = exampleProjectCopy();
  const s = await useServer(root);
  const FOCUS = 'code:src/refunds/refund-service.ts#RefundService.requestRefund';

  test('the affected docs, requirements and tests of the focus, marked by why, equal what docforge affected lists', async () => {
    const r = await changeContext(s, FOCUS);
    // The plan's step from the focus also runs the affected walk, up to 4 hops.
    assert.deepEqual((r.plan.steps as Json[]).map((x) => x.affected_depth ?? null), [null, 4, null, null]);
    const evidence = (r.items as Json[]).filter((i) => i.type === 'evidence');
    const affected = evidence.filter((i) => i.role === 'affected');
    assertPaths(affected, FOCUS);
    const byId = new Map(affected.map((i) => [i.id as string, i]));
    const component = byId.get('CMP-REFUND-SERVICE');
    assert.ok(component, JSON.stringify(affected.map((i) => i.id)));
    assert.deepEqual([component.excerpt_section?.slug, component.excerpt_section?.title], ['refund-service', 'Refund service']);
    const componentText = readFileSync(path.join(root, component.source_path as string), 'utf8').split('\n');
    assert.match(componentText[component.excerpt_section.line - 1]!, /RefundService/, 'the section line names the code');
    for (const id of ['REQ-PAY-005', 'REQ-LED-003', 'TST-LED-003']) assert.ok(byId.has(id), id);
    // Ranked: the traversal's evidence in its order, then the affected entries it did not select, breadth first.
    const firstDeeper = evidence.findIndex((i) => i.depth > 2);
    assert.ok(firstDeeper > 0 && evidence.slice(firstDeeper).every((i) => i.role === 'affected'), JSON.stringify(evidence.map((i) => [i.id, i.role, i.depth])));
    const depths = evidence.slice(firstDeeper).map((i) => i.depth as number);
    assert.deepEqual(depths, [...depths].sort((a, b) => a - b));
    assert.deepEqual(r.gaps, []);

    // The same walk as `docforge affected` after an edit of the focus's body.
    const file = path.join(root, 'src/refunds/refund-service.ts');
    const before = readFileSync(file, 'utf8');
    const edited = before.replace("status: 'completed', entryId: entry.id };", "status: 'completed', entryId: entry.id, settled: false };");
    assert.notEqual(edited, before);
    writeFileSync(file, edited);
    try {
      const cliAnswer = affectedIds(root);
      assert.deepEqual(cliAnswer.changed, [FOCUS]);
      assert.deepEqual([...byId.keys()].sort(), [...cliAnswer.ids].sort());
    } finally {
      writeFileSync(file, before);
    }
  });

  test('other task kinds have no affected step and no affected role; the affected entries stay within the token budget', async () => {
    const impl = await s.call('docforge_get_task_context', { task_kind: 'implementation', task: 'x', focus_node_id: FOCUS, budget: 200_000, limit: 200 });
    assert.equal(impl.ok, true);
    assert.ok(!(impl.result!.plan.steps as Json[]).some((x) => 'affected_depth' in x));
    assert.ok(!(impl.result!.items as Json[]).some((i) => i.role === 'affected'));
    const small = await changeContext(s, FOCUS, { budget: 600 });
    assert.ok(small.used_tokens <= 600);
    const omitted = (small.items as Json[]).filter((i) => i.type === 'omission');
    assert.ok(omitted.some((i) => i.id === 'TST-LED-003' && i.reason === 'token_limit' && /^[0-9a-f]{64}$/.test(i.sha256)), JSON.stringify(small.items.map((i: Json) => [i.type, i.id])));
    assert.ok(small.gaps.some((g: Json) => g.kind === 'incomplete_proof' && g.cause === 'token_limit'));
  });
});

describe('change task context on the fastify package', async () => {
  const root = fastifyProjectCopy(['docs', 'lib', 'fastify.js'], 'schema_version = 1\n[project]\nid = "fastify"\nname = "Fastify"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["lib", "fastify.js"]\n[adapter]\ncode = "typescript"\n');
  const s = await useServer(root);
  const FOCUS = 'code:lib/content-type-parser.js#hasContentTypeParser';

  test('a function names the reference section that documents it, as docforge affected does', async () => {
    const r = await changeContext(s, FOCUS);
    const affected = (r.items as Json[]).filter((i) => i.type === 'evidence' && i.role === 'affected');
    assertPaths(affected, FOCUS);
    const reference = affected.find((i) => i.id === 'Reference/ContentTypeParser');
    assert.ok(reference, JSON.stringify(affected.map((i) => i.id)));
    assert.equal(reference.excerpt_section?.slug, 'hascontenttypeparser');
    assert.match(reference.excerpt, /hasContentTypeParser/);
    const lines = readFileSync(path.join(root, reference.source_path as string), 'utf8').split('\n');
    assert.match(lines[reference.excerpt_section.line - 1]!, /hasContentTypeParser/);

    const file = path.join(root, 'lib/content-type-parser.js');
    const before = readFileSync(file, 'utf8');
    const edited = before.replace(/function hasContentTypeParser \(contentType\) \{\n {2}return [^\n]+\n\}/, 'function hasContentTypeParser (contentType) {\n  return this[kContentTypeParser].hasParser(contentType) === true\n}');
    assert.notEqual(edited, before, 'fastify still has hasContentTypeParser as this test expects');
    writeFileSync(file, edited);
    try {
      const cliAnswer = affectedIds(root);
      assert.deepEqual(cliAnswer.changed, [FOCUS]);
      assert.deepEqual(affected.map((i) => i.id).sort(), [...cliAnswer.ids].sort());
    } finally {
      writeFileSync(file, before);
    }
  });
});
