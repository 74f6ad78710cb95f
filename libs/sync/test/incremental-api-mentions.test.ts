// Pins issue 31 item 3 under incremental builds: mentions linked through a package's public API
// (pino's entry `pino.js` and its re-exports) and through names a page's code blocks bind give,
// after each documentation or code edit in one long-lived manager, exactly the edges and mention
// counts a full build from scratch gives; an export removed from the entry unlinks its mentions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IndexManager } from '../src/index.js';
import { fullBuildOf, indexRows } from './full-build.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const pino = path.join(repo, 'node_modules', 'pino');

const QUERIES = {
  edges: "SELECT source_id, relation, target_id, source_path, line, mention FROM edges WHERE relation = 'documents' ORDER BY 1, 2, 3",
  meta: "SELECT value FROM meta WHERE key = 'mention_counts'",
};
type Rows = Record<keyof typeof QUERIES, string[]>;

function pinoProject(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-api-incremental-'));
  for (const part of ['docs', 'lib', 'pino.js', 'pino.d.ts', 'package.json']) cpSync(path.join(pino, part), path.join(root, part), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', 'id = "pino"', 'name = "pino"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
    'exclude = ["**/node_modules/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
  ].join('\n'));
  return root;
}

test('API mentions resolve the same incrementally as from scratch across doc and code edits', { timeout: 240_000 }, async () => {
  const root = pinoProject();
  const at = (rel: string): string => path.join(root, rel);
  const replace = (rel: string, from: string, to: string): void => {
    const text = readFileSync(at(rel), 'utf8');
    assert.ok(text.includes(from), `${rel} holds ${JSON.stringify(from)}`);
    writeFileSync(at(rel), text.replace(from, to));
  };
  const page = (binding: string): string => [
    '# Streams', '', '```js', binding, 'const logger = P()', '```', '',
    'Fan out with `P.multistream()`; ship with `pino.transport()`; `logger.child()` is not proven.', '',
  ].join('\n');
  const edits: [string, () => void][] = [
    ['a page binding the package', () => writeFileSync(at('docs/streams.md'), page("const P = require('pino')"))],
    ['the binding names another package', () => writeFileSync(at('docs/streams.md'), page("const P = require('other')"))],
    ['the binding is restored', () => writeFileSync(at('docs/streams.md'), page("const P = require('pino')"))],
    ['an export leaves the entry', () => replace('pino.js', "module.exports.multistream = require('./lib/multistream')", "module.exports.fanout = require('./lib/multistream')")],
    ['the export comes back', () => replace('pino.js', "module.exports.fanout = require('./lib/multistream')", "module.exports.multistream = require('./lib/multistream')")],
  ];
  const manager = new IndexManager({ root, noAst: false });
  try {
    await manager.sync();
    const seen: Rows[] = [];
    for (const [label, edit] of edits) {
      edit();
      const outcome = await manager.sync();
      const incremental = indexRows(root, outcome.publication.index_file, QUERIES);
      const expected = await fullBuildOf(root, (r, file) => indexRows(r, file, QUERIES));
      assert.deepEqual(incremental, expected, label);
      seen.push(incremental);
    }
    const linksTo = (rows: Rows, target: string): boolean => rows.edges.some((row) => {
      const [source, , to] = JSON.parse(row) as string[];
      return source === 'streams' && to === target;
    });
    // Bound to pino: P.multistream links; bound to another package: it does not; renamed export: unlinked.
    assert.equal(linksTo(seen[0]!, 'code:lib/multistream.js#multistream'), true);
    assert.equal(linksTo(seen[1]!, 'code:lib/multistream.js#multistream'), false);
    assert.equal(linksTo(seen[3]!, 'code:lib/multistream.js#multistream'), false);
    assert.equal(linksTo(seen[4]!, 'code:lib/multistream.js#multistream'), true);
    for (const rows of seen) assert.equal(linksTo(rows, 'code:lib/transport.js#transport'), true);
    assert.ok((JSON.parse(JSON.parse(seen[0]!.meta[0]!)[0]) as { unproven_receiver?: number }).unproven_receiver! >= 1, seen[0]!.meta[0]);
  } finally {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  }
});
