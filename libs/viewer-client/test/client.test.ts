// Pins the viewer client's discovery: runtime dir precedence (override, XDG, home cache), and that a report-only connection never spawns a manager.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { connectViewerManager, viewerRuntimePaths } from '../src/index.js';

test('the runtime dir comes from DOCFORGE_VIEWER_RUNTIME_DIR, else XDG_RUNTIME_DIR/docforge, else ~/.cache/docforge/run', () => {
  assert.equal(viewerRuntimePaths({ DOCFORGE_VIEWER_RUNTIME_DIR: '/tmp/x', XDG_RUNTIME_DIR: '/run/user/1' }).socket, '/tmp/x/viewer.sock');
  assert.equal(viewerRuntimePaths({ XDG_RUNTIME_DIR: '/run/user/1' }).dir, '/run/user/1/docforge');
  assert.equal(viewerRuntimePaths({ XDG_RUNTIME_DIR: 'relative' }).dir, path.join(homedir(), '.cache', 'docforge', 'run'));
  assert.equal(viewerRuntimePaths({}).log, path.join(homedir(), '.cache', 'docforge', 'run', 'viewer.log'));
});

test('a relative DOCFORGE_VIEWER_RUNTIME_DIR is refused with viewer_runtime_unsafe, never silently replaced', () => {
  for (const value of ['run', './run', '../x/run']) {
    assert.throws(() => viewerRuntimePaths({ DOCFORGE_VIEWER_RUNTIME_DIR: value, XDG_RUNTIME_DIR: '/run/user/1' }), (error: unknown) => {
      const wire = (error as { toWire(): { code: string; details: Record<string, unknown> } }).toWire();
      assert.equal(wire.code, 'viewer_runtime_unsafe');
      assert.equal(wire.details.reason_code, 'not_absolute');
      assert.equal(wire.details.path, value);
      return true;
    });
  }
});

test('without spawn, no running manager gives null and creates nothing; a bogus manager bin never gets run', async () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'dfv-client-')), 'run');
  try {
    const client = await connectViewerManager({ managerBin: '/nonexistent/manager.js', client: 'test', spawn: false, env: { DOCFORGE_VIEWER_RUNTIME_DIR: dir } });
    assert.equal(client, null);
    assert.equal(existsSync(dir), false);
  } finally {
    rmSync(path.dirname(dir), { recursive: true, force: true });
  }
});
