// Pins the short-node rule of issue 31 item 2 (libs/retrieval/src/ranking.ts, SHORT_NODE_LINES) on
// code nobody here wrote: piscina 5.3.2's TypeScript sources as installed under node_modules (the
// questions here are not those of ops/eval's piscina set). A code node of fewer than five lines
// scores its text match in proportion to its length, so a three-line method that says one of a
// question's words (`FixedCircularBuffer.isFull`, "full") ranks below the methods whose bodies hold
// the question; asked by its own name, the short method still comes first.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import type { Json } from './helpers/server.js';

const PISCINA = path.join(REPO_ROOT, 'node_modules', 'piscina');

function search(root: string, query: string, limit = 5): string[] {
  const out = spawnSync(process.execPath, [CLI_ENTRY, 'search', '-C', root, '--json', '--limit', String(limit), query], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return ((JSON.parse(out.stdout) as Json).items as Json[]).map((item) => String(item.id));
}

/** The source lines of `file` (under piscina's src/) from the first line holding `start` to the first following line holding `end`. */
function linesBetween(file: string, start: string, end: string): string[] {
  const lines = readFileSync(path.join(PISCINA, 'src', file), 'utf8').split('\n');
  const from = lines.findIndex((line) => line.includes(start));
  assert.ok(from >= 0, `${start} in src/${file}`);
  const to = lines.findIndex((line, i) => i > from && line.includes(end));
  assert.ok(to >= from, `${end} after ${start} in src/${file}`);
  return lines.slice(from, to + 1);
}

describe('piscina 5.3.2 (installed package): short code nodes', () => {
  const root = path.join(tempDir('docforge-short31-'), 'piscina');
  mkdirSync(root, { recursive: true });
  cpSync(path.join(PISCINA, 'src'), path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "piscina"\n[sources]\ncontent_roots = []\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n');

  test('a three-line method sharing one word ranks below the methods whose bodies spawn a worker', () => {
    // The source: isFull is three lines; runTask and _onWorkerAvailable call this._addNewWorker() below maxThreads.
    assert.equal(linesBetween('task_queue/fixed_queue.ts', 'isFull () {', '}').length, 3);
    assert.ok(linesBetween('index.ts', '  runTask (', '  pendingCapacity () ').some((line) => line.includes('this._addNewWorker();')));
    assert.ok(linesBetween('index.ts', '  _onWorkerAvailable (', '  _distributeTask (').some((line) => line.includes('this._addNewWorker();')));
    const ids = search(root, 'when the pool is full how does it decide to spawn another worker thread');
    const full = ids.indexOf('code:src/task_queue/fixed_queue.ts#FixedCircularBuffer.isFull');
    for (const spawner of ['code:src/index.ts#ThreadPool.runTask', 'code:src/index.ts#ThreadPool._onWorkerAvailable']) {
      const at = ids.indexOf(spawner);
      assert.ok(at >= 0 && (full < 0 || at < full), `${spawner} above isFull: ${JSON.stringify(ids)}`);
    }
  });

  test('asked by its own name, the short method still comes first', () => {
    assert.equal(search(root, 'isFull')[0], 'code:src/task_queue/fixed_queue.ts#FixedCircularBuffer.isFull');
  });
});
