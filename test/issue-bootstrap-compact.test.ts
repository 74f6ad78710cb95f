// Pins the CONFORMANCE row "bootstrap fits the smallest allowed max_output_chars": at 2,000 characters docforge_bootstrap answers its compact form over stdio (binding, active index, policy hash, limits) pointing to docforge_get_contract; with room it answers the full form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/projects.js';
import { MIN_MAX_OUTPUT_CHARS } from '@docforge/project';
import { useServer } from './helpers/server.js';

function project(maxOutputChars: number): string {
  const root = tempDir('docforge-boot-');
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docforge.toml'), `schema_version = 1\n[project]\nid = "boot"\nname = "Boot"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n[limits]\nmax_output_chars = ${maxOutputChars}\n`);
  writeFileSync(path.join(root, 'docs', 'a.md'), '# A\n\nText.\n');
  return root;
}

test('at max_output_chars 2000 (raised to the 4,000-character floor) bootstrap answers its compact form; at 60000 the full form', async () => {
  const small = await useServer(project(2000));
  const boot = await small.call('docforge_bootstrap');
  assert.equal(boot.ok, true, JSON.stringify(boot.error));
  assert.ok(JSON.stringify(boot).length <= MIN_MAX_OUTPUT_CHARS, `${JSON.stringify(boot).length} chars`);
  const r = boot.result!;
  assert.deepEqual(r.compact, { reason: 'max_output_chars', full_contract: 'docforge_get_contract' });
  assert.equal(r.binding.fixed, true);
  assert.equal(r.binding.project_id, 'boot');
  assert.ok(String(r.index.active_index_path).endsWith('.sqlite'));
  assert.match(r.effective_policy.policy_hash, /^[0-9a-f]{64}$/);
  assert.equal(r.session_contract.version, 1);
  assert.equal(r.session_contract.limits.max_output_chars, MIN_MAX_OUTPUT_CHARS, 'the effective limit');
  assert.ok(r.capabilities.tool_count > 5);

  const large = await useServer(project(60_000));
  const full = await large.call('docforge_bootstrap');
  assert.equal(full.ok, true, JSON.stringify(full.error));
  assert.equal(full.result!.compact, undefined);
  assert.ok(Array.isArray(full.result!.session_contract.workflow));
  assert.ok(Array.isArray(full.result!.capabilities.tools));
  assert.equal(full.result!.effective_policy.policy_hash, r.effective_policy.policy_hash);
});
