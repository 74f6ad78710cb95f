// Pins a new-user trial finding (2026-12-07, go-spew as Debian installs it under /usr/share/gocode,
// GOPATH style, no go.mod): its external test package (`package spew_test`, importing
// "github.com/davecgh/go-spew/spew") lost every edge to the code it tests, silently. Now `docforge
// init` warns that Go imports resolve through go.mod, and so does validation (`go_module_missing`,
// project-level); with a go.mod the warning is gone and the edges are there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';

const SPEW = '/usr/share/gocode/src/github.com/davecgh/go-spew';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The `go_module_missing` issues and the `spew_test` → spew edges of the project at `root`. */
function facts(root: string): { missing: { severity: string; path: unknown; message: string }[]; testEdges: number } {
  const validate = cli(['validate', '-C', root, '--json']);
  const issues = (JSON.parse(validate.stdout) as { issues: { code: string; severity: string; path: unknown; message: string }[] }).issues;
  const backlinks = cli(['backlinks', 'code:spew/dump.go#Sdump', '-C', root, '--json']);
  assert.equal(backlinks.status, 0, backlinks.stderr);
  const items = (JSON.parse(backlinks.stdout) as { result: { items: { id: string }[] } }).result.items;
  return { missing: issues.filter((issue) => issue.code === 'go_module_missing'), testEdges: items.filter((item) => item.id.includes('_test.go')).length };
}

test('go-spew without go.mod: init and validation warn; with go.mod the test edges are linked and no warning remains', () => {
  const root = tempDir('docforge-gopath-');
  try {
    cpSync(SPEW, root, { recursive: true });
    const init = cli(['init', root]);
    assert.equal(init.status, 0, init.stderr);
    assert.match(init.stdout, /\n {2}warning: Go files but no go\.mod \(looked at the top level and up to 3 folders down\): Go imports resolve through a go\.mod's module path/);
    const json = JSON.parse(cli(['sync', '-C', root, '--json']).stdout) as { staleness: string };
    assert.equal(json.staleness, 'current');
    const before = facts(root);
    assert.equal(before.missing.length, 1, JSON.stringify(before.missing));
    assert.equal(before.missing[0]!.severity, 'warning');
    assert.equal(before.missing[0]!.path, null);
    assert.match(before.missing[0]!.message, /^\d+ Go files but no go\.mod above any of them: .*package x_test/);
    assert.equal(before.testEdges, 0, 'spew_test reaches Sdump only through the module import');

    writeFileSync(path.join(root, 'go.mod'), 'module github.com/davecgh/go-spew\n');
    const after = facts(root);
    assert.deepEqual(after.missing, []);
    assert.ok(after.testEdges > 0, 'the external test package calls spew.Sdump once the import resolves');
    // init on the same tree with its go.mod says nothing about Go modules.
    rmSync(path.join(root, 'docforge.toml'));
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    const again = cli(['init', root, '--json']);
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual((JSON.parse(again.stdout) as { warnings: string[] }).warnings, []);
  } finally {
    removeDir(root);
  }
});
