// Pins the `node_not_found` hint (found in a new-user trial): an id written without its `code:` prefix, or a page with its `.md` extension, names the id that exists; anything else names none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missingNode } from '../src/index.js';

const ids = new Set(['code:lib/proto.js', 'code:lib/proto.js#child', 'guides/getting-started', 'code:lib/route.js#buildRouting.route', 'code:lib/route.js#buildRouting.routes', 'code:lib/route.js#buildRouting.router', 'code:lib/route.js#buildRouting.prepareRoute']);
const reader = {
  hasNode: (id: string): boolean => ids.has(id),
  // As the store answers: equal ignoring case, else a bare name's one declaration.
  nodeIdsNear: (id: string, limit: number): string[] => {
    const folded = [...ids].filter((known) => known.toLowerCase() === id.toLowerCase());
    if (folded.length > 0 || id.includes(':') || id.includes('#')) return folded.slice(0, limit);
    return [...ids].filter((known) => known.startsWith('code:') && (known.endsWith(`#${id}`) || new RegExp(`#.*\\.${id}$`).test(known))).slice(0, limit);
  },
  nodeIdsWithPrefix: (prefix: string, limit: number): string[] => [...ids].filter((known) => known.startsWith(prefix)).sort().slice(0, limit),
  // As the store answers: the nodes whose source path is `path` (or `path.<ext>` without an extension).
  nodeIdsAtPath: (path: string, limit: number): string[] => {
    const sources: Record<string, string[]> = { 'docs/clients.md': ['clients'], 'docs/records.toml': ['REQ-1', 'REQ-2', 'REQ-3'] };
    const exact = sources[path];
    if (exact !== undefined || /\.[^./]+$/.test(path)) return (exact ?? []).slice(0, limit);
    return Object.entries(sources).filter(([file]) => file.startsWith(`${path}.`)).flatMap(([, found]) => found).slice(0, limit);
  },
};

test('a code path without its prefix, or a page with its extension, is named as the meant id', () => {
  for (const [given, meant] of [['lib/proto.js', 'code:lib/proto.js'], ['lib/proto.js#child', 'code:lib/proto.js#child'], ['guides/getting-started.md', 'guides/getting-started']]) {
    const error = missingNode(reader, given!);
    assert.equal(error.code, 'node_not_found');
    assert.deepEqual(error.details, { node_id: given, did_you_mean: meant });
    assert.equal(error.message, `No node with id ${JSON.stringify(given)} exists. Did you mean ${JSON.stringify(meant)}?`);
  }
});

test('an id with no near match keeps the plain message', () => {
  const error = missingNode(reader, 'code:lib/nothing.js');
  assert.deepEqual(error.details, { node_id: 'code:lib/nothing.js' });
  assert.equal(error.message, 'No node with id "code:lib/nothing.js" exists.');
});

test('an id equal but for case, or a bare declaration name, names the one id it meant; several candidates name none', () => {
  for (const [given, meant] of [['CODE:LIB/PROTO.JS#CHILD', 'code:lib/proto.js#child'], ['child', 'code:lib/proto.js#child'], ['Guides/Getting-Started', 'guides/getting-started']]) {
    assert.deepEqual(missingNode(reader, given!).details, { node_id: given, did_you_mean: meant });
  }
  const twice = { ...reader, nodeIdsNear: (): string[] => ['code:a.js#run', 'code:b.js#run'] };
  assert.deepEqual(missingNode(twice, 'run').details, { node_id: 'run' });
});

test('a typo in the last segment names the one sibling within a small edit distance; two as close name none', () => {
  for (const [given, meant] of [['code:lib/route.js#buildRouting.prepareRout', 'code:lib/route.js#buildRouting.prepareRoute'], ['guides/getting-startd', 'guides/getting-started'], ['code:lib/proto.js#chlid', 'code:lib/proto.js#child']]) {
    assert.deepEqual(missingNode(reader, given!).details, { node_id: given, did_you_mean: meant });
  }
  // `rout` is one edit from both `route` and `routes`? No: from `route` (1) only; `routr` is one from `route` and `router`.
  assert.deepEqual(missingNode(reader, 'code:lib/route.js#buildRouting.rout').details, { node_id: 'code:lib/route.js#buildRouting.rout', did_you_mean: 'code:lib/route.js#buildRouting.route' });
  assert.deepEqual(missingNode(reader, 'code:lib/route.js#buildRouting.routr').details, { node_id: 'code:lib/route.js#buildRouting.routr' });
  assert.deepEqual(missingNode(reader, 'code:lib/route.js#buildRouting.xyz').details, { node_id: 'code:lib/route.js#buildRouting.xyz' });
});

test('a source path, with or without its extension, names the node(s) defined in that file (new-user trial u2)', () => {
  for (const given of ['docs/clients.md', 'docs/clients', './docs/clients.md']) {
    const error = missingNode(reader, given);
    assert.deepEqual(error.details, { node_id: given, did_you_mean: 'clients' });
    assert.equal(error.message, `No node with id ${JSON.stringify(given)} exists. Did you mean "clients"?`);
  }
  const records = missingNode(reader, 'docs/records.toml');
  assert.deepEqual(records.details, { node_id: 'docs/records.toml', did_you_mean: 'REQ-1' });
  assert.equal(records.message, 'No node with id "docs/records.toml" exists. Did you mean "REQ-1" (that file also defines "REQ-2", "REQ-3")?');
  assert.deepEqual(missingNode(reader, 'docs/nothing.md').details, { node_id: 'docs/nothing.md' });
});
