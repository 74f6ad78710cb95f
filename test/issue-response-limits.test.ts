// Pins issue 30 item 8 (CONFORMANCE "bootstrap answers at the smallest allowed max_output_chars"): with a 255-character project root, at a configured max_output_chars of 2000 (raised to the 4,000-character floor), bootstrap answers its compact form naming the root once, every tool's answer (errors included) fits the limit, a preflight refusal fits it, and a root longer than 255 characters is refused at start with project_root_invalid naming the limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIN_MAX_OUTPUT_CHARS } from '@docforge/project';
import { tempDir } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';

const MAX = 2000;
/** The limit the server applies: 2000 is raised to the floor (issue 30, item 8). */
const EFFECTIVE = MIN_MAX_OUTPUT_CHARS;

/** A directory whose real path is exactly `length` characters, with a small project in it. */
function projectWithRoot(length: number): string {
  let root = tempDir('docforge-limits-');
  while (root.length < length) {
    const room = length - root.length - 1;
    root = room > 0 ? path.join(root, 'r'.repeat(Math.min(60, room))) : `${root}s`;
  }
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), `schema_version = 1\n[project]\nid = "limits"\nname = "Limits"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n[limits]\nmax_output_chars = ${MAX}\n`);
  writeFileSync(path.join(root, 'docs', 'a.md'), '+++\nid = "DOC-A"\nkind = "document"\ntitle = "A"\n+++\n# A\n\nText about limits. [B](b.md)\n');
  writeFileSync(path.join(root, 'docs', 'b.md'), '+++\nid = "DOC-B"\nkind = "document"\ntitle = "B"\n+++\n# B\n\nMore text.\n');
  return root;
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

test('a 255-character root at max_output_chars 2000 (raised to the floor): bootstrap compact names the root once, and every answer fits', async () => {
  const root = projectWithRoot(255);
  assert.equal(root.length, 255);
  const s = await useServer(root, { proposalWriter: 'agent' });
  const raw = await s.raw('docforge_bootstrap');
  const text = (raw.content as { text: string }[])[0]!.text;
  const boot = raw.structuredContent as Json;
  assert.equal(boot.ok, true, JSON.stringify(boot.error));
  assert.ok(text.length <= EFFECTIVE, `${text.length} characters`);
  assert.equal(boot.result.session_contract.limits.max_output_chars, EFFECTIVE);
  assert.deepEqual(boot.result.compact, { reason: 'max_output_chars', full_contract: 'docforge_get_contract' });
  assert.equal(boot.result.binding.project_root, root);
  assert.equal(boot.result.binding.paths_relative_to, 'project_root');
  assert.equal(occurrences(JSON.stringify(boot.result), root), 1, 'the compact result names the root once');
  assert.ok(String(boot.result.index.active_index_path).endsWith('.sqlite'));
  // Every listed tool answers within the limit, successes and structured errors alike.
  const { tools } = await s.client.listTools();
  for (const tool of tools) {
    const r = await s.raw(tool.name as never, {});
    const t = (r.content as { text: string }[])[0]!.text;
    assert.ok(t.length <= EFFECTIVE, `${tool.name}: ${t.length} characters`);
  }
});

test('a preflight refusal fits max_output_chars even when the sync error is long', async () => {
  const root = projectWithRoot(255);
  const s = await useServer(root, { proposalWriter: 'agent' });
  assert.equal((await s.call('docforge_bootstrap')).ok, true);
  const file = path.join(root, 'docforge.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('[limits]', `[limits]\n${'k'.repeat(1900)} = 1`));
  for (const [tool, args] of [
    ['docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'DOC-A', set: { status: 'draft' } }] }],
    ['docforge_create_changeset', {}],
    ['docforge_get_node', { node_id: 'DOC-MISSING' }],
  ] as const) {
    const r = await s.raw(tool, args as Json);
    const t = (r.content as { text: string }[])[0]!.text;
    assert.ok(t.length <= EFFECTIVE, `${tool}: ${t.length} characters`);
    const envelope = r.structuredContent as Json;
    assert.equal(envelope.ok, false, tool);
    assert.equal(typeof envelope.error.code, 'string');
  }
  const refusal = await expectError(s.call('docforge_create_changeset'), 'result_too_large');
  assert.equal(refusal.details.stage, 'preflight');
  assert.equal(refusal.details.mutation_committed, false);
});

test('a root longer than 255 characters is refused at start with project_root_invalid naming the limit', async () => {
  const root = projectWithRoot(256);
  const s = await useServer(root);
  const error = await expectError(s.call('docforge_search', { query: 'limits' }), 'project_root_invalid');
  assert.equal(error.details.limit_chars, 255);
  assert.equal(error.details.root_chars, 256);
  assert.match(error.message, /255 characters/);
});
