// Pins issue 8 follow-ups 2-4: get_node bounds a node's anchors and tags (counts and flags; section still finds any slug), filter items bound tags, an item that can never fit is skipped as oversized_items with a cursor (never an empty truncated dead end), and validate_project pages with a generation-bound cursor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/projects.js';
import { expectError, useServer } from './helpers/server.js';

const HEADINGS = 20_000;
const TAGS = 30_000;

function bigProject(): string {
  const root = tempDir('docforge-unfit-');
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "unfit"\nname = "Unfit"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n[limits]\nmax_results = 1000\nmax_output_chars = 20000\n');
  writeFileSync(path.join(root, 'docs', 'same.md'), `# Same headings\n\n${Array.from({ length: HEADINGS }, (_, i) => `## Same\n\nText ${i}.\n`).join('\n')}`);
  const tags = Array.from({ length: TAGS }, (_, i) => `"t${i}"`).join(', ');
  writeFileSync(path.join(root, 'docs', 'tags.md'), `+++\nid = "TAGS"\nkind = "document"\ntitle = "Many tags"\ntags = [${tags}]\n+++\n# Many tags\n\nBody.\n`);
  // A tag too long for any response: the item itself can never fit.
  writeFileSync(path.join(root, 'docs', 'long.md'), `+++\nid = "LONG"\nkind = "document"\ntitle = "Long"\ntags = ["t5", "${'x'.repeat(25_000)}"]\n+++\n# Long\n`);
  // A title of one long line: bounded wherever it is shown.
  writeFileSync(path.join(root, 'docs', 'titled.md'), `+++\nid = "TITLED"\nkind = "document"\ntitle = "${'y'.repeat(25_000)}"\n+++\n# Titled\n`);
  writeFileSync(path.join(root, 'docs', 'zz.md'), '+++\nid = "ZZ"\nkind = "document"\ntitle = "After"\ntags = ["t5"]\n+++\n# After\n');
  // Many findings: one broken link per line.
  writeFileSync(path.join(root, 'docs', 'broken.md'), `# Broken\n\n${Array.from({ length: 600 }, (_, i) => `[x](missing-${i}.md)`).join('\n\n')}\n`);
  return root;
}

test('unfittable lists and items are bounded or skipped with a cursor; findings page to the end', async () => {
  const root = bigProject();
  const s = await useServer(root);
  const boot = await s.call('docforge_bootstrap');
  assert.equal(boot.ok, true, JSON.stringify(boot.error));

  // 2. get_node: anchors and tags are bounded, counted and flagged; section finds the last slug.
  const doc = (await s.call('docforge_filter_nodes', { limit: 1000 })).result!.items.find((i: { title: string }) => i.title === 'Same headings');
  assert.ok(doc, 'the headings document is listed');
  const node = await s.call('docforge_get_node', { node_id: doc.id, include_body: false });
  assert.equal(node.ok, true, JSON.stringify(node.error));
  assert.equal(node.result!.anchors_total, HEADINGS + 1);
  assert.equal(node.result!.anchors_truncated, true);
  assert.ok(node.result!.node.anchors.length <= 200);
  const last = await s.call('docforge_get_node', { node_id: doc.id, section: `same-${HEADINGS - 1}` });
  assert.equal(last.ok, true, JSON.stringify(last.error));
  assert.match(last.result!.node.body, new RegExp(`Text ${HEADINGS - 1}\\.`));
  const tagged = await s.call('docforge_get_node', { node_id: 'TAGS', include_body: false });
  assert.equal(tagged.ok, true, JSON.stringify(tagged.error));
  assert.deepEqual([tagged.result!.tags_total, tagged.result!.tags_truncated], [TAGS, true]);
  const titled = await s.call('docforge_get_node', { node_id: 'TITLED' });
  assert.equal(titled.ok, true, JSON.stringify(titled.error));
  assert.deepEqual([titled.result!.node.title.length, titled.result!.title_truncated], [2000, true]);
  const titledItem = (await s.call('docforge_filter_nodes', { limit: 1000 })).result!.items.find((i: { id: string }) => i.id === 'TITLED');
  assert.equal(titledItem.title.length, 500);

  // 3. filter_nodes: the tags node is one small item; the unfittable item is skipped with a cursor.
  for (const limit of [undefined, 1, 2]) {
    const seen: string[] = [];
    const oversized: string[] = [];
    let cursor: string | null | undefined;
    for (let page = 0; page < 10; page += 1) {
      const r = await s.call('docforge_filter_nodes', { tags: ['t5'], ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) });
      assert.equal(r.ok, true, JSON.stringify(r.error));
      const result = r.result!;
      assert.ok(result.items.length > 0 || (result.oversized_items ?? []).length > 0, 'a page always consumes something');
      // truncated without a cursor only when this page consumed the rest and skipped something.
      if (result.truncated && result.next_cursor === null) assert.ok((result.oversized_items ?? []).length > 0, 'a truncated page without a cursor skips nothing silently');
      seen.push(...result.items.map((i: { id: string }) => i.id));
      oversized.push(...(result.oversized_items ?? []).map((i: { id: string }) => i.id));
      for (const item of result.items) if (item.id === 'TAGS') assert.deepEqual([item.tags.length, item.tags_total, item.tags_truncated], [50, TAGS, true]);
      cursor = result.next_cursor;
      if (!cursor) break;
    }
    assert.deepEqual(seen, ['TAGS', 'ZZ']);
    assert.deepEqual(oversized, ['LONG']);
  }
  // get_node of the node whose tag fits no response answers with its tags cut to a prefix that fits,
  // flagged (issue 30 break-it item 4: get_node always answers; this pinned result_too_large before).
  const long = await s.call('docforge_get_node', { node_id: 'LONG' });
  assert.equal(long.ok, true, JSON.stringify(long.error));
  assert.deepEqual([long.result!.node.tags, long.result!.tags_total, long.result!.tags_truncated], [['t5'], 2, true]);

  // 4. validate_project pages with a cursor through every finding, each once.
  const first = await s.call('docforge_validate_project', { limit: 250 });
  assert.equal(first.ok, true, JSON.stringify(first.error));
  const total = first.result!.counts.error + first.result!.counts.warning;
  assert.ok(total >= 600, `${total} findings`);
  const messages = new Set<string>();
  let page = first;
  for (let i = 0; i < 20; i += 1) {
    for (const item of page.result!.items) messages.add(`${item.code}|${item.message}`);
    if (!page.result!.next_cursor) break;
    assert.equal(page.result!.truncated, true);
    page = await s.call('docforge_validate_project', { limit: 250, cursor: page.result!.next_cursor });
    assert.equal(page.ok, true, JSON.stringify(page.error));
  }
  assert.equal(page.result!.next_cursor, null);
  assert.equal(messages.size, total, 'every finding once');
  // A cursor is bound to the severities.
  await expectError(s.call('docforge_validate_project', { limit: 250, severities: ['error'], cursor: first.result!.next_cursor }), 'invalid_cursor');
});
