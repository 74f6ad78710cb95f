// Pins issue 9 item 1 end to end: on examples/, docforge_dependencies and docforge_impact report the calls made through fields (this.ledger.refund, this.scorer.score, this.idempotency.get/put), each at a line that makes that call.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sharedExampleProject } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

interface Item { id: string; relation: string; declared_in: { path: string; line: number } }

describe('calls through receivers on examples/', async () => {
  const root = sharedExampleProject();
  const s = await useServer(root);
  const lineText = (file: string, line: number): string => readFileSync(path.join(root, file), 'utf8').split('\n')[line - 1] ?? '';

  test('RefundService.requestRefund depends on Ledger.refund through this.ledger', async () => {
    const deps = await s.call('docforge_dependencies', { node_id: 'code:src/refunds/refund-service.ts#RefundService.requestRefund', relations: ['calls'], depth: 1, limit: 100 });
    const items = deps.result!.items as Item[];
    const refund = items.find((i) => i.id === 'code:src/ledger/ledger.ts#Ledger.refund');
    assert.ok(refund, `requestRefund calls Ledger.refund; got ${items.map((i) => i.id).join(', ')}`);
    assert.match(lineText(refund.declared_in.path, refund.declared_in.line), /this\.ledger\.refund\(/);
  });

  test('AuthGateway.authorize depends on the fraud scorer and the idempotency store through its fields', async () => {
    const deps = await s.call('docforge_dependencies', { node_id: 'code:src/gateway/auth-gateway.ts#AuthGateway.authorize', relations: ['calls'], depth: 1, limit: 100 });
    const items = deps.result!.items as Item[];
    const expected: Record<string, RegExp> = {
      'code:src/fraud/scorer.ts#FraudScorer.score': /this\.scorer\.score\(/,
      'code:src/gateway/idempotency-store.ts#IdempotencyStore.get': /this\.idempotency\.get\(/,
      'code:src/gateway/idempotency-store.ts#IdempotencyStore.put': /this\.idempotency\.put\(/,
    };
    for (const [id, pattern] of Object.entries(expected)) {
      const item = items.find((i) => i.id === id);
      assert.ok(item, `authorize calls ${id}; got ${items.map((i) => i.id).join(', ')}`);
      assert.match(lineText(item.declared_in.path, item.declared_in.line), pattern);
    }
  });

  test('the impact of Ledger.refund names its callers, not same-named methods elsewhere', async () => {
    const impact = await s.call('docforge_impact', { node_id: 'code:src/ledger/ledger.ts#Ledger.refund', relations: ['calls'], depth: 1, limit: 100 });
    const callers = (impact.result!.items as Item[]).map((i) => i.id);
    assert.ok(callers.includes('code:src/refunds/refund-service.ts#RefundService.requestRefund'), callers.join(', '));
    // Code callers sit at a line making the call (documents may declare `calls` in front matter too).
    for (const caller of (impact.result!.items as Item[]).filter((i) => i.id.startsWith('code:'))) assert.match(lineText(caller.declared_in.path, caller.declared_in.line), /\.refund\(/, caller.id);
  });
});
