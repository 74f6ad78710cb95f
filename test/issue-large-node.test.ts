// Regression (issue 8 item 1): over stdio, a search hitting a 5 MB node returns an excerpt, and a ping sent while search/get_context/get_node run is answered (no timing assertion; figures in ops/bench/large-node.mjs).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

const LINE = 'zebra lorem\n';
const BIG_BYTES = 5 * 1024 * 1024;
const root = tempDir('docforge-large-node-');
mkdirSync(path.join(root, 'docs'));
writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "large-node"\nname = "Large node"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
writeFileSync(path.join(root, 'docs', 'big.md'), `# Big\n\n${LINE.repeat(Math.ceil(BIG_BYTES / LINE.length))}`);
writeFileSync(path.join(root, 'docs', 'small.md'), '# Small\n\nOne zebra among horses.\n');

describe('a 5 MB Markdown node over MCP stdio', async () => {
  const s = await useServer(root);

  test('search "zebra" returns the big node with a short excerpt containing the word', async () => {
    const e = await s.call('docforge_search', { query: 'zebra' });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    const big = e.result!.items.find((i: Json) => i.id === 'big');
    assert.ok(big, JSON.stringify(e.result!.items.map((i: Json) => i.id)));
    assert.match(big.excerpt, /zebra/);
    assert.ok(big.excerpt.length < 400, `excerpt of ${big.excerpt.length} characters`);
  });

  test('a ping sent while each long request is in flight is answered, and both complete', async () => {
    const requests: [string, Record<string, unknown>][] = [
      ['docforge_search', { query: 'zebra' }],
      ['docforge_get_context', { query: 'zebra' }],
      ['docforge_get_context', { node_id: 'big' }],
      ['docforge_get_node', { node_id: 'big' }],
    ];
    for (const [tool, args] of requests) {
      const order: string[] = [];
      const call = s.call(tool as 'docforge_search', args).then((e) => {
        order.push('call');
        return e;
      });
      const ping = s.client.ping().then((answer) => {
        order.push('ping');
        return answer;
      });
      const [envelope, pong] = await Promise.all([call, ping]);
      assert.equal(envelope.ok, true, `${tool}: ${JSON.stringify(envelope.error)}`);
      assert.deepEqual(pong, {}, `${tool}: the ping is answered`);
      assert.equal(order.length, 2);
    }
  });

  test('get_node on the big node answers within the response limit, flagging the cut body', async () => {
    const raw = await s.raw('docforge_get_node', { node_id: 'big' });
    const text = (raw.content as { text: string }[])[0]!.text;
    assert.ok(text.length <= 60_000, `${text.length} characters`);
    const e = JSON.parse(text);
    assert.equal(e.ok, true);
    assert.equal(e.result.body_truncated, true);
    assert.match(e.result.node.body, /^# Big\n\nzebra lorem\n/);
  });
});
