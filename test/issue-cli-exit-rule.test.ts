// Pins one rule for the CLI's errors (issue 30, the third trial of stop 48), through the real
// binaries: the exit code follows the error code (invalid_arguments and invalid_cursor exit 2
// wherever they are raised: option parser, tool schema, running command or tool handler; every
// other code exits 1); every --json error is `{schema_version: 1, ok: false, error}` (a read
// command: the tool's envelope, which adds notice and project); a refused line of a known command
// prints that command's usage, not the global one (wherever it is refused); docforge-mcp prints its usage after every
// malformed flag; a huge echoed value is cut; and `docforge changeset rebase ID --writer W` mirrors
// docforge_rebase_changeset (the hint of `changeset list` names it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, MCP_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, removeDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the docforge CLI with stdin closed. */
function cli(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('the exit code follows the error code; every --json error has one shape', async (t) => {
  const root = exampleProjectCopy();
  t.after(() => removeDir(root));
  // [command line (run with -C root unless it names its folder), code, exit code, read command (the tool envelope)]
  const cases: [string[], string, number, boolean][] = [
    [['search', 'ledger', '--limit', '500'], 'invalid_arguments', 2, false], // over max_results 200: raised by the running command (before: 1)
    [['search', 'ledger', '--limit', 'abc'], 'invalid_arguments', 2, false], // refused by docforge_search's schema
    [['node', 'CMP-LEDGER', '--section', 'nope'], 'invalid_arguments', 2, true], // raised by the tool's handler (before: 1)
    [['backlinks', 'CMP-LEDGER', '--cursor', 'notacursor'], 'invalid_cursor', 2, true], // a cursor DocForge never made (before: 1)
    [['affected', '--depth', '99'], 'invalid_arguments', 2, false],
    [['init', root], 'invalid_arguments', 2, false], // over an existing docforge.toml (before: 1)
    [['init', path.join(root, 'no-such-folder')], 'invalid_arguments', 2, false], // (before: 1)
    [['node', 'NO-SUCH-NODE'], 'node_not_found', 1, true],
    [['changeset', 'show', 'cs-nope'], 'changeset_not_found', 1, false],
    [['render', 'NOPE'], 'view_not_found', 1, false],
    [['sync', '-C', path.join(root, 'gone')], 'project_root_invalid', 1, false],
  ];
  const lines = cases.map(([argv]) => (argv[0] === 'init' || argv.includes('-C') ? argv : [...argv, '-C', root]));
  const texts = await Promise.all(lines.map((argv) => cli(argv)));
  const jsons = await Promise.all(lines.map((argv) => cli([...argv, '--json'])));
  for (const [i, [, code, status, read]] of cases.entries()) {
    const what = lines[i]!.join(' ');
    const text = texts[i]!;
    assert.equal(text.status, status, `${what}: ${text.stderr}`);
    // A usage refusal's line is `docforge: MESSAGE` (its code is in the JSON); an error raised later names its code.
    assert.match(text.stderr, code === 'invalid_arguments' ? /^docforge: / : new RegExp(`^docforge: ${code}: `), what);
    assert.equal(text.stdout, '', what);
    const json = jsons[i]!;
    assert.equal(json.status, status, `${what} --json: ${json.stderr}`);
    const document = JSON.parse(json.stdout) as Json;
    assert.deepEqual(Object.keys(document), read ? ['schema_version', 'ok', 'notice', 'project', 'error'] : ['schema_version', 'ok', 'error'], what);
    assert.equal(document.schema_version, 1, what);
    assert.equal(document.ok, false, what);
    assert.deepEqual(Object.keys(document.error), ['code', 'message', 'remediation', 'details'], what);
    assert.equal(document.error.code, code, what);
    if (read) assert.equal(document.project.root, root, what);
  }
  // `init /nonexistent` says what is wrong with the folder.
  assert.match(texts[6]!.stderr, /cannot initialize .*no-such-folder: not an existing directory/);
  // A refused command line has the same shape (and nothing on stderr).
  const refused = await cli(['sync', '--depth', '3', '-C', root, '--json']);
  assert.equal(refused.status, 2);
  assert.equal(refused.stderr, '');
  assert.deepEqual(JSON.parse(refused.stdout), { schema_version: 1, ok: false, error: { code: 'invalid_arguments', message: 'sync does not take --depth', remediation: 'fix_arguments', details: {} } });
});

test('a refused line of a known command prints that command\'s usage; an unknown command the global one', async (t) => {
  const root = exampleProjectCopy({ state: false });
  t.after(() => removeDir(root));
  const lines: [string[], string][] = [
    [['sync', '--depth', '3'], 'sync'], // an option of another command
    [['sync', '--bogus'], 'sync'], // an unknown option: refused by the parser before the command is known
    [['search', 'x', '--bogus'], 'search'],
    [['validate', '--limit', '5', '--limit', '6'], 'validate'], // a repeated option
    [['changeset', '--writer', 'a', 'list', '--frob'], 'changeset'],
    [['sync', 'extra'], 'sync'], // a word a command does not take
    [['search', '--kinds', ',', 'x'], 'search'], // a malformed option value
    [['render', 'a', 'b'], 'render'],
    // Refused inside the command's own module.
    [['check', '--format', 'xml'], 'check'],
    [['changeset'], 'changeset'],
    [['viewer', 'frob'], 'viewer'],
    [['affected', '--depth', '99'], 'affected'],
    [['review', 'REQ-PAY-001'], 'review'],
  ];
  const runs = await Promise.all(lines.map(([argv]) => cli([...argv, '-C', root])));
  for (const [i, [argv, command]] of lines.entries()) {
    const run = runs[i]!;
    const what = argv.join(' ');
    assert.equal(run.status, 2, `${what}: ${run.stderr}`);
    assert.match(run.stderr, new RegExp(`\\nUsage: docforge ${command} \\.\\.\\.\\n\\n  ${command} `), what);
    assert.doesNotMatch(run.stderr, /Commands:/, `${what}: not the global usage`);
    assert.match(run.stderr, /-C, --project-root DIR/, what);
  }
  // `changeset`'s usage lists every subcommand, rebase included.
  assert.match(runs[4]!.stderr, /changeset rebase ID --writer W/);
  for (const argv of [['frob', '--bogus'], ['--bogus']]) {
    const run = await cli(argv);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /\nUsage: docforge <command> \[options\]\n\nCommands:/, argv.join(' '));
  }
});

