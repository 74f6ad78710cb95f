// Pins a new-user trial finding (2026-12-07, PyJWT as Debian installs it): `cd <project>/jwt &&
// docforge search x` failed with `descriptor_invalid: no docforge.toml in <project>/jwt (run
// "docforge init <project>/jwt" …)`, suggesting a nested project. Without -C the CLI now works on
// the nearest folder at or above the current one that holds a docforge.toml (as git finds its work
// tree), through the launcher's fast no-change path as well; -C stays exact, and when no folder
// holds one, the hint names the folder that looks like the project's root, never the subfolder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';

const PYJWT = '/usr/lib/python3/dist-packages/jwt';
const DESCRIPTOR = 'schema_version = 1\n[project]\nid = "pyjwt"\nname = "PyJWT"\n[sources]\ncontent_roots = []\ncode_roots = ["jwt"]\n[adapter]\ncode = "python"\n';

function cli(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', cwd, maxBuffer: 64 * 1024 * 1024 });
}

/** A folder with PyJWT's modules in `jwt/`, as installed. */
function pyjwtTree(prefix: string): string {
  const root = tempDir(prefix);
  mkdirSync(path.join(root, 'jwt'));
  for (const name of readdirSync(PYJWT).filter((file) => file.endsWith('.py'))) copyFileSync(path.join(PYJWT, name), path.join(root, 'jwt', name));
  return root;
}

test('without -C a command run in a project subfolder works on the project; -C stays exact', () => {
  const root = pyjwtTree('docforge-discovery-');
  try {
    writeFileSync(path.join(root, 'docforge.toml'), DESCRIPTOR);
    const sub = path.join(root, 'jwt');
    // The first sync builds (full CLI), the second is the launcher's bundled no-change answer: both from the subfolder.
    for (const rebuilt of [true, false]) {
      const sync = cli(['sync', '--json'], sub);
      assert.equal(sync.status, 0, sync.stderr);
      const answer = JSON.parse(sync.stdout) as { rebuilt: boolean; staleness: string; publication: { counts: { sources: number } } };
      assert.deepEqual([answer.rebuilt, answer.staleness], [rebuilt, 'current'], sync.stdout);
      assert.ok(answer.publication.counts.sources >= 10, sync.stdout);
    }
    const search = cli(['search', 'decode', '--json'], sub);
    assert.equal(search.status, 0, search.stderr);
    const ids = (JSON.parse(search.stdout) as { items: { id: string }[] }).items.map((item) => item.id);
    // Ids are relative to the project root found above (jwt/…), not to the subfolder.
    assert.ok(ids.some((id) => id.startsWith('code:jwt/api_jwt.py#')), JSON.stringify(ids));
    const node = cli(['node', 'code:jwt/api_jwt.py', '--no-body'], sub);
    assert.equal(node.status, 0, node.stderr);
    // -C names the root exactly: the subfolder is no project, and the message points at the one above.
    const exact = cli(['search', 'decode', '-C', '.'], sub);
    assert.equal(exact.status, 1);
    assert.ok(exact.stderr.includes(`descriptor_invalid: docforge.toml: no docforge.toml in ${sub} (`), exact.stderr);
    assert.ok(exact.stderr.includes(`${sub} is inside the DocForge project ${root}: name that folder as the project root`), exact.stderr);
    assert.ok(!exact.stderr.includes(`docforge init ${sub}`), exact.stderr);
  } finally {
    removeDir(root);
  }
});

test('with no docforge.toml above, the hint names the folder that looks like the project root, not the subfolder', () => {
  const root = pyjwtTree('docforge-discovery-none-');
  try {
    mkdirSync(path.join(root, '.git'));
    const sub = path.join(root, 'jwt');
    const search = cli(['search', 'decode'], sub);
    assert.equal(search.status, 1);
    assert.ok(search.stderr.includes(`no docforge.toml in ${sub} (${root} looks like the project's root (it holds .git): run "docforge init ${root}"`), search.stderr);
    assert.ok(!search.stderr.includes(`docforge init ${sub}`), search.stderr);
    // At the project root itself the plain hint stays.
    const top = cli(['search', 'decode'], root);
    assert.equal(top.status, 1);
    assert.ok(top.stderr.includes(`no docforge.toml in ${root} (run "docforge init ${root}" to create one)`), top.stderr);
  } finally {
    removeDir(root);
  }
});
