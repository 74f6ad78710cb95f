// Regression (issue 8 items 2, 3, 7) over stdio: foreign front matter keeps pages with path ids, bad encodings are invalid_encoding findings (no garbage nodes), code ids encode `#`, links to missing code files and anchors are broken_link, case-only kind variants warn.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeDir } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-content-faults-'));
const write = (rel: string, content: string | Buffer): void => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
};
const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

write('docforge.toml', 'schema_version = 1\n[project]\nid = "faults"\nname = "Faults"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n');
// Item 2: Docusaurus repeats `id: intro` in every folder.
for (const folder of ['tutorial-basics', 'tutorial-extras']) {
  write(`docs/${folder}/intro.md`, `---\nid: intro\ntitle: Intro to ${folder}\ndescription: Where ${folder} starts.\ntags: [tutorial, ${folder}]\n---\n\n# Welcome\n\nText.\n`);
}
write('docs/posts/hugo.md', '+++\ntitle = "Hugo page"\ndate = 2024-01-01\ntags = ["hugo"]\ndescription = "From Hugo."\n+++\n# Hugo heading\n');
write('docs/broken-yaml.md', '---\ntitle: Broken\ntags: [a, b\n---\n# Real title\n\nBody.\n');
write('docs/late.md', '\n+++\nid = "LATE"\nkind = "requirement"\ntitle = "Late"\n+++\n# Late page\n');
// Item 3: Latin-1 bytes on line 3, a UTF-16 file, a TOML record file and a code file that are not UTF-8.
write('docs/latin1.md', latin1('# Menu\n\nKaffeehaus caf\u00e9 cr\u00e8me\n'));
write('docs/utf16.md', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Wide\n\nUTF-16 text\n', 'utf16le')]));
write('docs/records.toml', latin1('[[node]]\nid = "REC-1"\nkind = "decision"\ntitle = "Caf\u00e9"\n'));
write('src/latin1.ts', latin1('export const a = 1;\n// caf\u00e9\n'));
// Item 7: a code file named with `#`, links to missing code and anchors, case-only kind variants.
write('src/weird#name.ts', 'export function f(): number { return 1; }\n');
write('src/ok.ts', 'export const ok = true;\n');
write('docs/api.md', '# API\n\n## Listen\n\nText.\n');
write('docs/guide.md', [
  '# Guide', //                                                      1
  '', //                                                             2
  '[weird](../src/weird%23name.ts) and [ok](../src/ok.ts)', //       3
  '[missing code](../src/missing.ts)', //                            4
  '[listen](api.md#listen) and [nope](api.md#nope)', //             5
  '[self](#guide) and [self nope](#nope)', //                        6
  '',
].join('\n'));
write('docs/req-a.md', '+++\nid = "REQ-A"\nkind = "requirement"\ntitle = "A"\n+++\nA.\n');
write('docs/req-b.md', '+++\nid = "REQ-B"\nkind = "requirement"\ntitle = "B"\n+++\nB.\n');
write('docs/req-c.md', '+++\nid = "REQ-C"\nkind = "Requirement"\ntitle = "C"\n+++\nC.\n');
after(() => removeDir(root));
const s = await useServer(root);

const validation = await s.call('docforge_validate_project', { limit: 200 });
const findings = (code: string): Json[] => validation.result!.items.filter((item: Json) => item.code === code);

describe('issue 8: content faults over stdio', () => {
  test('Docusaurus pages keep path-derived ids; title, summary and tags come from the YAML; no duplicate ids', async () => {
    assert.equal(validation.ok, true, JSON.stringify(validation.error));
    assert.deepEqual(findings('duplicate_id'), []);
    const node = await s.call('docforge_get_node', { node_id: 'tutorial-basics/intro' });
    assert.equal(node.ok, true, JSON.stringify(node.error));
    assert.equal(node.result!.node.title, 'Intro to tutorial-basics');
    assert.equal(node.result!.node.summary, 'Where tutorial-basics starts.');
    assert.deepEqual(node.result!.node.tags, ['tutorial', 'tutorial-basics']);
    assert.deepEqual(node.result!.node.anchors.map((anchor: Json) => anchor.slug), ['welcome'], 'no heading made of the YAML lines');
    assert.equal((await s.call('docforge_get_node', { node_id: 'tutorial-extras/intro' })).ok, true);
    await expectError(s.call('docforge_get_node', { node_id: 'intro' }), 'node_not_found');
    const hugo = await s.call('docforge_get_node', { node_id: 'posts/hugo' });
    assert.equal(hugo.ok, true, 'Hugo TOML without id/kind is not malformed and the page is served');
    assert.deepEqual([hugo.result!.node.title, hugo.result!.node.summary, hugo.result!.node.tags], ['Hugo page', 'From Hugo.', ['hugo']]);
  });

  test('an unreadable YAML block is an error with file and line; the page is still served; a late +++ block warns', async () => {
    const malformed = findings('malformed_front_matter');
    assert.deepEqual(malformed.map((item) => [item.path, item.severity]), [['docs/broken-yaml.md', 'error']]);
    assert.ok(malformed[0]!.line >= 3 && malformed[0]!.line <= 4, `line ${malformed[0]!.line}`);
    const broken = await s.call('docforge_get_node', { node_id: 'broken-yaml' });
    assert.equal(broken.result!.node.title, 'Real title');
    assert.deepEqual(findings('misplaced_front_matter').map((item) => [item.path, item.line, item.severity]), [['docs/late.md', 2, 'warning']]);
    const late = await s.call('docforge_get_node', { node_id: 'late' });
    assert.equal(late.result!.node.title, 'Late page');
  });

  test('files that are not UTF-8 are invalid_encoding findings with file and line, and are not indexed', async () => {
    const found = findings('invalid_encoding').map((item) => [item.path, item.line, item.severity]);
    assert.deepEqual(found, [['docs/latin1.md', 3, 'error'], ['docs/records.toml', 4, 'error'], ['docs/utf16.md', 1, 'error'], ['src/latin1.ts', 2, 'error']]);
    assert.match(findings('invalid_encoding')[0]!.message, /^docs\/latin1\.md:3:\d+: byte 0xE9 is not valid UTF-8/);
    assert.match(findings('invalid_encoding')[2]!.message, /UTF-16 LE/);
    for (const id of ['latin1', 'utf16', 'REC-1', 'code:src/latin1.ts']) await expectError(s.call('docforge_get_node', { node_id: id }), 'node_not_found');
    const search = await s.call('docforge_search', { query: 'Kaffeehaus' });
    assert.deepEqual(search.result!.items, [], 'no node holds replaced text');
    assert.equal(validation.result!.valid, false);
  });

  test('a code file named with # has ids whose path part is encoded, and a Markdown link to it documents it', async () => {
    const module = await s.call('docforge_get_node', { node_id: 'code:src/weird%23name.ts' });
    assert.equal(module.ok, true, JSON.stringify(module.error));
    assert.equal(module.result!.node.source_path, 'src/weird#name.ts');
    const fn = await s.call('docforge_get_node', { node_id: 'code:src/weird%23name.ts#f' });
    assert.equal(fn.result!.node.kind, 'function');
    const back = await s.call('docforge_backlinks', { node_id: 'code:src/weird%23name.ts' });
    assert.ok(back.result!.items.some((item: Json) => item.id === 'guide' && item.relation === 'documents'), JSON.stringify(back.result!.items));
  });

  test('links to a missing code file and to missing anchors are broken_link warnings at their lines; good links are not', async () => {
    const broken = findings('broken_link').filter((item) => item.path === 'docs/guide.md').map((item) => [item.line, item.severity, item.message.replace(/^docs\/guide\.md:\d+: /, '')])
      .sort((a, b) => a[0] - b[0]);
    assert.deepEqual(broken, [
      [4, 'warning', 'link to "src/missing.ts" does not resolve to a code file under the code roots'],
      [5, 'warning', 'link to "docs/api.md#nope": that file has no section or anchor "nope"'],
      [6, 'warning', 'link to "#nope": this file has no section or anchor "nope"'],
    ]);
    const deps = await s.call('docforge_dependencies', { node_id: 'guide', depth: 1 });
    const targets = deps.result!.items.map((item: Json) => item.id).sort();
    assert.deepEqual(targets, ['api', 'code:src/ok.ts', 'code:src/weird%23name.ts'], 'a link with a missing anchor still relates the pages');
  });

  test('a kind differing only in case from another warns, naming both', async () => {
    const mismatch = findings('vocabulary_case_mismatch');
    assert.deepEqual(mismatch.map((item) => [item.path, item.line, item.node_id, item.severity]), [['docs/req-c.md', 1, 'REQ-C', 'warning']]);
    assert.match(mismatch[0]!.message, /kind "Requirement" .* kind "requirement" \(2 nodes/);
  });
});

describe('issue 8: a project-owned adapter input that is not UTF-8', async () => {
  const adapterRoot = mkdtempSync(path.join(os.tmpdir(), 'docforge-content-faults-adapter-'));
  after(() => removeDir(adapterRoot));
  const put = (rel: string, content: string | Buffer): void => {
    mkdirSync(path.dirname(path.join(adapterRoot, rel)), { recursive: true });
    writeFileSync(path.join(adapterRoot, rel), content);
  };
  put('docforge.toml', 'schema_version = 1\n[project]\nid = "inputs"\nname = "Inputs"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\nmodule = ".docforge/adapter.mjs"\n');
  put('docs/readme.md', '# Readme\n');
  put('inputs/good.txt', 'caf\u00e9\n');
  put('inputs/bad.txt', latin1('line one\ncaf\u00e9\n'));
  put('.docforge/adapter.mjs', [
    "export const version = '1.0.0';",
    "export const inputs = ['inputs/*.txt'];",
    'export function extract({ files }) {',
    "  return { nodes: files.map((file) => ({ id: 'input:' + file.path, kind: 'input', title: file.content === '' ? '(empty)' : file.content.trim() })) };",
    '}',
    '',
  ].join('\n'));
  const server = await useServer(adapterRoot);

  test('is passed with empty content and reported as invalid_encoding at its line, never with U+FFFD', async () => {
    const good = await server.call('docforge_get_node', { node_id: 'input:inputs/good.txt' });
    assert.equal(good.result!.node.title, 'caf\u00e9');
    const bad = await server.call('docforge_get_node', { node_id: 'input:inputs/bad.txt' });
    assert.equal(bad.result!.node.title, '(empty)');
    const v = await server.call('docforge_validate_project', { limit: 50 });
    assert.deepEqual(v.result!.items.filter((item: Json) => item.code === 'invalid_encoding').map((item: Json) => [item.path, item.line]), [['inputs/bad.txt', 2]]);
  });
});
