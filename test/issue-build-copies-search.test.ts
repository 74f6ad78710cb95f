// Pins a new-user trial finding (issue 30, stop 45 "Left"): date-fns ships each function as `.js`,
// `.cjs`, `.d.ts`, `.d.cts` and inside the `cdn.js` bundles, so "add days to a date" answered
// addDays six times in its top ten. Build copies of one source are one hit now, the others listed
// in `copies` and still nodes of their own. Inputs: date-fns 4.1.0 packed from the npm registry
// (the files of three functions, their fp twins and both cdn bundles), and the installed zod's
// TypeScript source beside its ESM, CommonJS and declaration builds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

interface Hit { id: string; match: string; copies?: string[] }

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

/** init, then every copy kept (init excludes generated copies by default; this is the ranking of a project that keeps them). */
function initKeepingCopies(root: string): void {
  assert.equal(cli(['init', root]).status, 0);
  const file = path.join(root, 'docforge.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^exclude = .*$/m, 'exclude = ["**/node_modules/**", "**/.git/**"]'));
}

function search(root: string, query: string, limit: number): Hit[] {
  const run = cli(['search', query, '-C', root, '--limit', String(limit), '--json']);
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { items: Hit[] }).items;
}

/** The source a build copy stands for: path without build extension or layout folders, and the name. */
function sourceOf(id: string): string {
  const [file, name = ''] = id.slice('code:'.length).split('#');
  if (/(^|\/)cdn\.js$/.test(file!)) return `bundle#${name.replace(/^_+/, '')}`;
  return `${file!.replace(/(\.d)?\.[cm]?[jt]s$/, '').split('/').filter((f) => !['src', 'lib', 'dist'].includes(f)).join('/')}#${name}`;
}

