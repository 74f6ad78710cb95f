// Pins issue 9 item 4: task context focuses with the search ranking and every evidence item carries a bounded excerpt; get_context excerpts start at the best matching section.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedExampleProject } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

describe('context that answers, on the example project', async () => {
  const s = await useServer(sharedExampleProject());

  test('"Change how refunds are posted to the ledger": the refund service and the ledger are among the first six evidence items, each with an excerpt', async () => {
    const e = await s.call('docforge_get_task_context', { task_kind: 'change', task: 'Change how refunds are posted to the ledger' });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    const first = (e.result!.items as Json[]).filter((i) => i.type === 'evidence').slice(0, 6);
    const ids = first.map((i) => i.id);
    const refundService = first.find((i) => i.id === 'CMP-REFUND-SERVICE' || String(i.id).startsWith('code:src/refunds/refund-service.ts'));
    const ledger = first.find((i) => i.id === 'CMP-LEDGER' || String(i.id).startsWith('code:src/ledger/ledger.ts'));
    assert.ok(refundService, `refund service in ${JSON.stringify(ids)}`);
    assert.ok(ledger, `ledger in ${JSON.stringify(ids)}`);
    for (const item of first) {
      assert.equal(typeof item.excerpt, 'string');
      assert.ok(item.excerpt.length > 0 && item.excerpt.length <= 480, `${item.id}: ${JSON.stringify(item.excerpt)}`);
    }
    // Code excerpts are the signature and doc comment; document excerpts start at the matching section.
    const code = first.find((i) => String(i.id).startsWith('code:'));
    if (code) assert.ok(!code.excerpt.startsWith('#'), code.excerpt);
    const withSection = first.find((i) => i.excerpt_section !== null && i.excerpt_section !== undefined);
    if (withSection) assert.ok(withSection.excerpt.includes(withSection.excerpt_section.title), JSON.stringify(withSection));
    assert.ok(e.result!.used_tokens <= 8000, 'excerpts stay inside the default budget');
  });

  test('the task focus is the search ranking\'s first hits', async () => {
    const task = 'where is the refundable amount of a payment computed';
    const search = await s.call('docforge_search', { query: task, limit: 4 });
    const context = await s.call('docforge_get_task_context', { task_kind: 'implementation', task });
    const focus = (context.result!.items as Json[]).filter((i) => i.role === 'focus').map((i) => i.id);
    assert.deepEqual(focus, search.result!.items.map((i: Json) => i.id));
  });

  test('get_context excerpts start at the best matching section', async () => {
    const e = await s.call('docforge_get_context', { node_id: 'CMP-LEDGER', query: 'refunds' });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    const focus = (e.result!.items as Json[]).find((i) => i.id === 'CMP-LEDGER');
    assert.ok(focus, JSON.stringify(e.result!.items.map((i: Json) => i.id)));
    assert.match(focus.excerpt, /^#+ Refunds/, focus.excerpt.slice(0, 120));
  });
});
