// Pins the whole-process `docforge sync` fast path (issue 14) on a fastify copy: a no-change sync prints byte for
// byte what the full synchronization prints (text and --json, stats null, exit 0); an edit rebuilds through the
// full path (with the build worker started early) and the next sync is again answered by the fast path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { IndexManager, type SyncReport } from '@docforge/sync';
import { noChangeSync } from '@docforge/sync';
import { CLI_COMPILED } from './helpers/paths.js';
import { fastifyProjectCopy } from './helpers/projects.js';

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_COMPILED, ...args], { encoding: 'utf8' });
}

/** A fresh manager's sync (the full path of a fresh `docforge sync` process). */
async function fullSync(root: string): Promise<SyncReport> {
  const manager = new IndexManager({ root, noAst: false });
  try {
    return await manager.sync();
  } finally {
    await manager.close();
  }
}

/** What the CLI prints for a sync report (apps/cli sync-output.ts), computed independently. */
function expectedOutput(sync: SyncReport, json: boolean): string {
  const p = sync.publication;
  if (json) return `${JSON.stringify({ rebuilt: sync.rebuilt, staleness: sync.staleness, publication: p, stats: sync.stats, sync_error: sync.sync_error }, null, 2)}\n`;
  return `${sync.rebuilt ? 'rebuilt' : 'up to date'}: generation ${p.generation}, ${p.counts.nodes} nodes, ${p.counts.edges} edges, ${p.counts.issues} issues (${p.counts.sources} sources)\n`;
}

test('fastify: a no-change sync answers from the published identity exactly as the full sync would; an edit rebuilds', async () => {
  const root = fastifyProjectCopy(['docs', 'lib', 'fastify.js', 'package.json'], [
    'schema_version = 1',
    '[project]', 'id = "fastify"', 'name = "Fastify"',
    '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]', 'exclude = ["**/node_modules/**", "**/.git/**"]',
    '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
  ].join('\n'), 'docforge-cli-nochange-');
  const cold = cli(['sync', '--no-progress', '-C', root]);
  assert.equal(cold.status, 0, cold.stderr);
  assert.match(cold.stdout, /^rebuilt: generation 1, /);

  assert.equal(noChangeSync(root, { noAst: false }).current, true, 'the fast path answers a no-change sync');
  const text = cli(['sync', '--no-progress', '-C', root]);
  const json = cli(['sync', '--json', '-C', root]);
  const full = await fullSync(root);
  assert.equal(full.rebuilt, false);
  assert.equal(full.stats, null);
  assert.equal(text.status, 0, text.stderr);
  assert.equal(json.status, 0, json.stderr);
  assert.equal(text.stdout, expectedOutput(full, false));
  assert.equal(json.stdout, expectedOutput(full, true));
  assert.equal(text.stderr, '');
  assert.equal(JSON.parse(json.stdout).stats, null);

  // One-file edit: the full path rebuilds (delta) in the build worker started early, and reports its stats.
  appendFileSync(path.join(root, 'lib', 'route.js'), '\n// an edit\n');
  assert.equal(noChangeSync(root, { noAst: false }).current, false);
  const edited = cli(['sync', '--json', '-C', root]);
  assert.equal(edited.status, 0, edited.stderr);
  const report = JSON.parse(edited.stdout) as { rebuilt: boolean; publication: { generation: number }; stats: { parsed: number } | null };
  assert.equal(report.rebuilt, true);
  assert.equal(report.publication.generation, 2);
  assert.equal(report.stats?.parsed, 1);
  const after = cli(['sync', '-C', root]);
  assert.equal(after.status, 0, after.stderr);
  assert.equal(after.stdout, expectedOutput(await fullSync(root), false));
  assert.match(after.stdout, /^up to date: generation 2, /);
});