describe('build copies of one source are one search hit', () => {
  let dateFns = '';
  let zod = '';
  before(() => {
    const pack = tempDir('docforge-date-fns-pack-');
    try {
      execFileSync('npm', ['pack', 'date-fns@4.1.0', '--silent'], { cwd: pack, stdio: ['ignore', 'ignore', 'inherit'] });
      execFileSync('tar', ['xzf', 'date-fns-4.1.0.tgz'], { cwd: pack });
      dateFns = tempDir('docforge-date-fns-');
      const files = ['README.md', 'package.json', 'cdn.js', 'fp/cdn.js', '_lib/addLeadingZeros.js'];
      for (const stem of ['addDays', 'addBusinessDays', 'addMonths', 'toDate', 'constructFrom', 'fp/addDays']) {
        for (const ext of ['.js', '.cjs', '.d.ts', '.d.cts']) files.push(`${stem}${ext}`);
      }
      for (const file of files) {
        mkdirSync(path.dirname(path.join(dateFns, file)), { recursive: true });
        cpSync(path.join(pack, 'package', file), path.join(dateFns, file));
      }
      // The package's own exports map names every copy; keep the package name only (no public API walk of 1,000 entries).
      writeFileSync(path.join(dateFns, 'package.json'), JSON.stringify({ name: 'date-fns', version: '4.1.0', type: 'module' }));
    } finally {
      removeDir(pack);
    }
    initKeepingCopies(dateFns);
    zod = tempDir('docforge-zod-');
    const installed = path.join(REPO_ROOT, 'node_modules/zod');
    for (const file of ['README.md', 'src/v4/classic/schemas.ts', 'v4/classic/schemas.js', 'v4/classic/schemas.cjs', 'v4/classic/schemas.d.ts', 'v4/classic/schemas.d.cts']) {
      mkdirSync(path.dirname(path.join(zod, file)), { recursive: true });
      cpSync(path.join(installed, file), path.join(zod, file));
    }
    writeFileSync(path.join(zod, 'package.json'), JSON.stringify({ name: 'zod', version: '0.0.0', type: 'module' }));
    initKeepingCopies(zod);
  });
  after(() => {
    if (dateFns !== '') removeDir(dateFns);
    if (zod !== '') removeDir(zod);
  });

  test('date-fns: one hit per function, its .cjs, declarations and bundle copies listed; each copy still a node', () => {
    const hits = search(dateFns, 'add days to a date', 10);
    assert.equal(hits[0]!.id, 'code:addDays.js#addDays');
    assert.deepEqual([...hits[0]!.copies!].sort(), ['code:addDays.cjs#addDays', 'code:addDays.d.cts#addDays', 'code:addDays.d.ts#addDays', 'code:cdn.js#_addDays', 'code:fp/cdn.js#addDays']);
    const sources = hits.map((hit) => sourceOf(hit.id));
    assert.equal(new Set(sources).size, sources.length, JSON.stringify(hits.map((hit) => hit.id)));
    // The curried fp wrapper is another function, not a copy: it stays a hit of its own when it ranks.
    assert.ok(!hits[0]!.copies!.includes('code:fp/addDays.js#addDays'));
    // Copies are never hits of their own, and a smaller limit is still the prefix of a larger one.
    const listed = new Set(hits.flatMap((hit) => hit.copies ?? []));
    assert.ok(hits.every((hit) => !listed.has(hit.id)));
    assert.deepEqual(search(dateFns, 'add days to a date', 3).map((hit) => hit.id), hits.slice(0, 3).map((hit) => hit.id));
    // A copy is reachable: by its id as the query (exact_id first), and as a node.
    const exact = search(dateFns, 'code:addDays.cjs#addDays', 5)[0]!;
    assert.deepEqual([exact.id, exact.match], ['code:addDays.cjs#addDays', 'exact_id']);
    assert.equal(cli(['node', 'code:cdn.js#_addDays', '-C', dateFns, '--no-body']).status, 0);
  });

  test('zod: the TypeScript source leads its ESM, CommonJS and declaration builds', () => {
    const hits = search(zod, 'discriminated union', 5);
    assert.equal(hits[0]!.id, 'code:src/v4/classic/schemas.ts#discriminatedUnion');
    assert.deepEqual([...hits[0]!.copies!].sort(), ['code:v4/classic/schemas.cjs#discriminatedUnion', 'code:v4/classic/schemas.d.cts#discriminatedUnion', 'code:v4/classic/schemas.d.ts#discriminatedUnion', 'code:v4/classic/schemas.js#discriminatedUnion']);
    const sources = hits.map((hit) => sourceOf(hit.id));
    assert.equal(new Set(sources).size, sources.length, JSON.stringify(hits.map((hit) => hit.id)));
  });

  test('docforge_search answers the same hit with its copies, and the answer passes the output schema', async () => {
    const s = await useServer(zod);
    const answer = await s.call('docforge_search', { query: 'discriminated union', limit: 5 });
    assert.equal(answer.ok, true, JSON.stringify(answer.error));
    const first = answer.result!.items[0] as Json;
    assert.equal(first.id, 'code:src/v4/classic/schemas.ts#discriminatedUnion');
    assert.equal((first.copies as string[]).length, 4);
    await s.close();
  });
});

// Attacker trial on main (2026-12-08): `src/parser.ts` and `lib/parser.ts`, two hand-written
// TypeScript sources of different bodies exporting one name, were one search hit (the other under
// `copies`) and a mention linked to one of them, because the twin rule drops `src` and `lib`
// (mentions: libs/core/test/build-copies.test.ts). Real
// input: zod's classic and mini schema modules (different sources, both exporting
// `discriminatedUnion`) as `src/schemas.ts` and `lib/schemas.ts`.
describe('two hand-written sources of one module path stay two', () => {
  let root = '';
  before(() => {
    root = tempDir('docforge-two-sources-');
    const installed = path.join(REPO_ROOT, 'node_modules/zod/src/v4');
    for (const [from, to] of [['classic/schemas.ts', 'src/schemas.ts'], ['mini/schemas.ts', 'lib/schemas.ts']] as const) {
      mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
      cpSync(path.join(installed, from), path.join(root, to));
    }
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'two-sources', version: '0.0.0', type: 'module' }));
    initKeepingCopies(root);
  });
  after(() => {
    if (root !== '') removeDir(root);
  });

  test('search lists both, neither as a copy of the other', () => {
    const hits = search(root, 'discriminated union', 10);
    const ids = hits.map((hit) => hit.id);
    for (const id of ['code:src/schemas.ts#discriminatedUnion', 'code:lib/schemas.ts#discriminatedUnion']) assert.ok(ids.includes(id), `${id} in ${JSON.stringify(ids)}`);
    assert.ok(hits.every((hit) => !(hit.copies ?? []).some((copy) => copy.endsWith('schemas.ts#discriminatedUnion'))), JSON.stringify(hits));
  });

});
