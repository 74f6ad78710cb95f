// Pins standby copies (issue 14 item 4): a long-lived manager copies the newly published index file in idle time, the next delta build writes that copy instead of copying on its critical path, every published file stays byte-for-byte unaltered, and a standby that is not exactly the published file is never used.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, cpSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IndexManager } from '../src/index.js';
import { processAlive } from '@docforge/fs-safe';
import { STANDBY_FILE_PATTERN } from '@docforge/builder';
import { fullBuildOf, indexRows } from './full-build.js';

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples');
const PAGE = 'docs/components/auth-gateway.md';

const graphOf = (root: string, file: string): Record<'nodes' | 'edges', string[]> => indexRows(root, file, {
  nodes: 'SELECT id, kind, title, body, source_path, start_line, end_line, anchors, content_hash FROM nodes ORDER BY id',
  edges: 'SELECT source_id, relation, target_id, source_path, line, mention FROM edges ORDER BY 1, 2, 3',
});

const indexDir = (root: string): string => path.join(root, '.docforge', 'index');
const standbys = (root: string): string[] => readdirSync(indexDir(root)).filter((name) => STANDBY_FILE_PATTERN.test(name));
const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** What must never change in a published file: its bytes and its inode, size and mtime. */
function fingerprint(root: string, file: string): string {
  const st = lstatSync(path.join(indexDir(root), file), { bigint: true });
  return `${sha(path.join(indexDir(root), file))}:${st.ino}:${st.size}:${st.mtimeNs}`;
}