test('docforge-mcp prints its usage after every malformed flag (exit 2, nothing on stdout)', async (t) => {
  const root = exampleProjectCopy({ state: false });
  t.after(() => removeDir(root));
  const lines: [string[], RegExp][] = [
    [['--capability-mode', 'bogus'], /^docforge-mcp: --capability-mode must be one of read, proposal, application, operator \(got "bogus"\)\n/],
    [['--log-level', 'loud'], /^docforge-mcp: --log-level must be one of .* \(got "loud"\)\n/],
    [['--proposal-writer', 'bad id!'], /^docforge-mcp: --proposal-writer "bad id!" is not a valid id/],
    [['--capability-mode', 'application'], /^docforge-mcp: Capability mode application requires --canonical-applier ID/],
    [['--bogus'], /^docforge-mcp: Unknown option '--bogus'/],
  ];
  for (const [argv, message] of lines) {
    const run = spawnSync(process.execPath, [MCP_ENTRY, '--project-root', root, ...argv], { encoding: 'utf8', input: '', timeout: 120_000 });
    const what = argv.join(' ');
    assert.equal(run.status, 2, `${what}: ${run.stderr}`);
    assert.equal(run.stdout, '', what);
    assert.match(run.stderr, message, what);
    assert.match(run.stderr, /\nUsage: docforge-mcp --project-root ABSOLUTE_DIR /, what);
  }
});

