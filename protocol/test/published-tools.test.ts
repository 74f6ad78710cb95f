// Issue 29 item 7: what tools/list publishes is generated (protocol/src/generated/published-tools.ts,
// from protocol/scripts/published-tools.mjs) instead of computed at every server start; it must be
// exactly what loadToolSchema computes from protocol/schemas now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadToolSchema, loadToolSchemas, publishedTool, publishedToolNames } from '../src/index.js';

test('the generated published tools are exactly what loadToolSchema computes, for every tool', () => {
  const computed = loadToolSchemas();
  assert.deepEqual(publishedToolNames(), [...computed.keys()]);
  for (const [name, pair] of computed) {
    assert.equal(JSON.stringify(publishedTool(name)), JSON.stringify(pair), `${name}: run \`npm run generate -w protocol\``);
    assert.equal(JSON.stringify(publishedTool(name)), JSON.stringify(loadToolSchema(name)), name);
  }
});

test('publishedTool returns a new object on each call and refuses an unknown tool', () => {
  const name = publishedToolNames()[0]!;
  assert.notEqual(publishedTool(name), publishedTool(name));
  assert.notEqual(publishedTool(name).input, publishedTool(name).input);
  assert.throws(() => publishedTool('docforge_no_such_tool'), /no published schemas for tool docforge_no_such_tool/);
  assert.throws(() => publishedTool('toString'), /no published schemas for tool toString/);
});
