// Pins that cached parses are reused only by the program that made them (break-it trial,
// 2026-12-04): the parse cache (parse-cache.ts) and a warm start (warm.ts) key each cached parse by
// the adapter version (`docs@2+typescript@1.2.0+strategy=ast`), not by the program's code, so a
// change of what a parse produces that keeps that version would keep publishing the old parses
// after an upgrade. This test fails when the parse output of examples/ (every cached parse and
// link data, and the node rows a warm start takes from the index) differs from the digest
// recorded for the current adapter version: bump the version of the adapter whose output changed
// (DOCUMENT_LOADER_VERSION in src/adapter-manifests.ts, or the code adapter's manifest) and record
// the new version and digest in test/fixtures/parse-output.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { IndexManager } from '../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const examples = path.resolve(here, '../../../../examples');
const fixture = path.resolve(here, '../../test/fixtures/parse-output.json');

test('the parse output of examples/ is the one recorded for the current adapter version', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-parse-output-'));
  try {
    cpSync(examples, root, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') });
    const manager = new IndexManager({ root, noAst: false });
    let indexFile: string;
    let adapterVersion: string;
    try {
      const cold = await manager.sync();
      assert.equal(cold.stats!.mode, 'full');
      indexFile = cold.publication.index_file;
      adapterVersion = cold.publication.adapter_version;
    } finally {
      await manager.close();
    }
    const cache = new Database(path.join(root, '.docforge', 'parse-cache.sqlite'), { readonly: true });
    const parses = cache.prepare('SELECT path, parse, link_data FROM parses ORDER BY path').raw().all();
    cache.close();
    const index = new Database(path.join(root, '.docforge', 'index', indexFile), { readonly: true });
    // Every column a warm start reads back for a cached parse's nodes (capabilities come from linking).
    const nodes = index.prepare(`SELECT id, kind, title, family, authority, status, tags, summary, body, source_path, start_line, end_line,
      anchors, headings, terms, language, origin, content_hash FROM nodes ORDER BY id`).raw().all();
    index.close();
    assert.ok(parses.length >= 59 && nodes.length >= 173, `${parses.length} parses, ${nodes.length} nodes`);
    const digest = createHash('sha256').update(JSON.stringify({ parses, nodes })).digest('hex');
    const recorded = JSON.parse(readFileSync(fixture, 'utf8')) as { adapter_version: string; digest: string };
    assert.equal(recorded.adapter_version, adapterVersion,
      `the adapter version is now ${adapterVersion}: record it with its digest ${digest} in ${fixture}`);
    assert.equal(digest, recorded.digest,
      `the parse output of examples/ changed under adapter version ${adapterVersion}: cached parses of this version would keep the old output. ` +
      `Bump the version of the adapter whose output changed, then record the new version and digest (${digest}) in ${fixture}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
