// Break-it trial 50 (F5d): a keyset cursor of docforge_filter_nodes whose checksum is right but whose
// position is no node of the generation it is bound to (empty, made up, 5,000 characters) is a cursor
// DocForge never made: `invalid_cursor` (bad_position), not a silent restart at page one or an empty
// page. Cursors are not authenticated (the contract), so the test forges one as anyone could: it
// rewrites the position of a real next_cursor and recomputes the checksum. Spawned docforge-mcp
// over stdio on the shared examples/ fixture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, domainHash } from '@docforge/core';
import { CURSOR_DOMAIN } from '@docforge/retrieval';
import { sharedExampleProject } from './helpers/projects.js';
import { expectError, useServer } from './helpers/server.js';

function withPosition(cursor: string, position: unknown): string {
  const { sum: _sum, ...body } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
  const forged = { ...body, position };
  return Buffer.from(canonicalJson({ ...forged, sum: domainHash(CURSOR_DOMAIN, forged) }), 'utf8').toString('base64url');
}

test('a checksummed cursor whose position is no node of its generation is invalid_cursor', async () => {
  const server = await useServer(sharedExampleProject());
  type Page = { items: { id: string }[]; next_cursor: string };
  const page = async (args: Record<string, unknown>): Promise<Page> => (await server.call('docforge_filter_nodes', args)).result as unknown as Page;
  const first = await page({ kinds: ['component'], limit: 1 });
  assert.equal(typeof first.next_cursor, 'string');
  // The real cursor and one forged at a real id still page on.
  const second = await page({ kinds: ['component'], limit: 1, cursor: first.next_cursor });
  assert.equal(second.items.length, 1);
  const again = await page({ kinds: ['component'], limit: 1, cursor: withPosition(first.next_cursor, first.items[0]!.id) });
  assert.deepEqual(again.items, second.items);
  for (const position of ['', 'zzzz', 'x'.repeat(5000)]) {
    const error = await expectError(server.call('docforge_filter_nodes', { kinds: ['component'], limit: 1, cursor: withPosition(first.next_cursor, position) }), 'invalid_cursor');
    assert.equal(error.details.reason, 'bad_position', `position ${JSON.stringify(position.slice(0, 10))}`);
  }
});
