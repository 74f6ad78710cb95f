// Pins a new-user trial of issue 30 (2026-12-07): on got 14.4.5, `docforge backlinks ID --relations
// implments` said `(no relations value "implments" in this index)` with no suggestion, because the
// index held no `implements` edge and suggestions came only from relations with edges, while the
// README promises `did you mean "implements"?`. Suggestions now come from the whole relation
// vocabulary (the built-in aliased relations, the descriptor's [vocabulary].relations and the
// index's own); node filters likewise (built-in languages and capabilities, [vocabulary].kinds), and
// `docforge search`'s text says when the suggested value no node here holds. The CLI read commands,
// their --json and MCP give the same did_you_mean. Input: a copy of the installed semver package (a
// JavaScript project with no `implements` edge).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

describe('semver: a misspelled relation filter gets a suggestion from the whole vocabulary', () => {
  const dir = tempDir('docforge-f30-rel-');
  const root = path.join(dir, 'semver');
  before(() => {
    const source = path.join(REPO_ROOT, 'node_modules', 'semver');
    cpSync(source, root, { recursive: true, filter: (from) => !path.relative(source, from).split(path.sep).includes('node_modules') });
    assert.equal(cli(['init', root]).status, 0);
    const descriptor = path.join(root, 'docforge.toml');
    writeFileSync(descriptor, `${readFileSync(descriptor, 'utf8')}\n[vocabulary]\nrelations = ["mitigates"]\n`);
    const sync = cli(['sync', '-C', root]);
    assert.equal(sync.status, 0, sync.stderr);
  });
  after(() => removeDir(dir));

  test('CLI text and --json: implments -> implements (no edge here), contians -> contains, declared mitgates -> mitigates', () => {
    const text = cli(['backlinks', 'code:index.js', '--relations', 'implments', '-C', root]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /\(no relations value "implments" in this index; did you mean "implements"\?\)/);
    const deps = cli(['deps', 'code:index.js', '--relations', 'contians,mitgates', '-C', root, '--json']);
    assert.equal(deps.status, 0, deps.stderr);
    const parsed = JSON.parse(deps.stdout) as Json;
    const result = (parsed.result ?? parsed) as Json;
    assert.deepEqual(result.unmatched_filters, [
      { filter: 'relations', value: 'contians', did_you_mean: 'contains' },
      { filter: 'relations', value: 'mitgates', did_you_mean: 'mitigates' },
    ]);
  });

  test('node filters behave alike: pyhton -> python (no node here), asyn -> async (no node here), javascrpt -> javascript', () => {
    const text = cli(['search', 'range', '--languages', 'pyhton', '-C', root]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^no node has languages "pyhton"; did you mean "python"\? \(a known value, but no node of this index has it\)\n/);
    assert.match(cli(['search', 'range', '--capabilities', 'asyn', '-C', root]).stdout, /did you mean "async"\? \(a known value, but no node of this index has it\)/);
    assert.match(cli(['search', 'range', '--languages', 'javascrpt', '-C', root]).stdout, /did you mean "javascript"\?\n/);
  });

  test('MCP: backlinks, dependencies and impact answer the same did_you_mean', async () => {
    const s = await useServer(root);
    try {
      for (const tool of ['docforge_backlinks', 'docforge_dependencies', 'docforge_impact'] as const) {
        const e = await s.call(tool, { node_id: 'code:index.js', relations: ['implments'] });
        assert.equal(e.ok, true, JSON.stringify(e.error));
        assert.deepEqual(e.result!.unmatched_filters, [{ filter: 'relations', value: 'implments', did_you_mean: 'implements' }], tool);
      }
      for (const tool of ['docforge_search', 'docforge_filter_nodes'] as const) {
        const e = await s.call(tool, { ...(tool === 'docforge_search' ? { query: 'range' } : {}), languages: ['pyhton', 'javascrpt'] });
        assert.equal(e.ok, true, JSON.stringify(e.error));
        assert.deepEqual(e.result!.unmatched_filters, [
          { filter: 'languages', value: 'javascrpt', did_you_mean: 'javascript' },
          { filter: 'languages', value: 'pyhton', did_you_mean: 'python' },
        ], tool);
      }
    } finally {
      await s.close();
    }
  });
});
