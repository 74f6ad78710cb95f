// Pins a Python project built end to end by the build worker (break-it trial, 2026-12-04): the
// bundled worker, in two threads one after the other, loads the Python adapter (web-tree-sitter, with
// dynamic imports of built-in modules) and publishes the same graph as the compiled worker; it used
// to publish `python@unavailable` with no code nodes and no issue. (The worker bundle's code cache,
// which once needed those imports rewritten, was retired in issue 29.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORKER_BUNDLE_ENV } from '../src/index.js';
import { IndexManager } from '../src/index.js';
import { indexRows } from './full-build.js';

const FILES: Record<string, string> = {
  'docforge.toml': ['schema_version = 1', '[project]', 'id = "py"', 'name = "Py"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["src"]',
    '[adapter]', 'code = "python"', 'strategy = "ast"', ''].join('\n'),
  'docs/index.md': '# Py\n\nThe engine is `pkg.core.Engine`; see [core](../src/pkg/core.py).\n',
  'src/pkg/__init__.py': 'from .core import Engine\n',
  'src/pkg/util.py': 'def helper(x):\n    return x * 2\n',
  'src/pkg/core.py': 'from .util import helper\n\n\nclass Engine:\n    def run(self, x):\n        return helper(x)\n\n\ndef start():\n    return Engine().run(1)\n',
};

const rowsOf = (root: string, file: string): Record<'nodes' | 'edges', string[]> => indexRows(root, file, {
  nodes: 'SELECT id, kind, title, source_path, start_line, end_line, language, content_hash FROM nodes ORDER BY id',
  edges: 'SELECT source_id, relation, target_id FROM edges ORDER BY 1, 2, 3',
});

async function coldBuild(root: string): Promise<{ adapterVersion: string; rows: Record<'nodes' | 'edges', string[]>; edited: Record<'nodes' | 'edges', string[]> }> {
  rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  writeFileSync(path.join(root, 'src/pkg/util.py'), FILES['src/pkg/util.py']!);
  const sync = async (): Promise<Awaited<ReturnType<IndexManager['sync']>>> => {
    const manager = new IndexManager({ root, noAst: false });
    try {
      return await manager.sync();
    } finally {
      await manager.close();
    }
  };
  const cold = await sync();
  appendFileSync(path.join(root, 'src/pkg/util.py'), '\n\ndef twice(x):\n    return helper(helper(x))\n');
  const edit = await sync();
  assert.equal(edit.stats!.mode, 'delta');
  return { adapterVersion: cold.publication.adapter_version, rows: rowsOf(root, cold.publication.index_file), edited: rowsOf(root, edit.publication.index_file) };
}

test('a Python project builds the same graph with the bundled worker (twice) and the compiled worker', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-python-project-'));
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'docforge-python-code-cache-'));
  try {
    for (const [file, text] of Object.entries(FILES)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    process.env['DOCFORGE_CODE_CACHE_DIR'] = cacheDir;
    const builds: Record<string, Awaited<ReturnType<typeof coldBuild>>> = {};
    for (const [label, mode] of [['created', 'on'], ['reused', 'on'], ['compiled', 'off']] as const) {
      process.env[WORKER_BUNDLE_ENV] = mode;
      try {
        builds[label] = await coldBuild(root);
      } finally {
        delete process.env[WORKER_BUNDLE_ENV];
      }
    }
    for (const [label, build] of Object.entries(builds)) {
      assert.match(build.adapterVersion, /\+python@\d+\.\d+\.\d+\+/, `${label}: the Python adapter loaded (${build.adapterVersion})`);
      assert.ok(build.rows.nodes.some((row) => row.includes('"code:src/pkg/core.py#Engine.run"')), `${label}: the method is a node`);
      assert.ok(build.edited.nodes.some((row) => row.includes('"code:src/pkg/util.py#twice"')), `${label}: the edit's function is a node`);
    }
    assert.deepEqual(builds.created, builds.compiled);
    assert.deepEqual(builds.reused, builds.compiled);
  } finally {
    delete process.env['DOCFORGE_CODE_CACHE_DIR'];
    rmSync(root, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  }
});
