// Regression (issue 30 item 2): words of scripts written without spaces (Chinese, Japanese, Thai)
// are found inside a sentence, by `docforge search` and by the MCP server, and excerpts show the
// text as written. Real text: Japanese and Chinese messages shipped by TypeScript (node_modules/
// typescript/lib/{ja,zh-cn}/diagnosticMessages.generated.json, read here at run time), Thai messages
// of zod's Thai locale (node_modules/zod/v4/locales/th.js, checked here to hold the sentence), and the
// NAME line of apropos(1) in Debian man-db 2.11.2's Japanese translation (/usr/share/man/ja/man1/
// apropos.1.gz: "マニュアルページの名前と要約文を検索する").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/projects.js';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { useServer, type Json } from './helpers/server.js';

const tsMessages = (locale: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/typescript/lib', locale, 'diagnosticMessages.generated.json'), 'utf8')) as Record<string, string>;
const ja = tsMessages('ja');
const zh = tsMessages('zh-cn');
const THAI = 'ประเภทข้อมูลไม่ถูกต้อง: ควรเป็น';
const THAI_OPTION = 'ตัวเลือกไม่ถูกต้อง: ควรเป็นหนึ่งใน';
const zodThai = readFileSync(path.join(REPO_ROOT, 'node_modules/zod/v4/locales/th.js'), 'utf8');
const APROPOS_JA = 'マニュアルページの名前と要約文を検索する';

const root = tempDir('docforge-unspaced-');
mkdirSync(path.join(root, 'docs'));
writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "unspaced"\nname = "Unspaced"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
writeFileSync(path.join(root, 'docs', 'apropos.md'), `# apropos\n\napropos - ${APROPOS_JA}。\n`);
writeFileSync(path.join(root, 'docs', 'ts-ja.md'), `# TypeScript\n\n${ja['Unterminated_string_literal_1002']}\n\n${ja['Generates_a_sourcemap_for_each_corresponding_d_ts_file_6000']}\n`);
writeFileSync(path.join(root, 'docs', 'ts-zh.md'), `# TypeScript\n\n${zh['Unterminated_string_literal_1002']}\n\n${zh['Generates_a_sourcemap_for_each_corresponding_d_ts_file_6000']}\n`);
writeFileSync(path.join(root, 'docs', 'zod-th.md'), `# zod\n\n${THAI} string\n\n${THAI_OPTION} "a"|"b"\n`);

/** Words inside the sentences above, and the one page each is in. */
const WORDS: [string, string][] = [
  ['検索', 'apropos'], ['名前', 'apropos'], ['リテラル', 'ts-ja'], ['文字列', 'ts-ja'], ['ソースマップ', 'ts-ja'],
  ['字符串', 'ts-zh'], ['终止', 'ts-zh'], ['映射', 'ts-zh'],
  ['ข้อมูล', 'zod-th'], ['ถูกต้อง', 'zod-th'], ['ประเภท', 'zod-th'], ['ตัวเลือก', 'zod-th'], ['หนึ่ง', 'zod-th'],
];

test('the texts are the real ones', () => {
  assert.equal(ja['Unterminated_string_literal_1002'], '未終了の文字列リテラルです。');
  assert.equal(zh['Unterminated_string_literal_1002'], '未终止的字符串字面量。');
  assert.ok(zodThai.includes(THAI) && zodThai.includes(THAI_OPTION), 'zod\'s Thai locale holds the sentences');
});

test('MCP search finds each word inside its sentence; the excerpt shows the text as written', async () => {
  const s = await useServer(root);
  for (const [word, page] of WORDS) {
    const e = await s.call('docforge_search', { query: word });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    const ids = e.result!.items.map((i: Json) => i.id);
    assert.deepEqual(ids, [page], `${word} is found in ${page} only`);
    const excerpt = e.result!.items[0].excerpt as string;
    assert.doesNotMatch(excerpt, /\uFDD0/, 'no word separator reaches an excerpt');
  }
  // A sentence as query asks for its words, wherever they stand: "text search" written without a space.
  // The page holding every word leads; a page holding only the particle を follows with some terms.
  const phrase = await s.call('docforge_search', { query: '要約文を検索' });
  assert.equal(phrase.result!.items[0].id, 'apropos');
  assert.equal(phrase.result!.items[0].match, 'all_terms');
  assert.ok(phrase.result!.items.slice(1).every((i: Json) => i.match === 'some_terms'));
  const excerpt = (await s.call('docforge_search', { query: 'ถูกต้อง' })).result!.items[0].excerpt as string;
  assert.ok(excerpt.includes(THAI), excerpt);
  // A Latin word glued to Japanese text is its own word.
  const glued = await s.call('docforge_search', { query: 'apropos' });
  assert.ok(glued.result!.items.some((i: Json) => i.id === 'apropos'));
});

test('docforge search (CLI) finds 検索 in a page that says it inside a sentence', () => {
  const run = spawnSync(process.execPath, [CLI_ENTRY, 'search', '検索', '--json', '-C', root], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout) as { items: { id: string; excerpt: string }[] };
  assert.deepEqual(out.items.map((i) => i.id), ['apropos']);
  assert.ok(out.items[0]!.excerpt.includes(APROPOS_JA), out.items[0]!.excerpt);
  const thai = spawnSync(process.execPath, [CLI_ENTRY, 'search', 'ข้อมูล', '-C', root], { encoding: 'utf8' });
  assert.equal(thai.status, 0, thai.stderr);
  assert.match(thai.stdout, /zod-th/);
});
