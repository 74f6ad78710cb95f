// Pins the verdicts and first errors of the hand validator that preceded the schema-driven shape check (commit 88c731b; issue 29 item 4 asks for no user-visible change): forms it accepted stay accepted, and a semantic problem it met first is still the one reported when a later key also fails the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocforgeError } from '@docforge/core';
import { loadDescriptor } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

const MINIMAL = 'schema_version = 1\n[project]\nid = "demo"\n';
const MATRIX = (relations: string): string =>
  `[[views]]\nid = "m"\nrenderer = "matrix"\noutput = "out/m.html"\nrelations = ${relations}\n[views.rows]\nkinds = ["a"]\n[views.columns]\nkinds = ["b"]\n`;

function load(body: string): ReturnType<typeof loadDescriptor> {
  const root = tempTree({ 'docforge.toml': `${MINIMAL}${body}`, 'docs/.keep': '' });
  try {
    return loadDescriptor(root);
  } finally {
    removeTree(root);
  }
}

function firstError(body: string): { code: string; message: string; key: unknown; line: unknown } {
  try {
    load(body);
  } catch (error) {
    assert.ok(error instanceof DocforgeError, String(error));
    return { code: error.code, message: error.message, key: error.details['key'], line: error.details['line'] };
  }
  assert.fail('expected the descriptor to be refused');
}

test('a writer may repeat an operation: it counts once', () => {
  const d = load('[proposals.writers.bot]\noperations = ["node_create", "node_create", "node_update"]\n');
  assert.deepEqual(d.proposals.writers['bot'], { operations: ['node_create', 'node_update'], paths: null });
});

// Changed on purpose (issue 30, helper fx30): these values can never work (an empty glob matches no path, no writer id
// is empty or outside the id grammar of --proposal-writer, no edge has a blank relation name), so each is now refused at
// the item's own line with what to write instead, as the exclude globs and [vocabulary].relations are.
test('never-working writer paths, applier writers and matrix relations are refused at the item line', () => {
  const cases: [string, string, number, RegExp][] = [
    ['[proposals.writers.bot]\npaths = [\n  "docs/**",\n  "",\n]\n', 'proposals.writers.bot.paths', 7, /must not hold an empty glob, got "": it matches no path, so the writer could write nowhere; remove it/],
    ['[proposals.appliers.ap]\nwriters = [""]\n', 'proposals.appliers.ap.writers', 5, /must list writer ids in the id grammar of --proposal-writer .*, got "": no writer could ever be bound to it/],
    ['[proposals.appliers.ap]\nwriters = [\n  "bot",\n  "bad id!",\n]\n', 'proposals.appliers.ap.writers', 7, /got "bad id!"/],
    [MATRIX('[\n  "implements",\n  " ",\n]'), 'views.0.relations', 10, /must not hold a blank relation name, got " ": no edge has one, so the matrix would stay empty; remove it/],
  ];
  for (const [body, key, line, pattern] of cases) {
    const e = firstError(body);
    assert.deepEqual([e.code, e.key, e.line], ['descriptor_invalid', key, line], body);
    assert.match(e.message, pattern, body);
  }
  assert.deepEqual(load('[proposals.appliers.ap]\nwriters = ["bot", "ci.release-2"]\n').proposals.appliers['ap'], { writers: ['bot', 'ci.release-2'] });
  assert.deepEqual(load(MATRIX('["implements", "tested_by"]')).views[0]?.relations, ['implements', 'tested_by']);
});

test('an empty writer glob does not hide a later bad glob of the same list', () => {
  const e = firstError('[proposals.writers.bot]\npaths = ["", "/x"]\n');
  assert.equal(e.key, 'proposals.writers.bot.paths');
  assert.match(e.message, /glob "\/x" must be project-relative without "\.\."/);
});

