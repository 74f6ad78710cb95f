// Pins that user strings which name Object.prototype properties (`constructor`, `toString`,
// `__proto__`, ...) are plain names everywhere: as relation names in front matter and in proposal
// operations, as kinds, tags and filter values, no tool answers internal_error (break-it trial of
// issue 30: `relations[edge.relation].push is not a function` in the changeset projection).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer, type Envelope } from './helpers/server.js';

/** Object.prototype's own property names (the proposal schema's relation pattern refuses those starting with `_`). */
const NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__proto__', '__defineGetter__', '__lookupGetter__'];
const PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

function notInternal(label: string, r: Envelope): void {
  assert.notEqual(r.error?.code, 'internal_error', `${label}: ${r.error?.message}`);
}

test('relations, kinds and tags named after Object.prototype properties never answer internal_error', async () => {
  const root = exampleProjectCopy();
  const file = path.join(root, 'docs/components/ledger.md');
  const lines = NAMES.map((n) => `${JSON.stringify(n)} = ["CMP-ERRORS"]`).join('\n');
  writeFileSync(file, readFileSync(file, 'utf8').replace('[relations]\n', `[relations]\n${lines}\n`).replace('tags = [', `tags = [${NAMES.map((n) => JSON.stringify(n)).join(', ')}, `));
  const server = await useServer(root, { proposalWriter: 'agent' });
  const node = await server.call('docforge_get_node', { node_id: 'CMP-LEDGER', include_body: false });
  assert.equal(node.ok, true, JSON.stringify(node.error));
  const outgoing = JSON.stringify(node.result);
  for (const n of NAMES) assert.ok(outgoing.includes(`"${n}"`), `${n} is read as a relation or tag of CMP-LEDGER`);
  const update = await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }] });
  assert.equal(update.ok, true, JSON.stringify(update.error));
  const diff = await server.call('docforge_get_changeset_diff', { changeset_id: update.result!.changeset_id });
  assert.equal(diff.ok, true, JSON.stringify(diff.error));
  for (const n of NAMES.filter((x) => PATTERN.test(x))) {
    const add = await server.call('docforge_register_changes', { operations: [{ op: 'relationship_update', source_id: 'CMP-RETRY', add: [{ relation: n, target_id: 'CMP-LEDGER' }] }] });
    assert.equal(add.ok, true, `add ${n}: ${JSON.stringify(add.error)}`);
    const remove = await server.call('docforge_register_changes', { operations: [{ op: 'relationship_update', source_id: 'CMP-LEDGER', remove: [{ relation: n, target_id: 'CMP-ERRORS' }] }] });
    assert.equal(remove.ok, true, `remove ${n}: ${JSON.stringify(remove.error)}`);
    const created = await server.call('docforge_register_changes', { operations: [{ op: 'node_create', node: { id: `DOC-P-${n}`, kind: 'document', title: n, tags: [n], relations: { [n]: ['CMP-LEDGER'] } }, path: `docs/p-${n}.md`, body: '# P\n' }] });
    assert.equal(created.ok, true, `create with ${n}: ${JSON.stringify(created.error)}`);
    const shown = await server.call('docforge_get_changeset_diff', { changeset_id: created.result!.changeset_id });
    assert.equal(shown.ok, true, JSON.stringify(shown.error));
  }
  for (const n of NAMES.filter((x) => !PATTERN.test(x))) {
    const add = await server.call('docforge_register_changes', { operations: [{ op: 'relationship_update', source_id: 'CMP-RETRY', add: [{ relation: n, target_id: 'CMP-LEDGER' }] }] });
    assert.equal(add.error?.code, 'invalid_arguments', `${n} is refused by the relation pattern`);
  }
  const reads: [string, Record<string, unknown>][] = [
    ['docforge_filter_nodes', { kinds: NAMES, tags: NAMES, statuses: NAMES, families: NAMES, authorities: NAMES }],
    ['docforge_filter_nodes', { tags: ['constructor'] }],
    ['docforge_search', { query: 'ledger', kinds: ['constructor'], tags: ['__proto__'] }],
    ['docforge_backlinks', { node_id: 'CMP-ERRORS', relations: NAMES }],
    ['docforge_impact', { node_id: 'CMP-ERRORS', depth: 3, relations: NAMES }],
    ['docforge_dependencies', { node_id: 'CMP-LEDGER', depth: 3, relations: NAMES }],
    ['docforge_get_context', { node_id: 'CMP-LEDGER', query: 'constructor' }],
    ['docforge_get_task_context', { task_kind: 'change', task: 'change the constructor of the ledger', focus_node_id: 'CMP-LEDGER' }],
    ['docforge_validate_project', {}],
    ['docforge_render_status', {}],
  ];
  for (const [tool, args] of reads) notInternal(`${tool} ${JSON.stringify(args).slice(0, 60)}`, await server.call(tool as never, args));
  const tagged = await server.call('docforge_filter_nodes', { tags: ['constructor'] });
  assert.equal(tagged.ok, true, JSON.stringify(tagged.error));
  assert.ok(JSON.stringify(tagged.result).includes('CMP-LEDGER'), 'the tag `constructor` filters to CMP-LEDGER');
});
