// Regression (issue 8 item 7): the CLI refuses search/validate arguments with the same schema, code and message as MCP, exit 2, changing nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, sharedExampleProject } from './helpers/projects.js';
import { expectError, useServer } from './helpers/server.js';

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

describe('CLI arguments follow the MCP input schemas', async () => {
  const s = await useServer(sharedExampleProject());

  const cases: { argv: string[]; tool: 'docforge_search' | 'docforge_validate_project'; args: Record<string, unknown> }[] = [
    { argv: ['search', ''], tool: 'docforge_search', args: { query: '' } },
    { argv: ['search', 'x'.repeat(10_001)], tool: 'docforge_search', args: { query: 'x'.repeat(10_001) } },
    { argv: ['search', 'ledger', '--limit', '0'], tool: 'docforge_search', args: { query: 'ledger', limit: 0 } },
    { argv: ['search', 'ledger', '--limit', '10001'], tool: 'docforge_search', args: { query: 'ledger', limit: 10_001 } },
    { argv: ['validate', '--limit', '0'], tool: 'docforge_validate_project', args: { limit: 0 } },
  ];

  for (const c of cases) {
    test(`${c.argv.join(' ').slice(0, 40)}: exit 2 with the MCP error of ${c.tool}`, async () => {
      const root = exampleProjectCopy({ state: false });
      const run = cli([...c.argv, '-C', root]);
      assert.equal(run.status, 2, run.stdout + run.stderr);
      const wire = await expectError(s.call(c.tool, c.args), 'invalid_arguments');
      assert.equal(run.stderr, `docforge: ${wire.code}: ${wire.message}\n`);
      assert.equal(run.stdout, '');
      assert.equal(existsSync(path.join(root, '.docforge')), false, 'a refused command builds no index');
    });
  }

  test('a non-numeric --limit is refused by the schema too', () => {
    const run = cli(['search', 'ledger', '--limit', 'abc', '-C', exampleProjectCopy({ state: false })]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^docforge: invalid_arguments: Arguments of docforge_search do not match its input schema: \/limit must be integer\.\n$/);
  });
});
