// `docforge init` in a folder it may not write is a structured refusal (project_root_invalid, naming the
// errno), never internal_error, and leaves nothing behind (break-it trial, 2026-12-07). As root the CLI
// runs as nobody (uid 65534), since root may write a mode-0555 folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';

test('init in a folder it may not write: project_root_invalid with the errno, nothing written', (t) => {
  const parent = tempDir('docforge-init-ro-');
  t.after(() => {
    chmodSync(path.join(parent, 'ro'), 0o755);
    removeDir(parent);
  });
  const dir = path.join(parent, 'ro');
  mkdirSync(path.join(dir, 'docs'), { recursive: true });
  chmodSync(parent, 0o755);
  chmodSync(dir, 0o555);
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  for (const json of [false, true]) {
    const run = spawnSync(process.execPath, [CLI_ENTRY, 'init', dir, ...(json ? ['--json'] : [])], { encoding: 'utf8', cwd: parent, ...asUser });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /project_root_invalid: .*is not writable \(EACCES\): init could not write docforge\.toml there/);
    assert.doesNotMatch(run.stderr, /internal_error/);
  }
  assert.deepEqual(readdirSync(dir), ['docs'], 'no descriptor and no temp file');
});
