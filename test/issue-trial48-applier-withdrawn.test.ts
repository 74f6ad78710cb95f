// Break-it trial 48 (issue 30): a running `docforge-mcp --canonical-applier` kept applying after the
// project removed `[adapter] canonical_applier = "generic"` from docforge.toml: the opt-in was read
// once at start. Now every apply checks that the current descriptor still declares the applier the
// process bound, and answers `canonical_applier_unavailable` (nothing written) while it does not;
// restoring the setting lets the same changeset apply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { treeHashes } from './helpers/hashes.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

test('an apply after the project withdrew its applier opt-in is canonical_applier_unavailable and writes nothing', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const reg = await server.call('docforge_register_changes', { operations: [{ op: 'node_create', node: { id: 'MEMO-OPT', kind: 'document', title: 'Opt-in memo' }, path: 'docs/guides/opt-in.md', body: 'Text.\n' }] });
  assert.equal(reg.result!.status, 'ready', JSON.stringify(reg.result!.findings));
  const descriptor = path.join(root, 'docforge.toml');
  const original = readFileSync(descriptor, 'utf8');
  assert.match(original, /^canonical_applier = "generic"$/m);
  writeFileSync(descriptor, original.replace(/^canonical_applier = "generic"$/m, ''));
  const before = treeHashes(root);
  const args = { changeset_id: reg.result!.changeset_id, changeset_sha256: reg.result!.changeset_sha256 };
  const refused = await server.call('docforge_apply_changeset', args);
  assert.equal(refused.ok, false);
  assert.equal(refused.error!.code, 'canonical_applier_unavailable', JSON.stringify(refused.error));
  assert.equal(refused.error!.details.bound, 'generic');
  assert.deepEqual(treeHashes(root), before, 'nothing was written');
  assert.equal(existsSync(path.join(root, 'docs/guides/opt-in.md')), false);
  writeFileSync(descriptor, original);
  const applied = await server.call('docforge_apply_changeset', args);
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  assert.ok(existsSync(path.join(root, 'docs/guides/opt-in.md')));
});
