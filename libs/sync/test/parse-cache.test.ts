// Pins issue 14 item 4: cached parses live in the state directory's parse cache, outside every published index file; a missing, damaged or linked cache only costs re-parsing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { StateLayout } from '@docforge/fs-safe';
import { IndexManager } from '../src/index.js';
import { readParseCache, writeParseCache } from '@docforge/store';

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples');

function copyExamples(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docforge-parse-cache-'));
  cpSync(examples, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.docforge`) });
  return dir;
}

function graphOf(root: string, file: string): string[] {
  const db = new Database(path.join(root, '.docforge', 'index', file), { readonly: true });
  try {
    return [
      ...(db.prepare('SELECT id, content_hash FROM nodes ORDER BY id').raw().all() as string[][]).map((r) => r.join(' ')),
      ...(db.prepare('SELECT source_id, relation, target_id, source_path, line FROM edges ORDER BY 1, 2, 3').raw().all() as unknown[][]).map((r) => r.join(' ')),
      // drift_unreviewed_change and drift_unresolved_mention (issue 32) depend on the disposable review baseline of the state dir, not on the sources: left out of this build-equivalence comparison.
      ...(db.prepare('SELECT code, path, line FROM issues WHERE code NOT IN (\'drift_unreviewed_change\', \'drift_unresolved_mention\') ORDER BY seq').raw().all() as unknown[][]).map((r) => r.join(' ')),
    ];
  } finally {
    db.close();
  }
}

/** A cold build, then a new process (a new worker) after one edit; returns that build's stats and graph. */
async function warmAfter(root: string, spoil: (cache: string) => void): Promise<{ parsed: number; mode: string; graph: string[]; columns: string[] }> {
  const first = new IndexManager({ root, noAst: false });
  const cold = await first.sync();
  await first.close();
  const columns = (new Database(path.join(root, '.docforge', 'index', cold.publication.index_file), { readonly: true }).prepare('SELECT name FROM pragma_table_info(\'sources\')').pluck().all() as string[]);
  spoil(path.join(root, '.docforge', 'parse-cache.sqlite'));
  appendFileSync(path.join(root, 'src/ledger/ledger.ts'), '\nexport const extra = 1;\n');
  const second = new IndexManager({ root, noAst: false });
  const warm = await second.sync();
  await second.close();
  return { parsed: warm.stats!.parsed, mode: warm.stats!.mode, graph: graphOf(root, warm.publication.index_file), columns };
}

test('the published file holds no parses; a new process warms from the parse cache and matches a full build', async () => {
  const root = copyExamples();
  const fresh = copyExamples();
  try {
    const result = await warmAfter(root, (cache) => assert.ok(existsSync(cache), 'the parse cache is written beside index/'));
    assert.ok(!result.columns.includes('parse'), 'no parse column in the published sources table');
    assert.equal(result.mode, 'delta');
    assert.equal(result.parsed, 1, 'only the edited file is parsed');
    cpSync(path.join(root, 'src/ledger/ledger.ts'), path.join(fresh, 'src/ledger/ledger.ts'));
    const full = new IndexManager({ root: fresh, noAst: false });
    const reference = await full.sync();
    await full.close();
    assert.deepEqual(result.graph, graphOf(fresh, reference.publication.index_file));
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(fresh, { recursive: true, force: true });
  }
});

test('a damaged parse cache means re-parsing, with the same graph, and is rewritten', async () => {
  const root = copyExamples();
  const other = copyExamples();
  try {
    const damaged = await warmAfter(root, (cache) => writeFileSync(cache, 'not a database'));
    assert.ok(damaged.parsed > 1, 'sources are parsed again');
    const intact = await warmAfter(other, () => undefined);
    assert.deepEqual(damaged.graph, intact.graph);
    assert.notEqual(readFileSync(path.join(root, '.docforge', 'parse-cache.sqlite')).subarray(0, 15).toString(), 'not a database');
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  }
});

test('a symbolic link planted as the parse cache is neither read nor written through', async () => {
  const root = copyExamples();
  const outside = mkdtempSync(path.join(os.tmpdir(), 'docforge-parse-cache-outside-'));
  try {
    const target = path.join(outside, 'target.sqlite');
    writeFileSync(target, 'outside');
    const result = await warmAfter(root, (cache) => {
      rmSync(cache, { force: true });
      symlinkSync(target, cache);
    });
    assert.ok(result.parsed > 1, 'the linked cache was not read');
    assert.equal(readFileSync(target, 'utf8'), 'outside', 'nothing was written through the link');
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});

test('writing the parse cache never throws, even where its files can be neither written nor removed', () => {
  // A state "directory" that is a regular file: opening, writing and removing the cache all fail (ENOTDIR).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docforge-parse-cache-unwritable-'));
  try {
    const stateDir = path.join(dir, 'state');
    writeFileSync(stateDir, 'not a directory\n');
    const layout = { stateDir } as StateLayout;
    const stamp = { root: dir, descriptorHash: '0'.repeat(64), logicAllowed: true, adapterVersion: 'test' };
    const rows = [{ path: 'a.md', sourceKey: '1:2:3:4', parse: '{}', linkData: null }];
    assert.doesNotThrow(() => writeParseCache(layout, stamp, rows, [], true));
    assert.doesNotThrow(() => writeParseCache(layout, stamp, rows, ['b.md'], false));
    assert.equal(readParseCache(layout, stamp, new Map([['a.md', '1:2:3:4']])).size, 0);
    assert.equal(readFileSync(stateDir, 'utf8'), 'not a directory\n', 'nothing else was touched');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('link data is read from the cache when asked, by path: the same parse under new stat fields still reads, another parse or a removed row reads null', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docforge-parse-cache-fetch-'));
  try {
    const layout = { stateDir: dir } as StateLayout;
    const stamp = { root: dir, descriptorHash: '0'.repeat(64), logicAllowed: true, adapterVersion: 'test' };
    writeParseCache(layout, stamp, [
      { path: 'a.ts', sourceKey: '1:2:3:hashA', parse: '{"v":3}', linkData: '{"format":"a"}' },
      { path: 'b.ts', sourceKey: '1:2:3:hashB', parse: '{"v":3}', linkData: '{"format":"b"}' },
      { path: 'c.md', sourceKey: '1:2:3:hashC', parse: '{"v":3}', linkData: null },
    ], [], true);
    const cached = readParseCache(layout, stamp, new Map([['a.ts', '1:2:3:hashA'], ['b.ts', '1:2:3:hashB'], ['c.md', '1:2:3:hashC']]));
    assert.equal(cached.size, 3);
    assert.equal(cached.get('c.md')!.linkData, null, 'no link data: nothing to read');
    // The same content touched (new mtime): the row is re-keyed, the link data is the same.
    writeParseCache(layout, stamp, [{ path: 'a.ts', sourceKey: '9:9:9:hashA', parse: '{"v":3}', linkData: '{"format":"a"}' }], [], false);
    assert.equal(cached.get('a.ts')!.linkData!(), '{"format":"a"}');
    // Another content under that path, then a removed row: null (the caller counts it as damaged).
    writeParseCache(layout, stamp, [{ path: 'b.ts', sourceKey: '1:2:3:other', parse: '{"v":3}', linkData: '{"format":"other"}' }], [], false);
    assert.equal(cached.get('b.ts')!.linkData!(), null);
    writeParseCache(layout, stamp, [], ['a.ts'], false);
    assert.equal(cached.get('a.ts')!.linkData!(), null);
    // Another stamp (adapter version) for the same content: null.
    writeParseCache(layout, { ...stamp, adapterVersion: 'other' }, [{ path: 'b.ts', sourceKey: '1:2:3:hashB', parse: '{"v":3}', linkData: '{"format":"b"}' }], [], false);
    assert.equal(cached.get('b.ts')!.linkData!(), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
