// Pins query coverage by region (issue 31 item 2, ranking-coverage.ts) on code nobody here wrote:
// find-my-way's `Router.prototype.find` (the installed package, about 190 lines) says "interned" and
// "pointer" in the comment on its first lines and "sibling" in a comment near its end. Words a
// long body holds only in its code text count when they sit in one region of REGION_LINES lines,
// so the two far-apart words count as one of the two, the two close ones as both, and a short
// function counts every word it holds.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { IndexReader } from '@docforge/store';
import { queryCoverage, REGION_LINES } from '../src/ranking-coverage.js';
import { indexedProject } from './helpers.js';

const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve('find-my-way/package.json'));
const FIND = 'code:index.js#Router.find';

/** The 1-based line of index.js holding `text` at or after line `from`. */
function lineOf(source: string[], text: string, from = 1): number {
  const index = source.findIndex((line, i) => i + 1 >= from && line.includes(text));
  assert.ok(index >= 0, text);
  return index + 1;
}

describe("find-my-way's Router.find", () => {
  let reader: IndexReader;

  indexedProject('docforge-region-', (root) => {
    cpSync(path.join(packageDir, 'index.js'), path.join(root, 'index.js'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "fmw"\n[sources]\ncontent_roots = []\ncode_roots = ["."]\n[adapter]\ncode = "typescript"\n');
  }, (ready) => {
    reader = ready;
  });

  /** The share `queryCoverage` gives the node `id` for one query group per word, each of weight 1. */
  function share(id: string, words: readonly string[]): number {
    const rows = reader.ftsCodeCandidates({ mode: 'all', groups: words.map((w) => [w]) }, {}, 50, Infinity);
    const row = rows.find((r) => r.id === id);
    assert.ok(row !== undefined, `${id} holds ${words.join(', ')} in its code text: ${rows.map((r) => r.id).join(', ')}`);
    const groups = new Map(words.map((w, i) => [i, [w]] as const));
    return queryCoverage(reader, groups, words.map(() => 1), words.length, [row.rowid], new Set([row.rowid])).get(row.rowid) ?? 0;
  }

  test('two words far apart in a long body count as one; two words on neighbouring lines count as both', () => {
    const source = readFileSync(path.join(packageDir, 'index.js'), 'utf8').split('\n');
    const start = lineOf(source, 'Router.prototype.find = function find');
    const interned = lineOf(source, 'interned', start);
    const pointer = lineOf(source, 'pointer', start);
    const sibling = lineOf(source, 'try the next sibling', start);
    // The premise, read from the source: "interned" and "pointer" are neighbours, "sibling" is far below them.
    assert.ok(Math.abs(pointer - interned) < REGION_LINES && sibling - interned >= REGION_LINES, `${interned} ${pointer} ${sibling}`);
    assert.equal(share(FIND, ['interned', 'pointer']), 1);
    assert.equal(share(FIND, ['interned', 'sibling']), 0.5);
    assert.equal(share(FIND, ['interned', 'pointer', 'sibling']), 2 / 3);
  });
});
