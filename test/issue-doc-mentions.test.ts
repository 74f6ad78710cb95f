// Pins issue 9 item 2: inline code spans and link texts naming code nodes become mention-derived `documents` edges listed, with their sections, by docforge_backlinks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

describe('docs linked to the code they mention', async () => {
  const root = exampleProjectCopy({ state: false });
  // A second BaseService makes `BaseService.start` name two nodes.
  mkdirSync(path.join(root, 'src', 'extra'));
  writeFileSync(path.join(root, 'src', 'extra', 'base-service.ts'), 'export class BaseService {\n  start(): void {}\n}\n');
  writeFileSync(path.join(root, 'docs', 'guides', 'refund-walkthrough.md'), [
    '# Refund walkthrough',
    '',
    'Where refunds live in the code.',
    '',
    '## Posting a refund',
    '',
    'A refund is posted by `Ledger.refund(paymentId, amount)`, defined in `src/ledger/ledger.ts`.',
    '',
    '## Names that never link',
    '',
    'A bare `refund` names no node on its own, `Ledger.nothing` names none at all and `BaseService.start()` names two.',
    '',
    '## Again',
    '',
    'See [Ledger.refund](https://example.com/elsewhere) once more.',
    '',
  ].join('\n'));
  const s = await useServer(root);
  const guide = 'guides/refund-walkthrough';

  for (const target of ['code:src/ledger/ledger.ts', 'code:src/ledger/ledger.ts#Ledger.refund']) {
    test(`the guide is a backlink of ${target}, with the section that mentions it`, async () => {
      const e = await s.call('docforge_backlinks', { node_id: target, relations: ['documents'] });
      assert.equal(e.ok, true, JSON.stringify(e.error));
      const item = e.result!.items.find((i: Json) => i.id === guide);
      assert.ok(item, JSON.stringify(e.result!.items));
      assert.equal(item.relation, 'documents');
      assert.equal(item.mention.sections[0].slug, 'posting-a-refund');
      assert.equal(item.mention.sections[0].title, 'Posting a refund');
      assert.equal(item.declared_in.line, 7);
    });
  }

  test('a link text naming the node adds its section; a bare leaf name never links', async () => {
    const e = await s.call('docforge_backlinks', { node_id: 'code:src/ledger/ledger.ts#Ledger.refund', relations: ['documents'] });
    const item = e.result!.items.find((i: Json) => i.id === guide);
    assert.deepEqual(item.mention.sections.map((x: Json) => x.slug), ['posting-a-refund', 'again']);
    const node = await s.call('docforge_get_node', { node_id: guide });
    assert.equal(node.ok, true, JSON.stringify(node.error));
    const ambiguous = await s.call('docforge_backlinks', { node_id: 'code:src/shared/base-service.ts#BaseService.start' });
    assert.ok(!ambiguous.result!.items.some((i: Json) => i.id === guide), 'an ambiguous name links to no node');
    const validate = await s.call('docforge_validate_project', {});
    assert.equal(validate.ok, true, JSON.stringify(validate.error));
    const counts = validate.result!.mentions;
    assert.ok(counts.bare_leaf >= 1, JSON.stringify(counts));
    assert.ok(counts.ambiguous >= 1, JSON.stringify(counts));
    assert.ok(counts.edges >= 2 && counts.linked >= counts.edges, JSON.stringify(counts));
  });
});
