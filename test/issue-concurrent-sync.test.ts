// Pins concurrent syncs of one root from several processes: one edit publishes exactly one new generation whose receipt shows the edit, and readers racing generation collection always get a valid answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

interface Run { status: number | null; stdout: string; stderr: string }

/** Runs the CLI as its own process; resolves when it exits. */
function cliAsync(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function generationOf(root: string): number {
  return (JSON.parse(readFileSync(path.join(root, '.docforge', 'index', 'current.json'), 'utf8')) as { generation: number }).generation;
}

const GUIDE = path.join('docs', 'guides', 'glossary.md');

test('parallel syncs after one edit publish exactly one new generation, and the generation diff shows the edit', async () => {
  const root = exampleProjectCopy({ state: false });
  const first = spawnSync(process.execPath, [CLI_ENTRY, 'sync', '-C', root], { encoding: 'utf8' });
  assert.equal(first.status, 0, first.stderr);
  const before = generationOf(root);
  appendFileSync(path.join(root, GUIDE), '\nA sentence added by the concurrency test.\n');
  const runs = await Promise.all(Array.from({ length: 4 }, () => cliAsync(['sync', '-C', root])));
  for (const run of runs) assert.equal(run.status, 0, run.stderr);
  assert.equal(generationOf(root), before + 1, runs.map((run) => run.stdout.trim()).join(' | '));
  const s = await useServer(root);
  const diff = await s.call('docforge_get_generation_diff', {});
  assert.equal(diff.ok, true, JSON.stringify(diff.error));
  const result = diff.result as { receipt_header: { from_generation: number; to_generation: number }; items: { change: string; id?: string }[] };
  assert.deepEqual([result.receipt_header.from_generation, result.receipt_header.to_generation], [before, before + 1]);
  assert.ok(result.items.some((item) => item.change === 'node_changed' && item.id === 'guides/glossary'), JSON.stringify(result.items));
});

test('readers racing publications and generation collection always get a valid answer', async () => {
  const root = exampleProjectCopy({ state: false });
  assert.equal(spawnSync(process.execPath, [CLI_ENTRY, 'sync', '-C', root], { encoding: 'utf8' }).status, 0);
  let writing = true;
  const writer = (async () => {
    // Each edit publishes a generation; generations older than the previous one are deleted.
    for (let round = 0; round < 6; round += 1) {
      appendFileSync(path.join(root, GUIDE), `\nRound ${round}.\n`);
      const run = await cliAsync(['sync', '-C', root]);
      assert.equal(run.status, 0, run.stderr);
    }
    writing = false;
  })();
  const reader = async (): Promise<Run[]> => {
    const seen: Run[] = [];
    do seen.push(await cliAsync(['search', '-C', root, '--json', 'refund']));
    while (writing);
    return seen;
  };
  const [, ...readers] = await Promise.all([writer, reader(), reader(), reader()]);
  for (const run of readers.flat()) {
    assert.equal(run.status, 0, `${run.stderr}`);
    assert.ok(Array.isArray((JSON.parse(run.stdout) as { items: unknown[] }).items));
  }
});
