// Pins one build per project at a time across processes (trial finding, 2026-12-07): two
// `docforge sync` started together on a real package (pino, descriptor by `docforge init`) build
// once; the other waits its turn and serves that publication (before, both built and one
// publication was superseded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_ENTRY } from './helpers/paths.js';
import { removeDir, tempCopy } from './helpers/projects.js';

const PINO = fileURLToPath(new URL('../../node_modules/pino', import.meta.url));

interface SyncJson {
  rebuilt: boolean;
  publication: { generation: number; index_file: string };
}

function syncJson(root: string): Promise<SyncJson> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI_ENTRY, 'sync', '-C', root, '--json'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as SyncJson);
    });
  });
}

test('two docforge sync started together on pino build once; the other serves that publication', async () => {
  const root = tempCopy(PINO, 'docforge-concurrent-sync-');
  try {
    execFileSync(process.execPath, [CLI_ENTRY, 'init', root], { encoding: 'utf8' });
    const runs = await Promise.all([syncJson(root), syncJson(root)]);
    assert.deepEqual(runs.map((run) => run.rebuilt).sort(), [false, true], 'exactly one of them built');
    assert.deepEqual(runs.map((run) => run.publication.generation), [1, 1]);
    assert.equal(runs[0]!.publication.index_file, runs[1]!.publication.index_file);
    assert.equal(existsSync(path.join(root, '.docforge', 'locks', 'index-build.lock')), false, 'the build lock is released');
  } finally {
    removeDir(root);
  }
});
