// Pins `docforge changeset list|show|diff|validate|abandon` on a changeset registered over MCP: text and --json output, the uncolored diff off a terminal, and abandon allowed only to the changeset's own writer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

test('docforge changeset list, show, diff, validate and abandon', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const registered = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' }, body: '# Double-entry ledger\n\nRetired.\n' }] })).result!;
  await server.close();
  const id = registered.changeset_id as string;

  const list = cli(['changeset', 'list', '-C', root]);
  assert.equal(list.status, 0, list.stderr);
  assert.match(list.stdout, new RegExp(`^${id}\\s+ready\\s+agent\\s+1 op`, 'm'));
  const listJson = JSON.parse(cli(['changeset', 'list', '-C', root, '--json']).stdout);
  assert.deepEqual(listJson.items.map((i: { changeset_sha256: string }) => i.changeset_sha256), [registered.changeset_sha256]);

  const show = cli(['changeset', 'show', id, '-C', root]);
  assert.match(show.stdout, new RegExp(`sha256 ${registered.changeset_sha256}`));
  assert.match(show.stdout, /\[0\] node_update CMP-LEDGER/);

  const diff = cli(['changeset', 'diff', id, '-C', root]);
  assert.equal(diff.status, 0, diff.stderr);
  assert.match(diff.stdout, /^-status: "accepted"$/m);
  assert.match(diff.stdout, /^\+status: "deprecated"$/m);
  assert.match(diff.stdout, /^\+Retired\.$/m);
  assert.ok(!diff.stdout.includes('\x1b['), 'no color off a terminal');
  const diffJson = JSON.parse(cli(['changeset', 'diff', id, '-C', root, '--json']).stdout);
  assert.equal(diffJson.changes[0].after.status, 'deprecated');

  const validate = cli(['changeset', 'validate', id, '-C', root, '--json']);
  assert.equal(validate.status, 0, validate.stdout);
  assert.equal(JSON.parse(validate.stdout).valid, true);

  const noWriter = cli(['changeset', 'abandon', id, '-C', root]);
  assert.equal(noWriter.status, 2);
  const wrongWriter = cli(['changeset', 'abandon', id, '-C', root, '--writer', 'someone-else']);
  assert.equal(wrongWriter.status, 1);
  assert.match(wrongWriter.stderr, /changeset_not_writable/);
  const abandon = cli(['changeset', 'abandon', id, '-C', root, '--writer', 'agent']);
  assert.equal(abandon.status, 0, abandon.stderr);
  const all = JSON.parse(cli(['changeset', 'list', '-C', root, '--all', '--json']).stdout);
  assert.equal(all.items[0].status, 'abandoned');
  assert.equal(JSON.parse(cli(['changeset', 'list', '-C', root, '--json']).stdout).items.length, 0);
});
