// Pins issue 33's mixed project end to end (spawned docforge-mcp): Go, TypeScript and Python code plus Markdown docs. A doc naming
// a Go function, a TS client and a Python tool links all three; search finds Go body text; impact of the Go function reaches the doc
// and crosses to the other languages' nodes it documents; task context from the doc holds code of three languages; Go Logic is served.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeDir, tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

const FILES: Record<string, string> = {
  'docforge.toml': [
    'schema_version = 1', '[project]', 'id = "polyglot"', 'name = "Polyglot"', '[sources]', 'content_roots = ["docs"]',
    'code_roots = ["server", "client", "tools"]', '[adapter]', 'code = "auto"', 'strategy = "ast"', '',
  ].join('\n'),
  'server/go.mod': 'module example.com/server\n\ngo 1.21\n',
  'server/ledger/ledger.go': [
    '// Package ledger posts refunds.',
    'package ledger',
    '',
    '// RefundPayment posts a refund of amount for a payment.',
    'func RefundPayment(paymentID string, amount int) error {',
    '\tif amount <= 0 {',
    '\t\treturn errInvalidAmount("refund amount must be positive")',
    '\t}',
    '\treturn nil',
    '}',
    '',
    'func errInvalidAmount(msg string) error { return nil }',
    '',
  ].join('\n'),
  'server/main.go': 'package main\n\nimport "example.com/server/ledger"\n\nfunc main() {\n\t_ = ledger.RefundPayment("p1", 5)\n}\n',
  'client/api.ts': '/** Asks the server for a refund. */\nexport async function refundPayment(paymentId: string, amount: number): Promise<void> {\n  await fetch(`/refunds/${paymentId}?amount=${amount}`);\n}\n',
  'tools/report.py': '"""Refund reports."""\n\n\ndef summarize_refunds(rows):\n    """Totals refunds per day."""\n    return len(rows)\n',
  'docs/refunds.md': [
    '# Refunds',
    '',
    'The server posts a refund in `ledger.RefundPayment` (Go, `server/ledger/ledger.go`); the web client calls it through',
    '`refundPayment()`, and the nightly report is `summarize_refunds`.',
    '',
  ].join('\n'),
};

describe('a project mixing Go, TypeScript and Python with Markdown docs', async () => {
  const root = tempDir('docforge-polyglot-');
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  after(() => removeDir(root));
  const s = await useServer(root);
  const GO = 'code:server/ledger/ledger.go#RefundPayment';
  const TS = 'code:client/api.ts#refundPayment';
  const PY = 'code:tools/report.py#summarize_refunds';

  test('the doc documents code in all three languages', async () => {
    const deps = await s.call('docforge_dependencies', { node_id: 'refunds', relations: ['documents'], depth: 1, limit: 100 });
    assert.equal(deps.ok, true, JSON.stringify(deps.error));
    const ids = (deps.result!.items as Json[]).map((i) => i.id);
    for (const id of [GO, TS, PY, 'code:server/ledger/ledger.go']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
    const node = await s.call('docforge_get_node', { node_id: GO });
    assert.equal(node.ok, true, JSON.stringify(node.error));
    assert.equal(node.result!.node.language, 'go');
    assert.equal(node.result!.node.kind, 'function');
    assert.match(node.result!.node.summary, /RefundPayment posts a refund/);
  });

  test('search finds Go body text; impact of the Go function reaches its caller and the doc', async () => {
    const found = await s.call('docforge_search', { query: 'refund amount must be positive', limit: 10 });
    assert.equal(found.ok, true, JSON.stringify(found.error));
    assert.ok((found.result!.items as Json[]).some((i) => i.id === GO), JSON.stringify(found.result!.items.map((i: Json) => i.id)));
    const impact = await s.call('docforge_impact', { node_id: GO, depth: 2, limit: 100 });
    assert.equal(impact.ok, true, JSON.stringify(impact.error));
    const ids = (impact.result!.items as Json[]).map((i) => i.id);
    assert.ok(ids.includes('refunds'), ids.join(', '));
    assert.ok(ids.includes('code:server/main.go#main'), ids.join(', '));
  });

  test('task context from the doc holds code of three languages; Go Logic is served', async () => {
    const task = await s.call('docforge_get_task_context', { task_kind: 'change', task: 'Change how refunds are posted', focus_node_id: 'refunds', budget: 200_000, limit: 200 });
    assert.equal(task.ok, true, JSON.stringify(task.error));
    const ids = (task.result!.items as Json[]).map((i) => i.id);
    for (const id of [GO, TS, PY]) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
    const logic = await s.call('docforge_get_logic', { node_id: GO });
    assert.equal(logic.ok, true, JSON.stringify(logic.error));
    assert.deepEqual((logic.result!.steps as Json[]).map((x) => x.kind), ['entry', 'branch', 'return', 'return', 'exit']);
  });
});
