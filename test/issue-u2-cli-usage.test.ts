// Pins new-user trial u2's CLI usage texts: an unknown command names the one it probably meant (`serch` -> `search`), an
// unknown option's message has balanced quotes, and `docforge node docs/x.md` names the node that file defines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI_ENTRY } from './helpers/paths.js';
import { sharedExampleProject } from './helpers/projects.js';

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

test('an unknown command names the nearest one; a far one names none; exit 2', () => {
  const typo = cli(['serch', 'ledger']);
  assert.equal(typo.status, 2);
  assert.equal(typo.stderr.split('\n')[0], 'docforge: unknown command "serch"; did you mean "search"?');
  const far = cli(['frobnicate']);
  assert.equal(far.status, 2);
  assert.equal(far.stderr.split('\n')[0], 'docforge: unknown command "frobnicate"');
  const json = JSON.parse(cli(['serch', '--json']).stdout) as { error: { code: string; message: string } };
  assert.deepEqual(json.error.code, 'invalid_arguments');
  assert.match(json.error.message, /did you mean "search"\?$/);
});

test('an unknown option says so with balanced quotes', () => {
  const run = cli(['search', '--bogus', 'x']);
  assert.equal(run.status, 2);
  const first = run.stderr.split('\n')[0]!;
  assert.equal(first, 'docforge: unknown option "--bogus" (to pass it as a positional argument, put it after "--": -- --bogus)');
  assert.equal((first.match(/"/g) ?? []).length % 2, 0);
  assert.equal((first.match(/'/g) ?? []).length % 2, 0);
});

test('docforge node with a source path suggests the node defined in that file', () => {
  const root = sharedExampleProject();
  // docs/components/ledger.md defines CMP-LEDGER (an id unlike its path): found through the source path.
  for (const given of ['docs/components/ledger.md', 'docs/components/ledger', './docs/components/ledger.md']) {
    const run = cli(['node', given, '-C', root]);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.equal(run.stderr.trimEnd(), `docforge: node_not_found: No node with id ${JSON.stringify(given)} exists. Did you mean "CMP-LEDGER"?`);
  }
  const json = JSON.parse(cli(['node', 'docs/components/ledger.md', '--json', '-C', root]).stdout) as { error: { details: Record<string, unknown> } };
  assert.deepEqual(json.error.details, { node_id: 'docs/components/ledger.md', did_you_mean: 'CMP-LEDGER' });
});
