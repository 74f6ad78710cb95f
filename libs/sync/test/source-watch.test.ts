// Pins the source watcher (issue 14 item 5): it stands for the identity walk only after a clean, fully watched walk, and any change, new directory, link or error makes the next sync walk and see it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IndexManager } from '../src/index.js';
import { SourceWatch } from '../src/index.js';

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples');

function copyExamples(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docforge-watch-'));
  cpSync(examples, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.docforge`) });
  return dir;
}

/** Syncs until the watcher is trusted (the first walk after new watches never is), returning that sync. */
async function settle(manager: IndexManager): Promise<void> {
  for (let i = 0; i < 3; i += 1) if ((await manager.sync()).watched === true) return;
  assert.fail('the watcher never stood in for the walk of an unchanged tree');
}

test('an unchanged watched tree skips the walk; every kind of change is seen by the next sync', async () => {
  const root = copyExamples();
  const manager = new IndexManager({ root, noAst: false, watchSources: true });
  try {
    const cold = await manager.sync();
    assert.equal(cold.rebuilt, true);
    assert.equal(cold.watched, undefined, 'a first walk is never skipped');
    await settle(manager);
    const again = await manager.sync();
    assert.equal(again.watched, true);
    assert.equal(again.staleness, 'current');
    assert.equal(again.publication.generation, cold.publication.generation);

    // A content edit made right before the call (no wait) is seen.
    appendFileSync(path.join(root, 'docs', 'guides', 'getting-started.md'), '\nA new closing line.\n');
    const edited = await manager.sync();
    assert.equal(edited.watched, undefined);
    assert.equal(edited.rebuilt, true);
    assert.equal(edited.publication.generation, cold.publication.generation + 1);

    // A file in a directory created after the last walk: the new directory is watched only from the
    // next walk on, so that walk is not trusted and the one after it walks again.
    await settle(manager);
    mkdirSync(path.join(root, 'docs', 'fresh'));
    writeFileSync(path.join(root, 'docs', 'fresh', 'new-page.md'), '# New page\n\nBody.\n');
    const created = await manager.sync();
    assert.equal(created.rebuilt, true);
    const next = await manager.sync();
    assert.equal(next.watched, undefined, 'the walk that added a watch is not trusted');
    writeFileSync(path.join(root, 'docs', 'fresh', 'new-page.md'), '# New page\n\nChanged body.\n');
    const inNew = await manager.sync();
    assert.equal(inNew.rebuilt, true, 'a change inside the new directory is seen');

    // A deleted file.
    await settle(manager);
    rmSync(path.join(root, 'docs', 'fresh', 'new-page.md'));
    const removed = await manager.sync();
    assert.equal(removed.rebuilt, true);
    assert.equal(removed.watched, undefined);
  } finally {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a tree with a symbolic link is never trusted to the watcher; without watchSources every sync walks', async () => {
  const root = copyExamples();
  symlinkSync(path.join(root, 'docs', 'guides', 'getting-started.md'), path.join(root, 'docs', 'linked.md'));
  const watching = new IndexManager({ root, noAst: false, watchSources: true });
  try {
    for (let i = 0; i < 3; i += 1) assert.equal((await watching.sync()).watched, undefined);
  } finally {
    await watching.close();
  }
  rmSync(path.join(root, 'docs', 'linked.md'));
  const plain = new IndexManager({ root, noAst: false });
  try {
    for (let i = 0; i < 3; i += 1) assert.equal((await plain.sync()).watched, undefined);
  } finally {
    await plain.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('SourceWatch trusts a walk only when no event arrived during it and all its directories were watched before', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-watch-unit-'));
  mkdirSync(path.join(root, 'a'));
  const watch = new SourceWatch(root);
  try {
    watch.beginWalk();
    watch.endWalk({ identity: 'one', directories: ['', 'a'], outside: false });
    assert.equal(await watch.unchangedIdentity(), null, 'new watches: not trusted yet');
    watch.beginWalk();
    watch.endWalk({ identity: 'two', directories: ['', 'a'], outside: false });
    assert.equal(await watch.unchangedIdentity(), 'two');
    writeFileSync(path.join(root, 'a', 'x.md'), 'x');
    assert.equal(await watch.unchangedIdentity(), null, 'an event queued before the question is delivered first');
    watch.beginWalk();
    writeFileSync(path.join(root, 'a', 'y.md'), 'y'); // during the walk
    await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
    watch.endWalk({ identity: 'three', directories: ['', 'a'], outside: false });
    assert.equal(await watch.unchangedIdentity(), null, 'an event during the walk leaves it untrusted');
    watch.beginWalk();
    watch.endWalk({ identity: 'four', directories: ['', 'a'], outside: true });
    assert.equal(await watch.unchangedIdentity(), null, 'an identity depending on files outside the walked directories');
  } finally {
    watch.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a watched directory deleted and recreated, moved away and replaced, or swapped with another is watched again: later edits are seen', async () => {
  const root = copyExamples();
  const manager = new IndexManager({ root, noAst: false, watchSources: true });
  const page = (dir: string, title: string): void => writeFileSync(path.join(root, 'docs', dir, 'page.md'), `# ${title}\n\nBody.\n`);
  const titleOf = (id: string): string | undefined => manager.reader().getNode(id)?.title;
  try {
    mkdirSync(path.join(root, 'docs', 'sub'));
    mkdirSync(path.join(root, 'docs', 'left'));
    mkdirSync(path.join(root, 'docs', 'right'));
    page('sub', 'Title one');
    page('left', 'Left one');
    page('right', 'Right one');
    await manager.sync();
    await settle(manager);
    const steps: [string, () => void, string, string][] = [
      ['deleted and recreated', () => {
        rmSync(path.join(root, 'docs', 'sub'), { recursive: true });
        mkdirSync(path.join(root, 'docs', 'sub'));
        page('sub', 'Title two');
      }, 'sub/page', 'Title two'],
      // The edit that a dead watch on the old directory would miss.
      ['edited after being recreated', () => page('sub', 'Title three, longer'), 'sub/page', 'Title three, longer'],
      ['moved away and replaced', () => {
        renameSync(path.join(root, 'docs', 'sub'), path.join(root, 'docs', 'old'));
        mkdirSync(path.join(root, 'docs', 'sub'));
        page('sub', 'Title four');
      }, 'sub/page', 'Title four'],
      ['edited after being replaced', () => page('sub', 'Title five, longer'), 'sub/page', 'Title five, longer'],
      ['swapped', () => {
        renameSync(path.join(root, 'docs', 'left'), path.join(root, 'docs', 'tmp'));
        renameSync(path.join(root, 'docs', 'right'), path.join(root, 'docs', 'left'));
        renameSync(path.join(root, 'docs', 'tmp'), path.join(root, 'docs', 'right'));
      }, 'left/page', 'Right one'],
      ['edited after the swap', () => page('left', 'Left after the swap'), 'left/page', 'Left after the swap'],
    ];
    for (const [label, change, id, title] of steps) {
      change();
      const report = await manager.sync();
      assert.equal(report.rebuilt, true, `${label}: rebuilt`);
      assert.equal(titleOf(id), title, `${label}: ${id}`);
      // Whatever the walks after it, the watcher settles again and keeps answering correctly.
      await settle(manager);
    }
    assert.equal(titleOf('right/page'), 'Left one');
  } finally {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  }
});