test('a 5,000-character bad project id is echoed cut, in text and in JSON', async (t) => {
  const root = exampleProjectCopy({ state: false });
  t.after(() => removeDir(root));
  const file = path.join(root, 'docforge.toml');
  const descriptor = readFileSync(file, 'utf8');
  assert.match(descriptor, /^id = "acme-payments"$/m);
  writeFileSync(file, descriptor.replace(/^id = "acme-payments"$/m, `id = "${'A'.repeat(5000)}"`));
  const [text, json] = await Promise.all([cli(['sync', '-C', root]), cli(['sync', '-C', root, '--json'])]);
  assert.equal(text.status, 1, text.stderr);
  const line = text.stderr.split('\n')[0]!;
  assert.match(line, /^docforge: descriptor_invalid: docforge\.toml:\d+: \[project\]\.id must be .*got "AAAA/);
  assert.match(line, /… \(\d+ more characters\)$/);
  assert.ok(text.stderr.length < 1500, `stderr is ${text.stderr.length} characters`);
  assert.equal(json.status, 1);
  const error = (JSON.parse(json.stdout) as Json).error;
  assert.equal(error.code, 'descriptor_invalid');
  assert.ok(error.message.length <= 1000 + '… (NNNN more characters)'.length, `message is ${error.message.length} characters`);
  assert.ok(json.stdout.length < 2000, `stdout is ${json.stdout.length} characters`);
});

test('docforge changeset rebase ID --writer W does what docforge_rebase_changeset does', async (t) => {
  const root = exampleProjectCopy();
  t.after(() => removeDir(root));
  const server = await useServer(root, { proposalWriter: 'agent' });
  const registered = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }] })).result!;
  await server.close();
  const id = registered.changeset_id as string;
  // A canonical edit elsewhere: the changeset is stale (base_changed), and list names the CLI command.
  appendFileSync(path.join(root, 'docs/runbooks/rb-005-settlement-failed.md'), '\nOne more line.\n');
  const list = await cli(['changeset', 'list', '-C', root]);
  assert.equal(list.status, 0, list.stderr);
  assert.match(list.stdout, /1 stale changeset\(s\) not listed: their base changed; see them with --all, then docforge changeset rebase ID --writer W/);
  assert.doesNotMatch(list.stdout, /docforge_rebase_changeset/);

  // Usage errors: no writer, a malformed id (the tool's input schema), a malformed writer id.
  const usage = await Promise.all([['changeset', 'rebase', id], ['changeset', 'rebase', 'bad id!', '--writer', 'agent'], ['changeset', 'rebase', id, '--writer', 'bad id!'], ['changeset', 'rebase', '--writer', 'agent']].map((argv) => cli([...argv, '-C', root, '--json'])));
  for (const run of usage) {
    assert.equal(run.status, 2, run.stdout);
    assert.equal((JSON.parse(run.stdout) as Json).error.code, 'invalid_arguments');
  }
  const other = await cli(['changeset', 'rebase', id, '--writer', 'someone-else', '-C', root]);
  assert.equal(other.status, 1);
  assert.match(other.stderr, /^docforge: changeset_not_writable: /);

  const rebased = await cli(['changeset', 'rebase', id, '--writer', 'agent', '-C', root, '--json']);
  assert.equal(rebased.status, 0, rebased.stderr);
  const result = JSON.parse(rebased.stdout) as Json;
  assert.equal(result.outcome, 'rebased');
  assert.equal(result.status, 'ready');
  assert.equal(result.changeset_id, id);
  assert.notEqual(result.changeset_sha256, registered.changeset_sha256);
  assert.equal(result.receipt.event, 'rebased');
  assert.equal(result.valid, true);
  const show = JSON.parse((await cli(['changeset', 'show', id, '-C', root, '--json'])).stdout) as Json;
  assert.equal(show.changeset.status, 'ready');
  assert.equal(show.changeset.changeset_sha256, result.changeset_sha256);

  // The same again over MCP: the tool's result holds every field the command prints, with the same outcome.
  appendFileSync(path.join(root, 'docs/runbooks/rb-005-settlement-failed.md'), '\nAnd one more.\n');
  const again = await useServer(root, { proposalWriter: 'agent' });
  const tool = (await again.call('docforge_rebase_changeset', { changeset_id: id })).result!;
  const info = (await again.call('docforge_project_info')).project!;
  await again.close();
  for (const key of Object.keys(result)) assert.ok(key in tool, `the tool's result has ${key}`);
  assert.equal(tool.outcome, result.outcome);
  assert.equal(tool.status, result.status);
  assert.equal(tool.changeset.base, info.source_hash);

  // A canonical edit of the touched node: the command refuses as the tool does, naming the invariant.
  appendFileSync(path.join(root, 'docs/components/ledger.md'), '\nEdited by hand.\n');
  const refused = await cli(['changeset', 'rebase', id, '--writer', 'agent', '-C', root, '--json']);
  assert.equal(refused.status, 1);
  const error = (JSON.parse(refused.stdout) as Json).error;
  assert.equal(error.code, 'rebase_refused');
  assert.equal(error.details.invariant, 'touched_node_unchanged');
});

test('CMD --help and help CMD print that command\'s own usage (exit 0); a bare --help the whole text', async () => {
  const [own, viaHelp, whole, unknown] = await Promise.all([
    cli(['search', '--help']), cli(['help', 'changeset']), cli(['--help']), cli(['help', 'no-such-command']),
  ]);
  assert.equal(own.status, 0, own.stderr);
  assert.match(own.stdout, /^Usage: docforge search \.\.\./);
  assert.doesNotMatch(own.stdout, /^\s+changeset /m, 'search --help lists no other command');
  assert.match(own.stdout, /--limit N/, 'and its own options of the Options section');
  assert.doesNotMatch(own.stdout, /--version/);
  assert.equal(viaHelp.status, 0, viaHelp.stderr);
  assert.match(viaHelp.stdout, /^Usage: docforge changeset \.\.\./);
  assert.match(viaHelp.stdout, /changeset rebase/);
  assert.equal(whole.status, 0);
  assert.match(whole.stdout, /^\s+changeset /m);
  assert.match(whole.stdout, /^\s+search /m);
  assert.equal(unknown.status, 0, 'help for a word that is no command prints the whole usage');
  assert.match(unknown.stdout, /^\s+search /m);
});
