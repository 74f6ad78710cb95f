// Pins bounded query-time work on a ~5 MB single-node body (issue 8 item 1): search and context still return the node with a bounded excerpt built from a bounded prefix (no timing assertion; see ops/bench/large-node.mjs).
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SNIPPET_MAX_BODY_CHARS, type IndexReader } from '@docforge/store';
import { EXCERPT_TOKENS, FOCUS_EXCERPT_CHARS, searchNodes, selectContext } from '../src/index.js';
import { indexedProject } from './helpers.js';

const LINE = 'zebra lorem\n';
const BIG_LINES = Math.ceil((5 * 1024 * 1024) / LINE.length);

describe('a 5 MB node', () => {
  let reader: IndexReader;

  indexedProject('docforge-large-node-', (root) => {
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "large-node"\nname = "Large node"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = []\n[adapter]\ncode = "none"\n');
    writeFileSync(path.join(root, 'docs/big.md'), `# Big\n\nIntro line before the animals.\n\n${LINE.repeat(BIG_LINES)}`);
    writeFileSync(path.join(root, 'docs/small.md'), '# Small\n\nA short page that mentions one zebra among horses.\n');
  }, (ready) => {
    reader = ready;
  });

  test('the big body is indexed whole and is far over the snippet bound', () => {
    const hit = searchNodes(reader, 'zebra', 10).items.find((h) => h.title === 'Big');
    assert.ok(hit, 'the big node is a hit');
    const node = reader.getNode(hit.id)!;
    assert.ok(node.body.length >= BIG_LINES * LINE.length, `body has ${node.body.length} characters`);
    assert.ok(node.body.length > SNIPPET_MAX_BODY_CHARS);
  });

  test('search returns both hits, each with an excerpt containing the query word', () => {
    const result = searchNodes(reader, 'zebra', 10);
    assert.equal(result.items.length, 2);
    for (const hit of result.items) {
      assert.match(hit.excerpt, /zebra/i, `${hit.id}: ${hit.excerpt}`);
      // About EXCERPT_TOKENS words (FTS5 snippets and bounded excerpts alike), never the body.
      assert.ok(hit.excerpt.split(/\s+/).filter((w) => /\w/.test(w)).length <= EXCERPT_TOKENS + 1, hit.excerpt);
    }
    const big = result.items.find((h) => h.title === 'Big')!;
    assert.ok(big, 'the big node is a hit');
    assert.ok(big.excerpt.endsWith('…'), 'the cut excerpt says more text follows');
  });

  test('context seeded by the query carries a bounded, flagged excerpt of the big node', () => {
    const selection = selectContext(reader, { query: 'zebra', budget: 4000 }, { max_results: 20 });
    const big = selection.entries.find((e) => e.title === 'Big')!;
    assert.ok(big);
    assert.equal(big.excerpt.length, FOCUS_EXCERPT_CHARS);
    assert.equal(big.excerpt_truncated, true);
    assert.ok(big.excerpt.startsWith('# Big') || big.excerpt.includes('Intro line'), big.excerpt.slice(0, 80));
  });
});
