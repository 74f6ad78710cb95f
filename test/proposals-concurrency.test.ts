// Pins the store's concurrency and crash safety over stdio: two server processes registering 50 changesets each at once end with 100 hash-valid changesets, and a process killed with SIGKILL while it holds the store lock mid-registration leaves the store readable and the next process works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { canonical, sha256Hex } from './helpers/hashes.js';
import { MCP_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { useServer, type Envelope, type Json } from './helpers/server.js';

function createOp(prefix: string, i: number): Json {
  return { op: 'node_create', node: { id: `${prefix}-${i}`, kind: 'document', title: `${prefix} ${i}` }, path: `docs/load/${prefix.toLowerCase()}-${i}.md`, body: `Body ${i}.\n` };
}

/** Every stored document, checked independently: canonical JSON, its hash over id, writer, base and operations. */
function storedDocuments(root: string): Json[] {
  const dir = path.join(root, '.docforge', 'changesets');
  return readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.')).map((name) => {
    const text = readFileSync(path.join(dir, name), 'utf8');
    const doc = JSON.parse(text) as Json;
    assert.equal(text, `${canonical(doc)}\n`, `${name} is canonical JSON`);
    assert.equal(sha256Hex(canonical({ id: doc.id, writer: doc.writer, base: doc.base, operations: doc.operations })), doc.changeset_sha256, `${name} is hash-valid`);
    assert.equal(`${doc.id}.json`, name);
    return doc;
  });
}

test('two server processes registering 50 changesets each at the same time end with 100 hash-valid changesets', async () => {
  const root = exampleProjectCopy();
  const [a, b] = await Promise.all([useServer(root, { proposalWriter: 'writer-a' }), useServer(root, { proposalWriter: 'writer-b' })]);
  await a.call('docforge_bootstrap');
  await b.call('docforge_bootstrap');
  const run = (server: typeof a, prefix: string): Promise<Envelope[]> => Promise.all(Array.from({ length: 50 }, (_, i) => server.call('docforge_register_changes', { operations: [createOp(prefix, i)] })));
  const [ra, rb] = await Promise.all([run(a, 'A'), run(b, 'B')]);
  for (const e of [...ra, ...rb]) assert.equal(e.ok, true, JSON.stringify(e.error));
  const docs = storedDocuments(root);
  assert.equal(docs.length, 100);
  assert.deepEqual(new Set(docs.map((d) => d.id)), new Set([...ra, ...rb].map((e) => e.result!.changeset_id)));
  assert.equal(docs.filter((d) => d.writer === 'writer-a').length, 50);
  // Paging through the listing (pages of 30) visits each of the 100 exactly once.
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Envelope = await a.call('docforge_list_changesets', { history: true, limit: 30, ...(cursor ? { cursor } : {}) });
    assert.equal(page.result!.unreadable, 0);
    seen.push(...page.result!.items.map((i: Json) => i.id as string));
    cursor = page.result!.next_cursor;
    assert.ok(seen.length <= 100, "paging terminates");
  } while (cursor);
  assert.deepEqual(seen, [...docs.map((d) => d.id as string)].sort());
  assert.ok(!existsSync(path.join(root, 'docs', 'load')), 'no canonical file was written');
});

test('a process killed with SIGKILL while registering leaves the store readable, and the next process works', async () => {
  const root = exampleProjectCopy();
  const first = await useServer(root, { proposalWriter: 'agent' });
  const kept = (await first.call('docforge_register_changes', { operations: [createOp('K', 1)] })).result!;
  await first.close();

  const marker = path.join(tempDir('docforge-fault-'), 'locked');
  const env = { ...getDefaultEnvironment(), DOCFORGE_TEST_FAULT_POINT: 'changeset_store_locked', DOCFORGE_TEST_FAULT_MARKER: marker };
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_ENTRY, '--project-root', root, '--proposal-writer', 'agent'], env, stderr: 'pipe' });
  const client = new Client({ name: 'fault', version: '1.0.0' });
  await client.connect(transport);
  const pending = client.callTool({ name: 'docforge_register_changes', arguments: { operations: [createOp('K', 2)] } }).catch((error: unknown) => error);
  while (!existsSync(marker)) await sleep(20);
  const pid = Number(readFileSync(marker, 'utf8'));
  assert.equal(pid, transport.pid);
  process.kill(pid, 'SIGKILL');
  await pending;
  await client.close().catch(() => undefined);
  // A half-written temp file, as a kill inside an atomic write would leave, is ignored too.
  writeFileSync(path.join(root, '.docforge', 'changesets', `.${kept.changeset_id}.json.${pid}.abcdef.tmp`), '{"schema_version":1,"id":');

  const next = await useServer(root, { proposalWriter: 'agent' });
  const docs = storedDocuments(root);
  assert.deepEqual(docs.map((d) => d.id), [kept.changeset_id], 'the interrupted registration stored nothing; the earlier changeset is intact');
  const registered = await next.call('docforge_register_changes', { operations: [createOp('K', 3)] });
  assert.equal(registered.ok, true, JSON.stringify(registered.error));
  const listed = await next.call('docforge_list_changesets');
  assert.equal(listed.result!.unreadable, 0);
  assert.equal(listed.result!.items.length, 2);
});
