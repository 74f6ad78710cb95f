// Pins issue 30's type aliases end to end on piscina 5.3.2 as installed (node_modules/piscina: its
// src/ and docs/docs/, nobody here wrote them): `export type PiscinaLoadBalancer = (...) => ...`
// is a code node of kind `type`, so the API reference's section about it links to it (it gave
// node_not_found), as interfaces always did; and a kinds filter that names no kind of the index
// offers the kind meant (`typealias` -> `type`) or, when none is close, lists the kinds there are.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';

const PISCINA = path.join(REPO_ROOT, 'node_modules', 'piscina');

function cli(root: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args, '-C', root], { encoding: 'utf8' });
}

describe('piscina 5.3.2 (installed package): type aliases', () => {
  const root = path.join(tempDir('docforge-typealias-'), 'piscina');
  mkdirSync(root, { recursive: true });
  cpSync(path.join(PISCINA, 'src'), path.join(root, 'src'), { recursive: true });
  cpSync(path.join(PISCINA, 'docs', 'docs'), path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "piscina"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n');
  const sync = cli(root, ['sync']);

  test('histogram.ts lists its type aliases beside its interface', () => {
    assert.equal(sync.status, 0, sync.stderr);
    const out = cli(root, ['node', 'code:src/histogram.ts', '--no-body']);
    assert.equal(out.status, 0, out.stderr);
    for (const name of ['PiscinaHistogramHandler', 'PiscinaHistogram', 'PiscinaHistogramSummary']) {
      assert.match(out.stdout, new RegExp(`code:src/histogram\\.ts#${name}\\b`), name);
    }
  });

  test("the API reference's PiscinaLoadBalancer section documents the type alias", () => {
    const out = cli(root, ['backlinks', 'code:src/worker_pool/balancer/index.ts#PiscinaLoadBalancer', '--relations', 'documents', '--json']);
    assert.equal(out.status, 0, out.stderr);
    const items = (JSON.parse(out.stdout) as { result: { items: { id: string }[] } }).result.items;
    assert.ok(items.some((item) => item.id.includes('api-reference/class')), JSON.stringify(items));
  });

  test('a kinds filter naming no kind offers the one meant, or lists the kinds of the index', () => {
    const meant = cli(root, ['search', 'queue', '--kinds', 'typealias']);
    assert.equal(meant.status, 0, meant.stderr);
    assert.match(meant.stdout, /no node has kinds "typealias"; did you mean "type"\?/);
    const none = cli(root, ['search', 'queue', '--kinds', 'qqqqqq']);
    assert.equal(none.status, 0, none.stderr);
    const listed = /no node has kinds "qqqqqq"; kinds in this index: (.*)/.exec(none.stdout);
    assert.ok(listed !== null, none.stdout);
    for (const kind of ['class', 'function', 'interface', 'method', 'module', 'type']) assert.ok(listed[1]!.split(', ').includes(kind), listed[1]);
    const hits = cli(root, ['search', 'load balancer', '--kinds', 'type', '--json']);
    const ids = (JSON.parse(hits.stdout) as { items: { id: string }[] }).items.map((item) => item.id);
    assert.ok(ids.includes('code:src/worker_pool/balancer/index.ts#PiscinaLoadBalancer'), JSON.stringify(ids));
  });
});
