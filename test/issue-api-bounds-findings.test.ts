// Pins end to end that the public API link step's whole-input findings (issue 31, break-it trial
// F5/F6) reach `docforge_validate_project`: a malformed nested package.json is a
// `malformed_package_json` warning naming the file, one over the 1 MB a project text may hold
// (20,000 conditional subpaths) an `unreadable_package_json` warning, and a package past the
// 20,000-name cap a `public_api_bounded` warning naming its package.json. Both stay after an incremental sync that
// re-links one file (the builder keeps the other files' outputs but takes these findings from
// every link call), and go when the package.json is fixed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

const root = tempDir('docforge-api-bounds-');
const write = (rel: string, text: string): void => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};
write('docforge.toml', [
  'schema_version = 1', '[project]', 'id = "bounds"', 'name = "bounds"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
  '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
].join('\n'));
write('docs/index.md', '# Bounds\n\nCall `wide.main()`.\n');
const exportsField: Record<string, unknown> = { '.': './index.js' };
// Plain string targets keep this package.json under the 1 MB a project text may hold.
for (let i = 0; i < 20_005; i += 1) exportsField[`./s${i}`] = './lib/a.js';
write('package.json', JSON.stringify({ name: 'wide', exports: exportsField }));
write('index.js', 'export function main () {}\n');
write('lib/a.js', 'export function fn () {}\n');
write('packages/broken/package.json', '{ "name": "broken", ');
write('packages/broken/index.js', 'export function lost () {}\n');
// 20,000 conditional subpaths: over 1 MB, which the linker may not read.
const huge: Record<string, unknown> = {};
for (let i = 0; i < 20_000; i += 1) huge[`./s${i}`] = { import: './index.js', require: './index.js' };
write('packages/huge/package.json', JSON.stringify({ name: 'huge', exports: huge }));
write('packages/huge/index.js', 'export function big () {}\n');
const s = await useServer(root);

interface Item { code: string; path: string | null; severity: string; message: string }
async function findings(): Promise<Item[]> {
  const validation = await s.call('docforge_validate_project', { limit: 200 });
  assert.equal(validation.ok, true, JSON.stringify(validation.error));
  return (validation.result!.items as Item[]).filter((item) => /^(public_api_bounded|malformed_package_json|unreadable_package_json)$/.test(item.code));
}

test('validate_project reports the cap and the malformed package.json, by file; an incremental sync keeps them; a fix removes one (the fixed package is then cut by the full table)', async () => {
  const first = await findings();
  assert.deepEqual(first.map((item) => [item.code, item.path, item.severity]), [
    ['malformed_package_json', 'packages/broken/package.json', 'warning'],
    ['unreadable_package_json', 'packages/huge/package.json', 'warning'],
    ['public_api_bounded', 'package.json', 'warning'],
  ]);
  assert.match(first[1]!.message, /larger than 1000000 bytes/);
  const documents = await s.call('docforge_backlinks', { node_id: 'code:index.js#main', relations: ['documents'], limit: 10 });
  assert.ok(documents.result!.items.some((item: { source_path: string }) => item.source_path === 'docs/index.md'), 'the main entry is linked up to the cap');

  write('index.js', 'export function main () {}\nexport function more () {}\n');
  assert.equal((await s.call('docforge_sync')).ok, true);
  assert.deepEqual((await findings()).map((item) => item.code), ['malformed_package_json', 'unreadable_package_json', 'public_api_bounded']);

  write('packages/broken/package.json', JSON.stringify({ name: 'broken', main: './index.js' }));
  assert.equal((await s.call('docforge_sync')).ok, true);
  // The fixed package is linked now, but the table is already full: it says so too.
  assert.deepEqual((await findings()).map((item) => [item.code, item.path]), [
    ['unreadable_package_json', 'packages/huge/package.json'],
    ['public_api_bounded', 'package.json'],
    ['public_api_bounded', 'packages/broken/package.json'],
  ]);
});
