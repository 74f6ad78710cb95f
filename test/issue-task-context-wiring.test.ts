// Pins issue 31 item 4 on a real package nobody here wrote (pino, as installed under node_modules, with the descriptor `docforge init` writes): a change's task context keeps to the task. The first page holds the redaction docs and the code that wires redaction in (verified against pino's source), and no module sibling pulled in through structure edges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import type { Json } from './helpers/server.js';

const PINO_DIR = path.join(REPO_ROOT, 'node_modules', 'pino');

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The containment direction of a structure hop: `down` from a container to its member. */
function containment(hop: Json): 'up' | 'down' {
  const containerIsSource = hop.relation !== 'defined_in';
  return (hop.direction === 'outgoing') === containerIsSource ? 'down' : 'up';
}

test('pino, change "add a new option to redact that hashes values instead of censoring": redaction docs and the wiring modules on the first page, no browser.js sibling', { timeout: 300_000 }, () => {
  const root = path.join(tempDir('docforge-task-wiring-'), 'pino');
  cpSync(PINO_DIR, root, { recursive: true, filter: (src) => !path.relative(PINO_DIR, src).split(path.sep).includes('node_modules') });
  assert.equal(cli(['init', root]).status, 0);
  const sync = cli(['sync', '-C', root]);
  assert.equal(sync.status, 0, sync.stderr);

  // What wires redaction in, read from pino's own source: pino.js and lib/proto.js require
  // ./lib/redaction and call redaction(...) inside pino() and child().
  const pinoSource = readFileSync(path.join(root, 'pino.js'), 'utf8');
  const protoSource = readFileSync(path.join(root, 'lib', 'proto.js'), 'utf8');
  assert.match(pinoSource, /require\('\.\/lib\/redaction'\)/);
  assert.match(protoSource, /require\('\.\/redaction'\)/);
  assert.match(pinoSource, /function pino \([\s\S]*redaction\(redact, stringifyFn\)/);
  assert.match(protoSource, /function child \([\s\S]*redaction\(instance\.redact, stringify\)/);

  const run = cli(['context', '-C', root, '--json', '--task-kind', 'change', 'add a new option to redact that hashes values instead of censoring']);
  assert.equal(run.status, 0, run.stderr);
  const result = (JSON.parse(run.stdout) as Json).result as Json;
  const items = result.items as Json[];
  const evidence = items.filter((i) => i.type === 'evidence');
  const ids = evidence.map((i) => i.id as string);
  const listing = JSON.stringify(items.map((i) => [i.type, i.id, (i.path ?? []).map((h: Json) => `${h.relation}:${h.direction}`).join('>')]));

  // The documentation of the redact option: docs/redaction.md and the `redact` option of docs/api.md.
  const redactionDoc = evidence.find((i) => i.source_path === 'docs/redaction.md');
  assert.ok(redactionDoc, `docs/redaction.md on the first page: ${listing}`);
  assert.ok(evidence.some((i) => i.source_path === 'docs/api.md'), `docs/api.md on the first page: ${listing}`);

  // The wiring: the functions that call redaction() and the modules that import lib/redaction.js.
  for (const [id, relation] of [['code:pino.js#pino', 'calls'], ['code:lib/proto.js#child', 'calls'], ['code:pino.js', 'imports'], ['code:lib/proto.js', 'imports']] as const) {
    const item = evidence.find((i) => i.id === id);
    assert.ok(item, `${id} selected on the first page: ${listing}`);
    const last = item.path.at(-1) as Json;
    assert.equal(last.relation, relation, `${id}: ${JSON.stringify(item.path)}`);
    assert.equal(last.direction, 'incoming', `${id} wires its predecessor in`);
  }

  // No node is pulled in by structure edges that leave the focus's containment chain (a module's
  // other members): every structure path runs one way, from the focus to its container or members.
  // Checked on every candidate: under a budget that selects them all.
  const all = cli(['context', '-C', root, '--json', '--budget', '200000', '--limit', '200', '--task-kind', 'change', 'add a new option to redact that hashes values instead of censoring']);
  assert.equal(all.status, 0, all.stderr);
  const everything = ((JSON.parse(all.stdout) as Json).result as Json).items as Json[];
  assert.ok(everything.every((i) => i.type === 'evidence'), 'every candidate selected');
  assert.deepEqual(everything.map((i) => i.id).sort(), items.map((i) => i.id).sort(), 'the same candidates');
  for (const item of everything) {
    const structure = (item.path as Json[]).every((h) => h.category === 'structure');
    if (!structure || item.path.length < 2) continue;
    assert.equal(new Set((item.path as Json[]).map(containment)).size, 1, `${item.id} reached through siblings: ${JSON.stringify(item.path)}`);
  }
  assert.ok(!everything.some((i) => String(i.id).startsWith('code:browser.js#') && i.path.length === 2 && i.path[1].category === 'structure'), `no browser.js sibling: ${listing}`);

  // Under a small budget the wiring that does not fit is a hash-identified omission on the same
  // page, never silently dropped; no module sibling is there to crowd it out.
  const small = cli(['context', '-C', root, '--json', '--budget', '1500', '--task-kind', 'change', 'add a new option to redact that hashes values instead of censoring']);
  assert.equal(small.status, 0, small.stderr);
  const page = (JSON.parse(small.stdout) as Json).result as Json;
  assert.equal(page.page.next_cursor, null, 'one page');
  for (const id of ['code:pino.js#pino', 'code:lib/proto.js#child', 'code:pino.js', 'code:lib/proto.js']) {
    const item = (page.items as Json[]).find((i) => i.id === id);
    assert.ok(item, `${id} on the page under budget 1500`);
    if (item.type === 'omission') {
      assert.equal(item.reason, 'token_limit');
      assert.match(item.sha256, /^[0-9a-f]{64}$/);
    }
  }
  // The same candidates, packed differently: the ones checked above for siblings.
  assert.deepEqual((page.items as Json[]).map((i) => i.id).sort(), items.map((i) => i.id).sort());
});
