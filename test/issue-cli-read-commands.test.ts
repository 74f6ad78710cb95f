// Pins issue 30 item 12: the CLI asks what an agent asks. `docforge node`, `backlinks`, `deps`, `impact` and `context` take their tools' arguments and limits; `--json` prints exactly the tool's structuredContent (compared with the same call through the MCP SDK client on the examples/); the text form summarises it; bad arguments are usage errors (exit 2, with the command's usage) and a tool error exits 1 with its code.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { sharedExampleProject } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

/** One finished `docforge` run: its exit status and output. */
interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `docforge ARGS`; at most as many runs at once as the machine has cores (each run starts a
 * docforge-mcp), so the runs of one test overlap instead of waiting on each other.
 */
function cli(args: string[]): Promise<Run> {
  return slots.run(() => new Promise((resolve) => {
    execFile(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = (error as { code?: unknown } | null)?.code;
      resolve({ status: error === null ? 0 : typeof code === 'number' ? code : null, stdout, stderr });
    });
  }));
}

/** A counting semaphore over async jobs. */
function limiter(size: number): { run<T>(job: () => Promise<T>): Promise<T> } {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(job) {
      if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      active += 1;
      try {
        return await job();
      } finally {
        active -= 1;
        waiting.shift()?.();
      }
    },
  };
}
const slots = limiter(Math.max(2, os.availableParallelism()));

