// Pins issue x45 item 2: a project-owned adapter module that cannot load (docforge.toml names
// docs/a.md, not a JS module) and no earlier publication. The first build still publishes (the
// documents, an adapter_failed issue, adapter_version `+project@unavailable#...`) so there is
// something to serve, but the sync reports it as the server does: staleness `stale`, `sync_error`
// `adapter_failed`; `docforge sync` exits 1 (structured with --json), and so does every later sync.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

function unloadableProject(): string {
  const root = tempDir('docforge-unloadable-');
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "unloadable"\nname = "Unloadable"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\nmodule = "docs/a.md"\n');
  writeFileSync(path.join(root, 'docs', 'a.md'), '# A\n\nNot a JS module.\n');
  return root;
}

interface SyncJson {
  rebuilt: boolean;
  staleness: string;
  publication: { generation: number; adapter_version: string } | null;
  sync_error: { code: string; remediation: string } | null;
}

function syncJson(root: string): { status: number | null; report: SyncJson; stderr: string } {
  const run = spawnSync(process.execPath, [CLI_ENTRY, 'sync', '--json', '-C', root], { encoding: 'utf8', input: '' });
  return { status: run.status, report: JSON.parse(run.stdout) as SyncJson, stderr: run.stderr };
}

test('docforge sync: an unloadable adapter with no earlier publication exits 1 with adapter_failed; generation 1 is published and served stale', () => {
  const root = unloadableProject();
  const first = syncJson(root);
  assert.equal(first.status, 1, first.stderr);
  assert.equal(first.report.staleness, 'stale');
  assert.equal(first.report.sync_error?.code, 'adapter_failed');
  assert.equal(first.report.sync_error?.remediation, 'fix_adapter_then_restart');
  assert.equal(first.report.publication?.generation, 1);
  assert.match(first.report.publication?.adapter_version ?? '', /\+project@unavailable#/);
  // Nothing changed: the same answer, nothing new published.
  const second = syncJson(root);
  assert.equal(second.status, 1, second.stderr);
  assert.equal(second.report.sync_error?.code, 'adapter_failed');
  assert.equal(second.report.staleness, 'stale');
  assert.equal(second.report.publication?.generation, 1);
});

test('docforge_bootstrap agrees with the CLI, on a fresh project and on the CLI\'s index', async () => {
  for (const syncedFirst of [false, true]) {
    const root = unloadableProject();
    if (syncedFirst) assert.equal(syncJson(root).status, 1);
    const s = await useServer(root);
    const boot = await s.call('docforge_bootstrap');
    assert.equal(boot.ok, true, JSON.stringify(boot.error));
    assert.equal(boot.project?.staleness, 'stale', `synced first: ${syncedFirst}`);
    assert.equal(boot.project?.sync_error?.code, 'adapter_failed');
    assert.equal(boot.project?.revision, 1);
  }
});
