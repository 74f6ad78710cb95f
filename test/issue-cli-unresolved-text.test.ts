// Pins a new-user trial finding (2026-12-07, commander as `npm pack commander` gives it): the text
// form of a read command shows every unresolved-call count its JSON has. `docforge deps
// code:lib/help.js#Help.formatItem` printed "no related nodes (examined 0 edges)" while `--json`
// counted `unresolved_calls: 9`; `docforge node` hid the count too. The line uses the wording of
// `docforge affected`'s "(not followed: N calls …)".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI_ENTRY } from './helpers/paths.js';
import { npmPackProject } from './helpers/npm-pack.js';
import { removeDir } from './helpers/projects.js';

const COMMANDER = 'commander@14.0.3';
const DESCRIPTOR = 'schema_version = 1\n[project]\nid = "commander"\nname = "commander"\n[sources]\ncontent_roots = ["Readme.md"]\ncode_roots = ["lib"]\n[adapter]\ncode = "typescript"\n';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The `unresolved_calls` of a `--json` answer. */
function unresolvedOf(stdout: string): unknown {
  return (JSON.parse(stdout) as { result: { unresolved_calls?: unknown } }).result.unresolved_calls;
}

test('deps and node print the unresolved-call count their JSON carries (commander)', () => {
  const root = npmPackProject(COMMANDER, DESCRIPTOR, 'docforge-commander-');
  try {
    for (const id of ['code:lib/help.js#Help.formatItem', 'code:lib/command.js#Command.unknownOption']) {
      const json = cli(['deps', id, '-C', root, '--json']);
      assert.equal(json.status, 0, json.stderr);
      const count = unresolvedOf(json.stdout);
      assert.ok(typeof count === 'number' && count > 0, `${id}: ${String(count)}`);
      const line = `(not followed: ${count} ${count === 1 ? 'call' : 'calls'} from ${id}; the code adapter proved no target for them, so they have no calls edge and are not listed here (counted, never guessed))`;
      const text = cli(['deps', id, '-C', root]);
      assert.equal(text.status, 0, text.stderr);
      assert.ok(text.stdout.split('\n').includes(line), `${id} deps text lacks the count ${count}:\n${text.stdout}`);
      const node = cli(['node', id, '-C', root, '--no-body']);
      assert.equal(node.status, 0, node.stderr);
      assert.equal(unresolvedOf(cli(['node', id, '-C', root, '--no-body', '--json']).stdout), count);
      assert.ok(node.stdout.split('\n').includes(`  ${line}`), `${id} node text lacks the count ${count}:\n${node.stdout}`);
    }
    // The trial's figure was nine call sites that prove no target. Since the TypeScript adapter 1.7.3
    // reads JSDoc `@param {Help} helper`, the three helper.* calls (displayWidth, preformatted,
    // boxWrap) resolve to Help's methods; the six string-method calls (repeat, padEnd, replace) stay unresolved.
    assert.equal(unresolvedOf(cli(['deps', 'code:lib/help.js#Help.formatItem', '-C', root, '--json']).stdout), 6);
    const formatItemDeps = cli(['deps', 'code:lib/help.js#Help.formatItem', '-C', root]).stdout;
    for (const method of ['displayWidth', 'preformatted', 'boxWrap']) assert.ok(formatItemDeps.includes(`code:lib/help.js#Help.${method}`), `${method}:\n${formatItemDeps}`);
    // A node whose every call resolved, or a doc node, gets no such line.
    const readme = cli(['deps', 'Readme', '-C', root]);
    assert.equal(readme.status, 0, readme.stderr);
    assert.doesNotMatch(readme.stdout, /not followed/);
  } finally {
    removeDir(root);
  }
});