describe('the CLI read commands on examples/', async () => {
  const root = sharedExampleProject();
  const server = await useServer(root, { mode: 'read' });

  // Each command line with the MCP call it must answer exactly as.
  const cases: { argv: string[]; tool: Parameters<typeof server.call>[0]; args: Json }[] = [
    { argv: ['node', 'REQ-PAY-001'], tool: 'docforge_get_node', args: { node_id: 'REQ-PAY-001' } },
    { argv: ['node', 'REQ-PAY-001', '--no-body'], tool: 'docforge_get_node', args: { node_id: 'REQ-PAY-001', include_body: false } },
    { argv: ['node', 'REQ-PAY-001', '--body-offset', '10', '--max-body-chars', '40'], tool: 'docforge_get_node', args: { node_id: 'REQ-PAY-001', body_offset: 10, max_body_chars: 40 } },
    { argv: ['backlinks', 'REQ-PAY-001', '--limit', '2'], tool: 'docforge_backlinks', args: { node_id: 'REQ-PAY-001', limit: 2 } },
    { argv: ['backlinks', 'REQ-PAY-001', '--relations', 'implements,verifies'], tool: 'docforge_backlinks', args: { node_id: 'REQ-PAY-001', relations: ['implements', 'verifies'] } },
    { argv: ['deps', 'REQ-PAY-001', '--depth', '2', '--limit', '5'], tool: 'docforge_dependencies', args: { node_id: 'REQ-PAY-001', depth: 2, limit: 5 } },
    { argv: ['impact', 'REQ-PAY-001', '--depth', '3'], tool: 'docforge_impact', args: { node_id: 'REQ-PAY-001', depth: 3 } },
    { argv: ['deps', 'REQ-PAY-001', '--relations', 'implments'], tool: 'docforge_dependencies', args: { node_id: 'REQ-PAY-001', relations: ['implments'] } },
    { argv: ['context', 'refund', 'ledger', '--limit', '3'], tool: 'docforge_get_context', args: { query: 'refund ledger', limit: 3 } },
    { argv: ['context', '--node', 'REQ-PAY-001', '--budget', '500'], tool: 'docforge_get_context', args: { node_id: 'REQ-PAY-001', budget: 500 } },
    { argv: ['context', '--task-kind', 'change', 'Change how refunds are posted', '--limit', '4'], tool: 'docforge_get_task_context', args: { task_kind: 'change', task: 'Change how refunds are posted', limit: 4 } },
  ];

  // Every case's run starts now; each test below awaits its own.
  const runs = cases.map(({ argv }) => cli([...argv, '-C', root, '--json']));

  for (const [i, { argv, tool, args }] of cases.entries()) {
    test(`docforge ${argv.join(' ')} --json is ${tool}'s structuredContent`, async () => {
      const run = await runs[i]!;
      assert.equal(run.status, 0, run.stderr);
      const expected = await server.call(tool, args);
      assert.equal(expected.ok, true, JSON.stringify(expected.error));
      assert.deepEqual(JSON.parse(run.stdout), expected);
    });
  }

  test('the text forms summarise the same results', async () => {
    const [node, back, impact, task, typo] = await Promise.all([
      cli(['node', 'REQ-PAY-001', '-C', root]),
      cli(['backlinks', 'REQ-PAY-001', '--limit', '1', '-C', root]),
      cli(['impact', 'REQ-PAY-001', '-C', root]),
      cli(['context', '--task-kind', 'change', 'Change how refunds are posted', '-C', root]),
      cli(['backlinks', 'REQ-PAY-001', '--relations', 'implments', '-C', root]),
    ]);
    assert.equal(node.status, 0, node.stderr);
    assert.match(node.stdout, /^REQ-PAY-001 {2}\[requirement\] {2}Card payments are authorized within 2 seconds\n/);
    assert.match(node.stdout, /docs\/requirements\/pay-001-authorization-latency\.md:1-\d+/);
    assert.match(node.stdout, /--implemented_by--> CMP-AUTH-GATEWAY/);
    assert.equal(back.status, 0, back.stderr);
    assert.match(back.stdout, /--implements-->  REQ-PAY-001/);
    assert.match(back.stdout, /\(more: docforge backlinks ID --cursor \S+\)/);
    assert.match(impact.stdout, /depth 1: CMP-AUTH-GATEWAY --implements--> REQ-PAY-001/);
    assert.match(impact.stdout, /\(examined \d+ edges/);
    assert.equal(task.status, 0, task.stderr);
    assert.match(task.stdout, /task change, focus lexical/);
    // Each evidence item shows where it is and its excerpt, indented under it.
    assert.match(task.stdout, /\n\S+ {2}\[\w+\] {2}.+ {2}docs\/\S+:\d+( {2}depth \d+)?\n {4}\S/);
    assert.match(task.stdout, /capsule [0-9a-f]{16}/);
    assert.equal(typo.status, 0, typo.stderr);
    assert.match(typo.stdout, /^no backlinks\n\(no relations value "implments" in this index; did you mean "implements"\?\)\n/);
  });

  test('a cursor from one page reads the next, as over MCP', async () => {
    const first = JSON.parse((await cli(['backlinks', 'REQ-PAY-001', '--limit', '1', '-C', root, '--json'])).stdout) as Json;
    const cursor = first.result.next_cursor as string;
    assert.equal(typeof cursor, 'string');
    const next = await cli(['backlinks', 'REQ-PAY-001', '--limit', '1', '--cursor', cursor, '-C', root, '--json']);
    assert.equal(next.status, 0, next.stderr);
    assert.deepEqual(JSON.parse(next.stdout), await server.call('docforge_backlinks', { node_id: 'REQ-PAY-001', limit: 1, cursor }));
  });

  test('bad arguments are usage errors (exit 2, the command usage), refused before any server starts', async () => {
    const bad: [string[], RegExp][] = [
      [['node'], /docforge: node needs a node ID/],
      [['node', 'A', 'B'], /docforge: node takes one node ID \(got 2 words/],
      [['deps', 'REQ-PAY-001', '--depth', '99'], /invalid_arguments: .*\/depth must be <= 10/],
      [['impact', 'REQ-PAY-001', '--depth', 'deep'], /invalid_arguments: .*\/depth must be integer/],
      [['backlinks', 'REQ-PAY-001', '--limit', '0'], /invalid_arguments: .*\/limit must be >= 1/],
      [['node', 'REQ-PAY-001', '--depth', '2'], /docforge: node does not take --depth/],
      [['context'], /docforge: context needs a QUERY, --node ID, or --task-kind KIND with a TASK/],
      [['context', '--task-kind', 'change'], /docforge: context with --task-kind needs the TASK text/],
      [['context', '--task-kind', 'refactor', 'x'], /invalid_arguments: .*\/task_kind must be equal to one of the allowed values/],
      // A blank argument is a mistake, never "no argument" (it would open the whole map).
      [['viewer', 'open', ''], /docforge: viewer open was given an empty argument/],
      [['node', ' '], /docforge: node was given an empty argument/],
    ];
    const runs = await Promise.all(bad.map(([argv]) => cli([...argv, '-C', root])));
    for (const [i, [argv, message]] of bad.entries()) {
      const run = runs[i]!;
      assert.equal(run.status, 2, `${argv.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, argv.join(' '));
      assert.match(run.stderr, /Usage: docforge /, argv.join(' '));
      assert.equal(run.stdout, '');
    }
  });

  test('with --json a refused command line is the invalid_arguments error object on stdout alone (exit 2)', async () => {
    const lines = [['deps', 'REQ-PAY-001', '--bogus'], ['sync', 'extra'], ['frob'], ['affected', '--json'], ['search', ' '], ['viewer', 'open', ''], ['render', 'a', 'b'],
      ['changeset', 'frob'], ['viewer', 'frob'], ['changeset', 'abandon', 'x', '--writer', 'a', 'b'], ['check', '--format', 'xml'], ['changeset', 'apply', 'x'], ['review', 'REQ-PAY-001'], ['init', '']];
    const runs = await Promise.all(lines.map((argv) => cli([...argv, '-C', root, '--json'])));
    for (const [i, run] of runs.entries()) {
      assert.equal(run.status, 2, lines[i]!.join(' '));
      assert.equal(run.stderr, '', lines[i]!.join(' '));
      const error = (JSON.parse(run.stdout) as Json).error;
      assert.equal(error.code, 'invalid_arguments', lines[i]!.join(' '));
      assert.equal(error.remediation, 'fix_arguments');
      assert.ok(typeof error.message === 'string' && error.message.length > 0);
    }
  });

  // Issue 30, stop 49: the exit code follows the error code, not the moment it was raised. `init` of a
  // missing folder is invalid_arguments (exit 2, before: 1); `sync -C` a missing root is
  // project_root_invalid, an operational error (exit 1, unchanged).
  test('with --json an error of a command that ran is its error object on stdout, the text line on stderr, exit by its code', async () => {
    const missing = path.join(os.tmpdir(), `docforge-absent-${process.pid}`);
    const runs = await Promise.all([cli(['init', missing, '--json']), cli(['sync', '-C', missing, '--json'])]);
    for (const [i, [code, status]] of [['invalid_arguments', 2], ['project_root_invalid', 1]].entries()) {
      const run = runs[i]!;
      assert.equal(run.status, status, `run ${i}: ${run.stderr}`);
      const error = (JSON.parse(run.stdout) as Json).error;
      assert.equal(error.code, code, JSON.stringify(error));
      assert.match(run.stderr, new RegExp(`^docforge: ${String(error.code)}: `));
    }
  });

  test('a tool error exits 1 with its code; --json still prints the envelope', async () => {
    const missing = await cli(['node', 'NO-SUCH-NODE', '-C', root, '--json']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /docforge: node_not_found: /);
    assert.equal((JSON.parse(missing.stdout) as Json).error.code, 'node_not_found');
  });
});