describe('standby copies of a long-lived manager', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'docforge-standby-'));
    cpSync(examples, root, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('the idle-time copy equals the published file, the edit writes it, and no published file is altered', async () => {
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    const manager = new IndexManager({ root, noAst: false, watchSources: true });
    try {
      const cold = await manager.sync();
      await manager.whenIdle();
      const spare = standbys(root);
      assert.equal(spare.length, 1);
      assert.match(spare[0]!, new RegExp(`^\\.standby-${process.pid}-\\d+-`));
      assert.equal(sha(path.join(indexDir(root), spare[0]!)), sha(path.join(indexDir(root), cold.publication.index_file)));
      const spareIno = String(lstatSync(path.join(indexDir(root), spare[0]!), { bigint: true }).ino);
      const published = fingerprint(root, cold.publication.index_file);

      appendFileSync(path.join(root, PAGE), '\nA standby note, linking [the ledger](ledger.md).\n');
      const edit = await manager.sync();
      assert.equal(edit.stats!.mode, 'delta');
      assert.equal(edit.stats!.delta_base, 'standby');
      // The standby became the new generation's file (renamed, not copied again) ...
      assert.equal(edit.publication.index_ino, spareIno);
      assert.equal(lstatSync(path.join(indexDir(root), edit.publication.index_file)).size, edit.publication.index_size);
      // ... while the previous publication's file is exactly as it was published.
      assert.equal(fingerprint(root, cold.publication.index_file), published);
      assert.deepEqual(graphOf(root, edit.publication.index_file), await fullBuildOf(root, graphOf));

      // The next standby copies the new generation; the second edit uses it too.
      await manager.whenIdle();
      assert.equal(standbys(root).length, 1);
      const second = fingerprint(root, edit.publication.index_file);
      appendFileSync(path.join(root, PAGE), '\nA second standby note.\n');
      const again = await manager.sync();
      assert.equal(again.stats!.delta_base, 'standby');
      assert.equal(fingerprint(root, edit.publication.index_file), second);
      assert.deepEqual(graphOf(root, again.publication.index_file), await fullBuildOf(root, graphOf));
    } finally {
      await manager.close();
    }
    // Closing removes the standby it left.
    assert.deepEqual(standbys(root), []);
  });

  test('a standby rewritten in place (same size, mtime set back) or removed is not used, and the edit is still exact', async () => {
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    const manager = new IndexManager({ root, noAst: false, watchSources: true });
    try {
      await manager.sync();
      await manager.whenIdle();
      const file = path.join(indexDir(root), standbys(root)[0]!);
      const before = lstatSync(file);
      // Damage a page in the middle of the copy and restore the mtime: only the ctime tells.
      const fd = openSync(file, 'r+');
      writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, Math.floor(before.size / 8192 / 2) * 8192);
      closeSync(fd);
      utimesSync(file, before.atime, before.mtime);
      appendFileSync(path.join(root, PAGE), '\nA note written over a damaged standby.\n');
      const edit = await manager.sync();
      assert.equal(edit.stats!.mode, 'delta');
      assert.equal(edit.stats!.delta_base, 'copy');
      assert.deepEqual(graphOf(root, edit.publication.index_file), await fullBuildOf(root, graphOf));
      // The damaged copy is gone; a new standby of the new file took its place.
      await manager.whenIdle();
      assert.equal(standbys(root).length, 1);
      assert.equal(sha(path.join(indexDir(root), standbys(root)[0]!)), sha(path.join(indexDir(root), edit.publication.index_file)));

      rmSync(path.join(indexDir(root), standbys(root)[0]!));
      appendFileSync(path.join(root, PAGE), '\nA note after the standby was removed.\n');
      const removed = await manager.sync();
      assert.equal(removed.stats!.delta_base, 'copy');
      assert.deepEqual(graphOf(root, removed.publication.index_file), await fullBuildOf(root, graphOf));
    } finally {
      await manager.close();
    }
  });

  test('a publication by another process makes the standby stale: it is dropped, never used', async () => {
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    const server = new IndexManager({ root, noAst: false, watchSources: true });
    try {
      await server.sync();
      await server.whenIdle();
      const stale = standbys(root)[0]!;
      // Another process (a one-shot manager, as the CLI) publishes an edit.
      appendFileSync(path.join(root, PAGE), '\nA note published by the CLI.\n');
      const cli = new IndexManager({ root, noAst: false });
      let cliFile: string;
      try {
        const published = await cli.sync();
        assert.equal(published.rebuilt, true);
        cliFile = published.publication.index_file;
      } finally {
        await cli.close();
      }
      // The one-shot manager made no standby of its own; the server's is still there (its process lives).
      assert.deepEqual(standbys(root), [stale]);
      const cliPublished = fingerprint(root, cliFile);
      appendFileSync(path.join(root, PAGE), '\nA note the server indexes next.\n');
      const next = await server.sync();
      assert.notEqual(next.stats!.delta_base, 'standby');
      assert.equal(fingerprint(root, cliFile), cliPublished);
      assert.deepEqual(graphOf(root, next.publication.index_file), await fullBuildOf(root, graphOf));
      await server.whenIdle();
      const now = standbys(root);
      assert.equal(now.length, 1);
      assert.notEqual(now[0], stale);
    } finally {
      await server.close();
    }
  });

  test('a standby of a process that is gone is collected at the next publication; one of a live process is left alone', async () => {
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    const manager = new IndexManager({ root, noAst: false });
    try {
      await manager.sync();
      let gone = 4_000_000;
      while (processAlive({ pid: gone, start: null })) gone += 1;
      const dead = `.standby-${gone}-1-deadbeef.sqlite`;
      // A live process's (here: this test's parent, which no manager of this test owns).
      const live = `.standby-${process.ppid}-1-a1b2c3d4.sqlite`;
      writeFileSync(path.join(indexDir(root), dead), 'left by a crashed server');
      // A directory under a dead process's standby name is not ours to remove, and fails nothing.
      const planted = `.standby-${gone}-2-0d1r.sqlite`;
      mkdirSync(path.join(indexDir(root), planted));
      writeFileSync(path.join(indexDir(root), live), 'a running server is copying');
      appendFileSync(path.join(root, PAGE), '\nA note that publishes a generation.\n');
      const edit = await manager.sync();
      assert.equal(edit.rebuilt, true);
      assert.equal(edit.sync_error, null);
      assert.deepEqual(standbys(root).sort(), [live, planted].sort());
    } finally {
      await manager.close();
    }
  });
});
