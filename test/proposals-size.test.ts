// Pins the proposal size rules over stdio with a tiny max_output_chars: only an individually oversized diff entry is chunked and reassembles to its exact operations and changes arrays with a verifiable payload hash, a committed large registration returns the version-1 compact receipt, and a preflight refusal commits nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonical, sha256Hex } from './helpers/hashes.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { expectError, useServer, type Envelope, type Json } from './helpers/server.js';

function tinyLimit(root: string): void {
  const file = path.join(root, 'docforge.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('max_output_chars = 60000', 'max_output_chars = 2000'));
}

/** Node creates beside the oversized update: enough that the full registration result exceeds the floor. */
const CREATES = 16;

function storedIds(root: string): string[] {
  const dir = path.join(root, '.docforge', 'changesets');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.')) : [];
}

test('with a tiny limit: compact receipt for a committed registration; only the oversized diff entry is chunked and reassembles exactly', async () => {
  const root = exampleProjectCopy({ state: false });
  tinyLimit(root);
  const server = await useServer(root, { proposalWriter: 'agent' });
  const body = `# Double-entry ledger\n\n${'Every entry balances; "quotes", back\\slashes and ünïcödé survive. '.repeat(80)}\n`;
  const operations = [
    { op: 'node_update', node_id: 'CMP-LEDGER', body },
    // Kinds outside the closed vocabulary: each create carries a warning, so the full result is larger
    // than the limit (2000 raised to the 4,000-character floor, issue 30 item 8).
    ...Array.from({ length: CREATES }, (_, i) => ({ op: 'node_create', node: { id: `DOC-SIZE-${i}`, kind: 'memo', title: `Size ${i}` }, path: `docs/size-${i}.md`, body: `Size ${i}.\n` })),
  ];
  const registered = await server.call('docforge_register_changes', { operations });
  assert.equal(registered.ok, true, JSON.stringify(registered.error));
  const receipt = registered.result!;
  assert.equal(receipt.compact, true, 'the full result does not fit: the compact receipt');
  assert.equal(receipt.receipt_version, 1);
  assert.equal(receipt.outcome, 'registered');
  const stored = JSON.parse(readFileSync(path.join(root, '.docforge', 'changesets', `${receipt.changeset_id}.json`), 'utf8')) as Json;
  assert.equal(receipt.changeset_sha256, stored.changeset_sha256, 'the committed mutation is reported with its exact hash');

  // Only the individually oversized diff (operation 0's) is chunked; the other changes page normally.
  let data = '';
  let hash: string | null = null;
  let cursor: string | null = null;
  let pages = 0;
  let chunkPages = 0;
  const paged: Json[] = [];
  do {
    const page: Envelope = await server.call('docforge_get_changeset_diff', { changeset_id: receipt.changeset_id, ...(cursor ? { cursor } : {}) });
    assert.equal(page.ok, true, JSON.stringify(page.error));
    if (page.result!.format === 'canonical_json_chunk') {
      assert.equal(page.result!.chunk.operation_index, 0, 'only the oversized entry is chunked');
      assert.equal(page.result!.chunk.index, chunkPages);
      assert.match(page.result!.chunk.data, /^[\x20-\x7e]*$/, 'chunks are ASCII');
      hash ??= page.result!.chunk.payload_sha256;
      assert.equal(page.result!.chunk.payload_sha256, hash);
      data += page.result!.chunk.data;
      chunkPages += 1;
    } else {
      assert.equal(page.result!.format, 'changes');
      paged.push(...(page.result!.changes as Json[]));
    }
    cursor = page.result!.next_cursor;
    pages += 1;
    assert.ok(pages < 200, 'the page sequence ends');
  } while (cursor);
  assert.ok(chunkPages > 1);
  assert.equal(sha256Hex(data), hash, 'the payload hash verifies');
  const payload = JSON.parse(data) as { operations: Json[]; changes: Json[] };
  assert.deepEqual(payload.operations, [stored.operations[0]], 'the exact operations array of the oversized diff');
  assert.deepEqual(payload.changes.map((c) => c.index), [0]);
  assert.equal(payload.changes[0]!.after.title, 'Double-entry ledger');
  assert.ok(String(payload.changes[0]!.body_diff).includes('ünïcödé'), 'non-ASCII text survives the ASCII chunks');
  assert.deepEqual(paged.map((c) => c.index), Array.from({ length: CREATES }, (_, i) => i + 1), 'every other change once, in operation order, not chunked');
  assert.deepEqual([...payload.operations, ...paged.map((c) => stored.operations[c.index as number])], stored.operations, 'no operation duplicated or lost');
});

test('a mutation whose minimum receipt cannot fit is refused at preflight and commits nothing', async () => {
  const root = exampleProjectCopy({ state: false });
  tinyLimit(root);
  const server = await useServer(root, { proposalWriter: 'agent' });
  assert.equal((await server.call('docforge_list_changesets')).ok, true, 'the tiny-limit descriptor is published');
  // A broken descriptor keeps the last publication served as stale, with a sync error naming the
  // offending key: that project block alone leaves no room for any success receipt.
  const file = path.join(root, 'docforge.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('[limits]', `[limits]\n${'k'.repeat(1900)} = 1`));
  for (const [tool, args] of [
    ['docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }] }],
    ['docforge_propose_node_delete', { node_id: 'CMP-LEDGER' }],
    ['docforge_create_changeset', {}],
  ] as const) {
    const error = await expectError(server.call(tool, args as Json), 'result_too_large');
    assert.equal(error.details.stage, 'preflight', tool);
    assert.equal(error.details.mutation_committed, false, tool);
  }
  assert.deepEqual(storedIds(root), [], 'nothing was stored');
});

test('an oversized validation page carries deterministic operation summaries with hashes and character counts', async () => {
  const root = exampleProjectCopy({ state: false });
  tinyLimit(root);
  const server = await useServer(root, { proposalWriter: 'agent' });
  const body = `# Big memo\n\n${'A long proposed body. '.repeat(200)}\n`;
  // A kind outside the closed vocabulary: a warning naming operation 0, whose exact operation is larger than a page.
  const registered = await server.call('docforge_register_changes', { operations: [{ op: 'node_create', node: { id: 'DOC-BIG', kind: 'memo', title: 'Big' }, path: 'docs/big.md', body }] });
  assert.equal(registered.ok, true, JSON.stringify(registered.error));
  const id = registered.result!.changeset_id as string;
  const stored = JSON.parse(readFileSync(path.join(root, '.docforge', 'changesets', `${id}.json`), 'utf8')) as Json;
  const first: Envelope = await server.call('docforge_validate_changeset', { changeset_id: id });
  const second: Envelope = await server.call('docforge_validate_changeset', { changeset_id: id });
  assert.equal(first.ok, true, JSON.stringify(first.error));
  assert.ok(first.result!.findings.some((f: Json) => f.operation_index === 0), JSON.stringify(first.result!.findings));
  assert.equal(first.result!.operations_summarized, true);
  const [summary] = first.result!.operation_summaries as Json[];
  assert.equal(summary!.index, 0);
  assert.equal(summary!.operation, undefined, 'the exact operation is left out');
  assert.equal(summary!.chars, canonicalChars(stored.operations[0]));
  assert.match(summary!.operation_sha256, /^[0-9a-f]{64}$/);
  assert.deepEqual(second.result!.operation_summaries, first.result!.operation_summaries, 'deterministic');
});

function canonicalChars(value: Json): number {
  return canonical(value).length;
}