test('a view output ending in / or /. names the .html file before it', () => {
  for (const output of ['out/a.html/', 'out/a.html//', 'out/a.html/.', 'out/a.html/./']) {
    assert.equal(load(`[[views]]\nid = "v"\nrenderer = "page"\noutput = "${output}"\n`).views[0]?.output, 'out/a.html', output);
  }
  const e = firstError('[[views]]\nid = "v"\nrenderer = "page"\noutput = "out/a.html/.."\n');
  assert.equal(e.key, 'views.0.output');
  assert.match(e.message, /must not escape the project root/);
});

const PAGE = (output: string, extra = '', id = 'v'): string => `[[views]]\nid = "${id}"\nrenderer = "page"\noutput = "${output}"\n${extra}`;

test('a semantic problem met before a later shape problem is the one reported, as the one-pass validator did', () => {
  const cases: [string, string, RegExp][] = [
    ['[state]\ndir = "/abs"\n[limits]\nfoo = 1\n', 'state.dir', /\[state\]\.dir must be a relative path, got "\/abs"/],
    [`[state]\ndir = "/abs"\n${PAGE('x.txt')}`, 'state.dir', /must be a relative path/],
    ['[sources]\ncontent_roots = ["../x"]\n[vocabulary]\nkinds = "x"\n', 'sources.content_roots', /must not escape the project root/],
    ['[sources]\ncontent_roots = ["/abs", ""]\n', 'sources.content_roots', /must be a relative path, got "\/abs"/],
    ['[state]\ndir = "docs"\n[limits]\nmax_results = 0\n', 'state.dir', /is the same directory as the content root "docs"/],
    ['[adapter]\nmodule = "/abs.js"\n[vocabulary]\nkinds = "x"\n', 'adapter.module', /must be a relative path/],
    [PAGE('/abs.html') + PAGE('out/w.html', 'foo = 1\n', 'w'), 'views.0.output', /must be a relative path, got "\/abs\.html"/],
    [PAGE('out/v.html') + PAGE('out/v.html', '', 'w') + PAGE('out/z.html', 'foo = 1\n', 'z'), 'views.1.output', /is also the output of view "v"/],
    [PAGE('.docforge/a.html') + '[proposals]\nwriters = 5\n', 'views.0.output', /must not lie inside the state dir/],
    ['[proposals.writers.""]\noperations = ["zap"]\n', 'proposals.writers.', /must name a writer id of 1 to 256 printable characters/],
    ['[proposals.appliers.""]\nwriters = 5\n', 'proposals.appliers.', /must name an applier id/],
  ];
  for (const [body, key, message] of cases) {
    const e = firstError(body);
    assert.equal(e.code, 'descriptor_invalid', body);
    assert.equal(e.key, key, body);
    assert.match(e.message, message, body);
  }
});

test('a shape problem met before a semantic one is still the one reported', () => {
  const cases: [string, string, RegExp][] = [
    ['[state]\ndir = "/abs"\nfoo = 1\n', 'state.foo', /is not a known key \(expected one of: dir\)/],
    ['[proposals]\nfoo = 1\n[proposals.writers.bot]\npaths = ["/x"]\n', 'proposals.foo', /is not a known key/],
    [`${PAGE('/abs.html', '[views.rows]\nkinds = ["a"]\n')}`, 'views.0.rows', /is a key of the matrix renderer, not of page/],
  ];
  for (const [body, key, message] of cases) {
    const e = firstError(body);
    assert.equal(e.key, key, body);
    assert.match(e.message, message, body);
  }
});

test('a view output the path checks refuse does not pre-empt a problem ranking before it', () => {
  for (const output of ['""', '"/a.txt"', '"a/../b.txt"']) {
    const e = firstError(`[limits]\nmax_results = 0\n[[views]]\nid = "v"\nrenderer = "page"\noutput = ${output}\n`);
    assert.equal(e.key, 'limits.max_results', output);
    assert.match(e.message, /must be an integer from 1 to 10000/, output);
  }
  const e = firstError('[[views]]\nid = "v"\nrenderer = "page"\noutput = "/a.txt"\n');
  assert.equal(e.key, 'views.0.output');
  assert.match(e.message, /must be a relative path, got "\/a\.txt"/);
});
