// Pins the minified-code rule (new-user trial on marked 18, whose `lib/marked.esm.js` was indexed as
// `#$`, `#G`, `#ne.walkTokens`) on real files of the installed packages: minified bundles without a
// bundle name (qs's browserify `dist/qs.js`, toml-patch's `dist/toml-patch.js`) and `*.min.js`
// builds are minified; readable builds with a source map reference (lru-cache's `dist/esm/index.js`),
// a hand-written file of long regex lines (ajv's `lib/compile/formats.js`) and the TypeScript
// compiler's own bundle are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { minifiedEvidence, minifiedReason } from '../src/index.js';

const NODE_MODULES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../node_modules');
const read = (rel: string): string => readFileSync(path.join(NODE_MODULES, rel), 'utf8');

test('minified bundles are minified, whatever their name', () => {
  for (const rel of ['qs/dist/qs.js', '@decimalturn/toml-patch/dist/toml-patch.js', 'lru-cache/dist/esm/index.min.js', 'markdown-it/dist/markdown-it.min.js']) {
    const evidence = minifiedEvidence(read(rel));
    assert.ok(evidence !== null, rel);
    assert.ok(evidence.long_line_percent >= 80 && evidence.whitespace_percent < 6, `${rel}: ${JSON.stringify(evidence)}`);
  }
  const toml = minifiedEvidence(read('@decimalturn/toml-patch/dist/toml-patch.js'))!;
  assert.match(minifiedReason(toml), /^\d+% of its text on lines of 500\+ characters \(longest \d+\), \d+(\.\d)?% whitespace/);
  assert.equal(minifiedEvidence(read('lru-cache/dist/esm/index.min.js'))!.source_map, true);
});

test('readable code is not minified: a build with a source map, long regex lines, a large bundle', () => {
  for (const rel of ['lru-cache/dist/esm/index.js', '@microsoft/jest-sarif/node_modules/ajv/lib/compile/formats.js', 'typescript/lib/typescript.js', 'qs/lib/parse.js']) {
    assert.equal(minifiedEvidence(read(rel)), null, rel);
  }
});

test('a short one-line file is never judged', () => {
  assert.equal(minifiedEvidence('module.exports=require("./lib/index.js");'.repeat(20)), null);
});

test('a leading data literal is no evidence: the code after it is judged, the longest line is its true length', () => {
  // Attacker trial on main: a 93 KB one-line base64 constant before ordinary functions, and a
  // 3.6 MB one-line array before `export function afterData`, were left out as minified with
  // "longest 65536" (the sample size). Real data and real readable code: lru-cache's own build
  // after a base64 constant of markdown-it's minified bundle, and qs's `lib/parse.js` after a JSON array of
  // mime-db's entries on one line.
  const base64 = `const FONT = "${Buffer.from(read('markdown-it/dist/markdown-it.min.js')).toString('base64')}";\n`;
  assert.ok(base64.length > 65536);
  assert.equal(minifiedEvidence(`${base64}${read('lru-cache/dist/esm/index.js')}`), null);
  const db = JSON.parse(read('mime-db/db.json')) as Record<string, unknown>;
  const array = `module.exports.TYPES = ${JSON.stringify(Object.entries(db))};\n`;
  assert.ok(array.length > 65536);
  assert.equal(minifiedEvidence(`${array}${read('qs/lib/parse.js')}`), null);
  // Minified code after the data is still minified, and its figures are its own.
  const bundle = read('qs/dist/qs.js');
  const after = minifiedEvidence(`${base64}${bundle}`);
  assert.ok(after !== null);
  const lines = bundle.split('\n').map((line) => line.length);
  assert.equal(after.longest_line, Math.max(...lines));
});

test('a minified line longer than the sample reports its whole length', () => {
  const bundle = read('markdown-it/dist/markdown-it.min.js');
  const evidence = minifiedEvidence(bundle)!;
  assert.equal(evidence.longest_line, Math.max(...bundle.split('\n').map((line) => line.length)));
});
