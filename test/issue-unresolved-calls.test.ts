// Pins issue 9 item 1 (counts): per-function unresolved call counts are stored in the index and shown by docforge_get_node and docforge_dependencies (fastify's reply `this[kReplySerializer](payload)` counts, with no calls edge), and a delta rebuild updates them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fastifyProjectCopy, tempDir } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

test('fastify reply: Reply.serialize counts this[kReplySerializer](payload) and the route-context serializer as unresolved, with no calls edge for them', async () => {
  const root = fastifyProjectCopy(['lib', 'package.json'],
    'schema_version = 1\n[project]\nid = "fastify"\nname = "Fastify"\n[sources]\ncontent_roots = []\ncode_roots = ["lib"]\n[adapter]\ncode = "typescript"\n');
  const s = await useServer(root);
  const search = await s.call('docforge_search', { query: 'Reply serialize', limit: 20 });
  const id = search.result!.items.map((i: { id: string }) => i.id).find((i: string) => /^code:lib\/reply\.js#Reply(\.prototype)?\.serialize$/.test(i));
  assert.ok(id, JSON.stringify(search.result!.items.map((i: { id: string }) => i.id)));
  const node = await s.call('docforge_get_node', { node_id: id, include_body: false });
  assert.equal(node.ok, true, JSON.stringify(node.error));
  // Reply.prototype.serialize (lib/reply.js): this[kReplySerializer](payload) and
  // this[kRouteContext][kReplySerializerDefault](...) are assigned at run time; serialize(...) is the module's function.
  assert.equal(node.result!.unresolved_calls, 2);
  const deps = await s.call('docforge_dependencies', { node_id: id, relations: ['calls'] });
  assert.equal(deps.ok, true, JSON.stringify(deps.error));
  assert.equal(deps.result!.unresolved_calls, 2);
  assert.deepEqual(deps.result!.items.map((i: { id: string }) => i.id), ['code:lib/reply.js#serialize']);
  // A module counts its top-level call sites too.
  const module = await s.call('docforge_get_node', { node_id: 'code:lib/reply.js', include_body: false });
  assert.equal(typeof module.result!.unresolved_calls, 'number');
});

test('the counts follow an edit (delta write) and are absent for documentation nodes', async () => {
  const root = tempDir('docforge-unresolved-');
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "u"\nname = "U"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n');
  writeFileSync(path.join(root, 'docs', 'a.md'), '# A\n\nText.\n');
  const source = (extra: string): string => `export function helper(): number {\n  return 1;\n}\nexport function run(cb: any): number {\n  cb.go();\n${extra}  return helper();\n}\n`;
  writeFileSync(path.join(root, 'src', 'run.ts'), source(''));
  const s = await useServer(root);
  const first = await s.call('docforge_get_node', { node_id: 'code:src/run.ts#run', include_body: false });
  assert.equal(first.result!.unresolved_calls, 1, 'cb.go() on an untyped parameter');
  assert.equal((await s.call('docforge_get_node', { node_id: 'code:src/run.ts#helper', include_body: false })).result!.unresolved_calls, 0);
  assert.deepEqual((await s.call('docforge_dependencies', { node_id: 'code:src/run.ts#run', relations: ['calls'] })).result!.items.map((i: { id: string }) => i.id), ['code:src/run.ts#helper']);
  writeFileSync(path.join(root, 'src', 'run.ts'), source('  cb.stop();\n  cb.again();\n'));
  const second = await s.call('docforge_get_node', { node_id: 'code:src/run.ts#run', include_body: false });
  assert.ok(second.project!.revision > first.project!.revision);
  assert.equal(second.result!.unresolved_calls, 3);
  const doc = await s.call('docforge_get_node', { node_id: 'a', include_body: false });
  assert.equal(doc.ok, true, JSON.stringify(doc.error));
  assert.equal(doc.result!.unresolved_calls, undefined);
  assert.equal((await s.call('docforge_dependencies', { node_id: 'a' })).result!.unresolved_calls, undefined);
});
