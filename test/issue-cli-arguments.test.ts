// Regression (issue 8 item 7): the CLI refuses search/validate arguments with the same schema, code and message as MCP, exit 2, changing nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, MCP_ENTRY } from './helpers/paths.js';
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

describe('options that take one value, and log levels (command lines of docforge and docforge-mcp)', () => {
  const mcp = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [MCP_ENTRY, ...args], { encoding: 'utf8', input: '', env: { ...process.env, ...env }, timeout: 120_000 });

  test('a repeated option is a usage error (exit 2) naming it, never "the last one wins", and nothing is built', () => {
    const root = exampleProjectCopy({ state: false });
    for (const argv of [['sync', '-C', root, '-C', root], ['search', 'ledger', '--project-root', root, '--limit', '2', '--limit', '3']]) {
      const run = cli(argv);
      assert.equal(run.status, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^docforge: (-C|--limit) is given more than once; give it once\n/);
    }
    assert.equal(existsSync(path.join(root, '.docforge')), false);
    const served = mcp(['--project-root', root, '--project-root', path.dirname(root)]);
    assert.equal(served.status, 2);
    assert.equal(served.stdout, '');
    assert.match(served.stderr, /^docforge-mcp: --project-root is given more than once; give it once\n/);
  });

  test('an unknown --log-level is a usage error without a stack trace; an unknown DOCFORGE_LOG_LEVEL falls back to info', () => {
    const root = exampleProjectCopy({ state: false });
    const bad = mcp(['--project-root', root, '--log-level', 'nope']);
    assert.equal(bad.status, 2);
    // Every malformed flag prints the problem, then the usage (issue 30, stop 49: before, this one printed no usage).
    assert.match(bad.stderr, /^docforge-mcp: --log-level must be one of fatal, error, warn, info, debug, trace, silent \(got "nope"\)\nUsage: docforge-mcp /);
    assert.doesNotMatch(bad.stderr, /\n\s+at /);
    // With stdin closed at once the server starts, logs at info and exits cleanly.
    const env = mcp(['--project-root', root], { DOCFORGE_LOG_LEVEL: 'bogus' });
    assert.equal(env.status, 0, env.stderr);
    assert.match(env.stderr, /^docforge-mcp: DOCFORGE_LOG_LEVEL "bogus" is not one of fatal, error, warn, info, debug, trace, silent; logging at info\n/);
    assert.doesNotMatch(env.stderr, /\n\s+at /);
    const run = spawnSync(process.execPath, [CLI_ENTRY, 'validate', '-C', root], { encoding: 'utf8', env: { ...process.env, DOCFORGE_LOG_LEVEL: 'bogus' } });
    assert.ok(run.status === 0 || run.status === 1, run.stderr);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
  });
});
