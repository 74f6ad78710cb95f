// Break-it trial 48 (issue 30), the kind "a CLI id is not checked as its MCP tool checks it": the
// changeset subcommands and `docforge review` looked a malformed id up (`bad id!`, `../../docforge`,
// 300 characters) and answered changeset_not_found / "no node" with exit 1, where MCP answers
// invalid_arguments; and `review NOPE --json` printed its error as text only, nothing on stdout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI_ENTRY } from './helpers/paths.js';
import { sharedExampleProject } from './helpers/projects.js';

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', input: '' });
}

const HASH = 'a'.repeat(64);

test('a malformed changeset id or review node id is a usage error (exit 2, invalid_arguments naming the field)', () => {
  const root = sharedExampleProject();
  const lines: [string[], string][] = [];
  for (const id of ['bad id!', '../../docforge', 'c'.repeat(300)]) {
    lines.push([['changeset', 'show', id], '/changeset_id']);
    lines.push([['changeset', 'diff', id], '/changeset_id']);
    lines.push([['changeset', 'validate', id], '/changeset_id']);
    lines.push([['changeset', 'abandon', id, '--writer', 'w1'], '/changeset_id']);
    lines.push([['changeset', 'apply', id, '--sha256', HASH, '--canonical-applier', 'rev'], '/changeset_id']);
  }
  // review registers a link_review operation: its node id is checked as that operation's source_id.
  lines.push([['review', 'bad id', '--writer', 'w1', '--canonical-applier', 'rev'], '/operations/0/source_id']);
  lines.push([['review', 'Q'.repeat(1025), '--writer', 'w1', '--canonical-applier', 'rev'], '/operations/0/source_id']);
  for (const [args, field] of lines) {
    const shown = args.join(' ').slice(0, 80);
    const r = cli([...args, '-C', root, '--json']);
    assert.equal(r.status, 2, `${shown}: ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 300)}`);
    const error = JSON.parse(r.stdout).error as { code: string; details: { errors: { path: string }[] } };
    assert.equal(error.code, 'invalid_arguments', shown);
    assert.ok(error.details.errors.some((e) => e.path === field), `${shown}: ${JSON.stringify(error.details)}`);
    if (!args.includes('bad id!')) continue;
    // The text form: the same refusal on stderr, exit 2.
    const text = cli([...args, '-C', root]);
    assert.equal(text.status, 2, shown);
    assert.match(text.stderr, /invalid_arguments/, shown);
  }
});

test('a well-formed id that names nothing still answers not found (exit 1), and review prints it as JSON under --json', () => {
  const root = sharedExampleProject();
  const shown = cli(['changeset', 'show', 'cs-none', '-C', root, '--json']);
  assert.equal(shown.status, 1, shown.stderr);
  assert.equal(JSON.parse(shown.stdout).error.code, 'changeset_not_found');
  const review = cli(['review', 'NOPE-404', '--writer', 'w1', '--canonical-applier', 'rev', '-C', root, '--json']);
  assert.equal(review.status, 1, review.stderr);
  const error = JSON.parse(review.stdout).error as { code: string; details: { node_id: string } };
  assert.equal(error.code, 'node_not_found');
  assert.equal(error.details.node_id, 'NOPE-404');
});
