// Regression (issue 7): docforge_get_node `section` reads the parser's recorded section by slug: the second "## Example" (example-1), setext headings, no headings from fenced code.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeDir } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

const PAGE = [
  'Intro', //                                   1
  '=====', //                                   2
  '', //                                        3
  'What this page is about.', //                4
  '', //                                        5
  '## Example', //                              6
  '', //                                        7
  'First example: call `a()`.', //              8
  '', //                                        9
  '```md', //                                   10
  '## Example', //                              11 (inside a fence: not a heading)
  '# Not a section', //                         12
  '```', //                                     13
  '', //                                        14
  '## Example', //                              15
  '', //                                        16
  'Second example: call `b()`.', //             17
  '', //                                        18
  'Setup', //                                   19
  '-----', //                                   20
  'Install it.', //                             21
  '',
].join('\n');

const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-sections-'));
mkdirSync(path.join(root, 'docs'));
writeFileSync(path.join(root, 'docs', 'page.md'), PAGE);
writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "sections"\nname = "Sections"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
after(() => removeDir(root));
const s = await useServer(root);

describe('get_node section over stdio', () => {
  test('anchors come from the parser: setext headings count, fenced ones do not, repeats get -1', async () => {
    const e = await s.call('docforge_get_node', { node_id: 'page', include_body: false });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    const anchors = e.result!.node.anchors.map((a: { slug: string; line: number; end_line: number }) => [a.slug, a.line, a.end_line]);
    assert.deepEqual(anchors, [['intro', 1, 21], ['example', 6, 13], ['example-1', 15, 17], ['setup', 19, 21]]);
  });

  test('section "example-1" returns the second "## Example", not the first', async () => {
    const e = await s.call('docforge_get_node', { node_id: 'page', section: 'example-1' });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    assert.equal(e.result!.node.body, PAGE.split('\n').slice(14, 17).join('\n'));
    assert.match(e.result!.node.body, /Second example/);
    assert.doesNotMatch(e.result!.node.body, /First example/);
    assert.deepEqual(e.result!.section, { slug: 'example-1', title: 'Example', level: 2, line: 15, end_line: 17 });
    const first = await s.call('docforge_get_node', { node_id: 'page', section: 'example' });
    assert.equal(first.result!.node.body, PAGE.split('\n').slice(5, 13).join('\n'), 'the fenced "## Example" does not end the first section');
  });

  test('a setext heading is a section; a fenced heading is not', async () => {
    const intro = await s.call('docforge_get_node', { node_id: 'page', section: 'intro' });
    assert.equal(intro.ok, true, JSON.stringify(intro.error));
    assert.equal(intro.result!.node.body, PAGE.trimEnd());
    const setup = await s.call('docforge_get_node', { node_id: 'page', section: 'setup' });
    assert.equal(setup.result!.node.body, 'Setup\n-----\nInstall it.');
    const fenced = await s.call('docforge_get_node', { node_id: 'page', section: 'not-a-section' });
    assert.equal(fenced.ok, false);
    assert.equal(fenced.error!.code, 'invalid_arguments');
    assert.deepEqual(fenced.error!.details.anchors, ['intro', 'example', 'example-1', 'setup']);
  });
});
