// Pins publication against a newer one (break-it trial, 2026-12-04): a build whose snapshot of the
// sources is older than a publication another process made while it ran never publishes over it
// (it used to publish generation N+2 without the other process's edit and call it current); the sync
// walks again and serves what is current.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IndexManager } from '../src/index.js';
import { fullBuildOf, indexRows } from './full-build.js';

/**
 * A project-owned adapter that, in a process whose DOCFORGE_TEST_HOLD names an existing file,
 * holds its extract() until that file is removed (after writing `<file>.held`): a build stopped
 * between its walk and its publication, with nothing timed.
 */
const HOLD_ADAPTER = [
  "import { existsSync, writeFileSync } from 'node:fs';",
  "export const version = '1.0.0';",
  "export const inputs = ['extra/*.json'];",
  'export async function extract() {',
  '  const hold = process.env.DOCFORGE_TEST_HOLD;',
  '  if (hold && existsSync(hold)) {',
  "    writeFileSync(hold + '.held', '');",
  '    while (existsSync(hold)) await new Promise((resolve) => setTimeout(resolve, 20));',
  '  }',
  '  return { nodes: [], edges: [] };',
  '}',
  '',
].join('\n');

const rowsOf = (root: string, file: string): Record<'nodes' | 'edges', string[]> => indexRows(root, file, {
  nodes: 'SELECT id, kind, title, body, source_path, content_hash FROM nodes ORDER BY id',
  edges: 'SELECT source_id, relation, target_id FROM edges ORDER BY 1, 2, 3',
});

test('a build superseded by another process\'s publication of newer sources publishes nothing over it; the sync serves the newer one', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-publication-race-'));
  const hold = path.join(root, 'hold');
  try {
    for (const dir of ['docs', 'tools']) mkdirSync(path.join(root, dir), { recursive: true });
    writeFileSync(path.join(root, 'docforge.toml'), [
      'schema_version = 1', '[project]', 'id = "race"', 'name = "Race"', '[sources]', 'content_roots = ["docs"]',
      '[adapter]', 'code = "none"', 'module = "tools/hold-adapter.mjs"', '',
    ].join('\n'));
    writeFileSync(path.join(root, 'tools', 'hold-adapter.mjs'), HOLD_ADAPTER);
    writeFileSync(path.join(root, 'docs', 'a.md'), '# Page A\n\nThe first page, linking [B](b.md).\n');
    writeFileSync(path.join(root, 'docs', 'b.md'), '# Page B\n\nThe second page.\n');

    process.env['DOCFORGE_TEST_HOLD'] = hold;
    const manager = new IndexManager({ root, noAst: false });
    try {
      const first = await manager.sync();
      assert.equal(first.publication.generation, 1);

      // This process's build of edit A stops before it publishes ...
      writeFileSync(hold, '');
      appendFileSync(path.join(root, 'docs', 'a.md'), '\nEdit A, seen by both builds.\n');
      const pending = manager.sync();
      // Until the build reaches the adapter (it then holds) or the sync ends without reaching it: no bound of
      // its own, which a loaded machine's build start could outlast (it counted 750 polls: issue 29 item 7).
      let settled = false;
      void pending.then(() => (settled = true), () => (settled = true));
      while (!existsSync(`${hold}.held`) && !settled) await sleep(20);
      assert.ok(existsSync(`${hold}.held`), 'the held build reached the adapter');
      // ... while another process, seeing edit B too, publishes generation 2 (without waiting for the
      // held build's turn, as a process that cannot take the build lock, build-turn.ts, does).
      appendFileSync(path.join(root, 'docs', 'b.md'), '\nEdit B, seen only by the other process.\n');
      const index = JSON.stringify(new URL('../src/index.js', import.meta.url).href);
      const env: NodeJS.ProcessEnv = { ...process.env };
      delete env['DOCFORGE_TEST_HOLD'];
      execFileSync(process.execPath, ['--input-type=module', '-e',
        `import { IndexManager } from ${index}; const m = new IndexManager({ root: ${JSON.stringify(root)}, noAst: false, buildTurnWaitMs: 0 }); await m.sync(); await m.close();`], { env });
      const other = JSON.parse(readFileSync(path.join(root, '.docforge', 'index', 'current.json'), 'utf8')) as { generation: number; index_file: string };
      assert.equal(other.generation, 2);

      rmSync(hold);
      const report = await pending;
      const current = JSON.parse(readFileSync(path.join(root, '.docforge', 'index', 'current.json'), 'utf8')) as { generation: number; index_file: string };
      assert.equal(current.generation, 2, 'nothing was published over the newer generation');
      assert.equal(current.index_file, other.index_file);
      assert.equal(report.staleness, 'current');
      assert.equal(report.sync_error, null);
      assert.equal(report.publication.generation, 2, 'the sync serves the newer publication');
      assert.equal(report.rebuilt, false, 'its second walk found generation 2 current');
      const rows = rowsOf(root, current.index_file);
      assert.ok(rows.nodes.some((row) => row.includes('Edit B, seen only by the other process.')), 'edit B is in the served graph');
      assert.deepEqual(rows, await fullBuildOf(root, rowsOf));

      // The manager goes on as usual: a later edit publishes generation 3 with every edit.
      appendFileSync(path.join(root, 'docs', 'a.md'), '\nA later edit.\n');
      const later = await manager.sync();
      assert.equal(later.publication.generation, 3);
      assert.equal(later.rebuilt, true);
      assert.deepEqual(rowsOf(root, later.publication.index_file), await fullBuildOf(root, rowsOf));
    } finally {
      await manager.close();
      delete process.env['DOCFORGE_TEST_HOLD'];
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
