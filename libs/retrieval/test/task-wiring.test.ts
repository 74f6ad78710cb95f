// Pins issue 31 item 4's rule by relation kind and graph distance: a change's depth-2 structure
// hops that leave the focus's containment chain (a module's other members, through `contains` or
// `defined_in`) admit a node only when the task's words match it; the chain itself (container,
// members, their members) stays; incoming evidence/execution/dependency of the chain rank first.
// Implementation tasks keep structure open.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type IndexReader } from '@docforge/store';
import { taskContextPage, type TaskContextOptions, type TaskKind } from '../src/index.js';
import { indexedProject } from './helpers.js';

type Item = Record<string, any>;

const OPTIONS: TaskContextOptions = {
  policyHash: 'a'.repeat(64),
  binding: { project: 'wiring', adapter: 'test-adapter', generation: 1 },
  declaredRelations: null,
  roots: { content_roots: ['docs'], code_roots: [] },
  limit: 1000,
  resultCharBudget: 10_000_000,
};

describe('task context: structure off the containment chain', () => {
  let reader: IndexReader;

  indexedProject('docforge-task-wiring-', (root) => {
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "wiring"\nname = "Wiring"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = []\n[adapter]\ncode = "none"\n');
    const node = (id: string, title: string, relations: string): void => {
      writeFileSync(path.join(root, 'docs', `${id.toLowerCase()}.md`), `+++\nid = "${id}"\nkind = "document"\ntitle = "${title}"\n\n[relations]\n${relations}\n+++\n# ${title}\n\nText of ${title}.\n`);
    };
    node('MOD', 'Module', 'contains = ["A", "B", "C"]');
    node('A', 'Alpha part', 'contains = ["A1"]');
    node('A1', 'Alpha one', 'contains = ["A2"]');
    node('A2', 'Alpha two', '');
    node('B', 'Zebra helper', '');
    node('C', 'Gamma part', '');
    node('D', 'Delta part', 'defined_in = ["MOD"]');
    node('X', 'Wiring module', 'imports = ["MOD"]');
    node('DOC', 'Alpha guide', 'documents = ["A"]');
    node('CALLER', 'Caller', 'calls = ["A"]');
  }, (ready) => {
    reader = ready;
  });

  // A change also marks what it affects (issue 32 item 3): the documents DOC and MOD rest on A.
  const related = (kind: TaskKind): Item[] => (taskContextPage(reader, { task_kind: kind, task: 'give the zebra stripes', focus_node_id: 'A', budget: 200_000 }, OPTIONS).items as Item[]).filter((i) => i.role === 'related' || i.role === 'affected');

  test('change: siblings through contains and defined_in stay out unless matched; the chain and the wiring stay, wiring first', () => {
    const items = related('change');
    const ids = items.map((i) => i.id);
    // D `defined_in` MOD rests on the container the change reaches: the affected walk (issue 32
    // item 3, `docforge affected`) lists it, marked `affected` with that path; the traversal does not.
    assert.deepEqual([...ids].sort(), ['A1', 'A2', 'B', 'CALLER', 'D', 'DOC', 'MOD', 'X'], JSON.stringify(ids));
    const d = items.find((i) => i.id === 'D')!;
    assert.equal(d.role, 'affected');
    assert.deepEqual(d.path.map((h: Item) => `${h.from} ${h.direction} ${h.relation} ${h.to}`), ['A incoming contains MOD', 'MOD incoming defined_in D']);
    const depth2 = items.filter((i) => i.depth === 2 && i.role === 'related').map((i) => i.id);
    assert.deepEqual(depth2, ['X', 'A2', 'B'], 'the importer of the container, then the chain, then the matched sibling');
    const depth1Other = items.filter((i) => i.depth === 1 && !['structure', 'dependency', 'implementation'].includes(i.path[0].category)).map((i) => i.id);
    assert.deepEqual(depth1Other.slice(0, 2).sort(), ['CALLER', 'DOC'], 'the governing document and the caller lead the other categories');
  });

  test('implementation: structure stays open (every member of the module)', () => {
    const ids = related('implementation').map((i) => i.id);
    for (const id of ['B', 'C', 'D']) assert.ok(ids.includes(id), `${id} in ${JSON.stringify(ids)}`);
  });
});

// Issue 30 (helper fx30), on undici: "change util parseHeaders in lib/core/util.js" focused parseHeaders and the module
// util.js; the module's 40 importers (`imports`, a primary category of a change) filled the first page and the callers
// of parseHeaders (`calls`, not primary) came after them, on a later page. Now a change's wiring leads, the best-ranked
// focus node's first: the callers of the subject, then the importers of the module.
describe('task context: a change lists the callers of its subject before a co-focus module\'s importers', () => {
  let reader: IndexReader;

  indexedProject('docforge-task-callers-', (root) => {
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "callers"\nname = "Callers"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = []\n[adapter]\ncode = "none"\n');
    const node = (id: string, title: string, relations: string): void => {
      writeFileSync(path.join(root, 'docs', `${id.toLowerCase()}.md`), `+++\nid = "${id}"\nkind = "document"\ntitle = "${title}"\n\n[relations]\n${relations}\n+++\n# ${title}\n\nText of ${title}.\n`);
    };
    writeFileSync(path.join(root, 'docs', 'parseheaders.md'), '+++\nid = "PARSEHEADERS"\nkind = "document"\ntitle = "parseHeaders"\n+++\n# parseHeaders\n\nparseHeaders parses raw headers into a map.\n');
    node('UTIL', 'util', 'contains = ["PARSEHEADERS"]');
    for (const caller of ['ONHEADERS', 'ONCOMPLETE', 'ONUPGRADE']) node(caller, `Handler ${caller.toLowerCase()}`, 'calls = ["PARSEHEADERS"]');
    for (let i = 0; i < 12; i += 1) node(`IMPORTER${i}`, `Client module ${i}`, 'imports = ["UTIL"]');
  }, (ready) => {
    reader = ready;
  });

  test('the callers of the first focus node lead the first depth', () => {
    const page = taskContextPage(reader, { task_kind: 'change', task: 'change parseHeaders so it parses raw headers into a map, in util', budget: 200_000 }, OPTIONS);
    const items = page.items as Item[];
    const focus = items.filter((i) => i.depth === 0).map((i) => i.id);
    assert.deepEqual(focus.slice(0, 2), ['PARSEHEADERS', 'UTIL'], JSON.stringify(focus));
    const depth1 = items.filter((i) => i.depth === 1).map((i) => i.id);
    assert.deepEqual(depth1.slice(0, 3).sort(), ['ONCOMPLETE', 'ONHEADERS', 'ONUPGRADE'], JSON.stringify(depth1));
    assert.ok(depth1.slice(3).every((id) => id.startsWith('IMPORTER')), JSON.stringify(depth1));
  });
});
