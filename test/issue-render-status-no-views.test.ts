// Noticed in the issue 30 new-user trial: `docforge render --status` on a project that declares no
// views printed nothing at all. It now says that no view is declared and where views are declared,
// as `docforge render` already did, and both exit 0 (nothing is out of date). Input: fastify's own
// docs with the descriptor `docforge init` writes (it declares no views).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { fastifyProjectCopy, removeDir } from './helpers/projects.js';

function cli(root: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI_ENTRY, ...args], { cwd: root, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('render --status and render say so when no view is declared', () => {
  const root = fastifyProjectCopy(['docs', 'package.json']);
  try {
    const init = cli(root, 'init');
    assert.equal(init.status, 0, init.stderr);
    assert.ok(existsSync(path.join(root, 'docforge.toml')));
    const status = cli(root, 'render', '--status');
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, /^no views declared \(\[\[views\]\] in docforge\.toml\)$/m);
    const json = cli(root, 'render', '--status', '--json');
    assert.equal(json.status, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), { deep: false, views: [] }, 'the JSON form stays the bare list');
  } finally {
    removeDir(root);
  }
});
