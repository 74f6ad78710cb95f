// Pins issue 30 item 8 (CONFORMANCE "bootstrap answers at the smallest allowed max_output_chars"): with a 255-character project root in application mode, a configured max_output_chars of 2000 is raised to the 4,000-character floor with a warning; at that floor bootstrap and get_contract return every contract-required record (their compact forms), and EVERY registered tool answers within the limit, with valid and with invalid arguments, never internal_error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIN_MAX_OUTPUT_CHARS } from '@docforge/project';
import { CLI_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import { useServer, type Json, type RawResult, type Server } from './helpers/server.js';

/** The floor the descriptor raises a lower limit to (measured with a 255-character root). */
const FLOOR = 4000;

/** A directory whose real path is exactly `length` characters, with a small project in it (limit 2000, one view, the generic applier). */
function projectWithRoot(length: number): string {
  let root = tempDir('docforge-floor-');
  while (root.length < length) {
    const room = length - root.length - 1;
    root = room > 0 ? path.join(root, 'r'.repeat(Math.min(60, room))) : `${root}s`;
  }
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(
    path.join(root, 'docforge.toml'),
    'schema_version = 1\n[project]\nid = "floor"\nname = "Floor"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\ncanonical_applier = "generic"\n[limits]\nmax_output_chars = 2000\n[[views]]\nid = "all"\nrenderer = "catalog"\noutput = "site/all.html"\n',
  );
  writeFileSync(path.join(root, 'docs', 'a.md'), '+++\nid = "DOC-A"\nkind = "document"\ntitle = "A"\n\n[relations]\nrelates_to = ["DOC-B"]\n+++\n# A\n\nText about limits. [B](b.md)\n');
  writeFileSync(path.join(root, 'docs', 'b.md'), `+++\nid = "DOC-B"\nkind = "document"\ntitle = "B"\n+++\n# B\n\n${'More text about limits and floors. '.repeat(400)}\n`);
  return root;
}

/** The text block of a raw result and its envelope, after checking both agree. */
function envelopeOf(r: RawResult, label: string): { text: string; envelope: Json } {
  const text = (r.content as { text: string }[])[0]!.text;
  const envelope = r.structuredContent as Json;
  assert.equal(text, JSON.stringify(envelope), `${label}: the text block is the envelope`);
  return { text, envelope };
}

/** Valid arguments for every tool of the application surface (`id` is a changeset of the bound writer). */
function validArguments(id: string): Record<string, Json> {
  const task = `${'limits floor change '.repeat(400)}`.slice(0, 10_000);
  return {
    docforge_bootstrap: {},
    docforge_sync: {},
    docforge_project_info: {},
    docforge_get_contract: {},
    docforge_get_node: { node_id: 'DOC-B' },
    docforge_get_logic: { node_id: 'DOC-A' },
    docforge_search: { query: 'limits floors' },
    docforge_filter_nodes: { kinds: ['document'] },
    docforge_backlinks: { node_id: 'DOC-B' },
    docforge_dependencies: { node_id: 'DOC-A' },
    docforge_impact: { node_id: 'DOC-B' },
    docforge_get_context: { query: 'limits', budget: 20_000 },
    docforge_get_task_context: { task_kind: 'change', task, budget: 200_000 },
    docforge_validate_project: {},
    docforge_render_status: {},
    docforge_visualize: { node_id: 'DOC-A' },
    docforge_stop_visualization: {},
    docforge_visualization_status: {},
    docforge_get_generation_diff: {},
    docforge_create_changeset: {},
    docforge_register_changes: { operations: [{ op: 'node_update', node_id: 'DOC-A', set: { status: 'draft' } }] },
    docforge_list_changesets: {},
    docforge_get_changeset: { changeset_id: id },
    docforge_rebase_changeset: { changeset_id: id },
    docforge_abandon_changeset: { changeset_id: 'CS-NONE' },
    docforge_propose_node_create: { changeset_id: id, node: { id: 'DOC-C', kind: 'document', title: 'C' }, path: 'docs/c.md', body: '# C\n' },
    docforge_propose_node_update: { changeset_id: id, node_id: 'DOC-B', set: { title: 'B2' } },
    docforge_propose_node_move: { changeset_id: id, node_id: 'DOC-B', new_path: 'docs/b2.md' },
    docforge_propose_relationship_update: { changeset_id: id, source_id: 'DOC-A', add: [{ relation: 'documents', target: 'DOC-B' }] },
    docforge_propose_node_delete: { changeset_id: 'CS-NONE', node_id: 'DOC-A' },
    docforge_validate_changeset: { changeset_id: id },
    docforge_get_changeset_diff: { changeset_id: id },
    docforge_preview_changeset: { changeset_id: id, view: 'all' },
    docforge_apply_changeset: { changeset_id: id, changeset_sha256: '0'.repeat(64) },
  };
}

/** Calls `tool` and checks the answer fits the effective limit and is never internal_error. */
async function fits(s: Server, tool: string, args: Json, label: string): Promise<Json> {
  const { text, envelope } = envelopeOf(await s.raw(tool as never, args), `${tool} ${label}`);
  assert.ok(text.length <= FLOOR, `${tool} ${label}: ${text.length} characters against ${FLOOR}`);
  assert.notEqual(envelope.error?.code, 'internal_error', `${tool} ${label}: ${envelope.error?.message}`);
  return envelope;
}

test('the floor is the measured 4,000 characters', () => {
  assert.equal(MIN_MAX_OUTPUT_CHARS, FLOOR);
});

test('a 255-character root in application mode at a configured 2000: raised to the floor with a warning; every tool answers within it, valid and invalid arguments alike', async () => {
  const root = projectWithRoot(255);
  assert.equal(root.length, 255);
  const s = await useServer(root, { mode: 'application', proposalWriter: 'agent', canonicalApplier: 'agent' });

  // The raise is a warning at its line; bootstrap and get_contract report the effective value.
  const validation = await fits(s, 'docforge_validate_project', {}, 'warning');
  assert.equal(validation.result.valid, true);
  assert.deepEqual(validation.result.items.filter((i: Json) => i.code === 'max_output_chars_raised').map((i: Json) => [i.severity, i.path, i.line]), [['warning', 'docforge.toml', 11]]);
  const boot = await fits(s, 'docforge_bootstrap', {}, 'compact');
  assert.equal(boot.ok, true, JSON.stringify(boot.error));
  assert.deepEqual(boot.result.compact, { reason: 'max_output_chars', full_contract: 'docforge_get_contract' });
  assert.equal(boot.result.session_contract.limits.max_output_chars, FLOOR);

  // get_contract's compact form keeps every record the contract requires.
  const contract = await fits(s, 'docforge_get_contract', {}, 'compact');
  assert.equal(contract.ok, true, JSON.stringify(contract.error));
  const c = contract.result;
  assert.equal(c.compact.reason, 'max_output_chars');
  assert.equal(c.limits.max_output_chars, FLOOR);
  const { tools } = await s.client.listTools();
  assert.deepEqual(c.tools, tools.map((t) => t.name));
  assert.deepEqual(c.read_only, tools.map((t) => t.annotations?.readOnlyHint === true));
  assert.equal(c.effective_policy.capability_mode, 'application');
  assert.equal(c.effective_policy.application.applier_id, 'agent');
  assert.match(c.effective_policy.policy_hash, /^[0-9a-f]{64}$/);
  assert.equal(c.capabilities.application_access.enabled, true);
  assert.deepEqual(Object.keys(c.relation_vocabulary.aliases).sort(), ['context', 'data', 'dependency', 'evidence', 'execution', 'implementation', 'structure']);
  assert.match(c.relation_vocabulary.vocabulary_hash, /^[0-9a-f]{64}$/);

  // A changeset of the bound writer for the changeset tools.
  const created = await fits(s, 'docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'DOC-A', set: { title: 'A2' } }] }, 'setup');
  assert.equal(created.ok, true, JSON.stringify(created.error));
  const id = String(created.result.changeset_id);
  const valid = validArguments(id);
  assert.deepEqual(Object.keys(valid).sort(), tools.map((t) => t.name).sort(), 'the table covers every registered tool');

  for (const tool of tools) {
    const args = valid[tool.name]!;
    await fits(s, tool.name, args, 'valid');
    const unknown = await fits(s, tool.name, { ...args, not_an_argument: 'x'.repeat(5000) }, 'unknown argument');
    assert.equal(unknown.ok, false, `${tool.name}: an unknown argument is refused`);
    const first = Object.keys((tool.inputSchema.properties ?? {}) as Json)[0];
    if (first !== undefined) {
      const wrong = await fits(s, tool.name, { ...args, [first]: { nested: 'y'.repeat(20_000) } }, `wrong ${first}`);
      assert.equal(wrong.ok, false, `${tool.name}: a wrong ${first} is refused`);
    }
  }
  await fits(s, 'docforge_stop_visualization', {}, 'cleanup');
});

test('docforge validate reports the raise as a warning with file and line; the descriptor stays valid', () => {
  const root = projectWithRoot(255);
  const out = execFileSync(process.execPath, [CLI_ENTRY, 'validate'], { cwd: root, encoding: 'utf8' });
  assert.match(out, /^warning max_output_chars_raised: docforge\.toml:11: \[limits\]\.max_output_chars = 2000 is below the floor of 4000 characters.*; 4000 is used$/m);
  assert.match(out, /valid/);
  const json = JSON.parse(execFileSync(process.execPath, [CLI_ENTRY, 'validate', '--json'], { cwd: root, encoding: 'utf8' })) as Json;
  assert.equal(json.valid, true);
  assert.deepEqual(json.issues.filter((i: Json) => i.code === 'max_output_chars_raised').map((i: Json) => [i.severity, i.path, i.line]), [['warning', 'docforge.toml', 11]]);
});

test('get_task_context pages at the floor: the plan of a 10,000-character task fits, and the pages reach every evidence item', async () => {
  const root = projectWithRoot(255);
  const s = await useServer(root);
  // Two searched words, then about 1,500 distinct words the plan cannot list one by one.
  const task = ['limits', 'floors', ...Array.from({ length: 2000 }, (_, i) => `unlisted${i}`)].join(' ').slice(0, 10_000);
  let cursor: string | undefined;
  const seen: string[] = [];
  for (let page = 0; page < 20; page += 1) {
    const e = await fits(s, 'docforge_get_task_context', { task_kind: 'change', task, budget: 200_000, ...(cursor ? { cursor } : {}) }, `page ${page}`);
    assert.equal(e.ok, true, JSON.stringify(e.error));
    assert.equal(e.result.plan.focus.mode, 'lexical');
    assert.ok(e.result.plan.focus.dropped_terms_total === undefined || e.result.plan.focus.dropped_terms_total >= e.result.plan.focus.dropped_terms.length);
    for (const item of e.result.items as Json[]) seen.push(String(item.id));
    cursor = e.result.page.next_cursor ?? undefined;
    if (!e.result.page.has_more) break;
  }
  assert.equal(cursor, undefined, 'the pages end');
  assert.deepEqual([...new Set(seen)].sort(), ['DOC-A', 'DOC-B']);
});
