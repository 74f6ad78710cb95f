// Pins the one-shot `docforge sync` whose build runs in the CLI's own main thread (issue 14;
// libs/index in-process-build.ts): the launcher takes that route for an edit of a small project
// (DOCFORGE_CLI_TRACE=1 says "build in process"), publishes the same graph as a build in a worker
// thread and as a build from scratch, for code and documentation edits, prints only its own output
// on stdout, and keeps the worker thread when DOCFORGE_BUILD_IN_PROCESS=0, when DOCFORGE_WORKER_BUNDLE
// names the worker, and when progress is shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { REPO_ROOT } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';

const LAUNCHER = path.join(REPO_ROOT, 'apps/cli/bin/docforge.js');

interface Sync {
  trace: string[];
  stdout: string;
  stderr: string;
}

function sync(root: string, args: string[], env: Record<string, string> = {}): Sync {
  // The timeout only bounds a hang; no figure is asserted.
  const result = spawnSync(process.execPath, [LAUNCHER, 'sync', '-C', root, ...args], {
    encoding: 'utf8', timeout: 120_000, env: { ...process.env, DOCFORGE_CLI_TRACE: '1', ...env },
  });
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stderr.split('\n');
  return {
    trace: lines.filter((l) => l.startsWith('docforge-trace: ')).map((l) => l.slice('docforge-trace: '.length)),
    stdout: result.stdout,
    stderr: lines.filter((l) => !l.startsWith('docforge-trace: ')).join('\n').trim(),
  };
}

/** The published graph of `root` as sorted rows (what a build must reproduce). */
function graphOf(root: string): Record<string, string[]> {
  const current = JSON.parse(readFileSync(path.join(root, '.docforge/index/current.json'), 'utf8')) as { index_file: string };
  const db = new Database(path.join(root, '.docforge/index', current.index_file), { readonly: true });
  try {
    const rows = (sql: string): string[] => (db.prepare(sql).raw().all() as unknown[][]).map((row) => JSON.stringify(row));
    return {
      nodes: rows('SELECT id, kind, title, body, source_path, start_line, end_line, anchors, capabilities, content_hash FROM nodes ORDER BY id'),
      edges: rows('SELECT source_id, relation, target_id, source_path, line, mention FROM edges ORDER BY 1, 2, 3, 4, 5'),
      issues: rows('SELECT severity, code, message, path, line, node_id FROM issues ORDER BY 1, 2, 3, 4, 5'),
      unresolved: rows('SELECT node_id, count FROM unresolved_calls ORDER BY 1'),
    };
  } finally {
    db.close();
  }
}

/** A from-scratch build of `root`'s sources (no state copied), in a worker thread. */
function scratchGraph(root: string): Record<string, string[]> {
  const fresh = tempDir('docforge-in-process-scratch-');
  cpSync(root, fresh, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') });
  const built = JSON.parse(sync(fresh, ['--json']).stdout) as { stats: { mode: string } };
  assert.equal(built.stats.mode, 'full');
  return graphOf(fresh);
}

/** What is edited, the file, and the text appended to it. */
const EDITS: ReadonlyArray<readonly [string, string, string]> = [
  ['a code edit', 'src/shared/retry.ts', '\nexport function inProcessProbe(): number {\n  return withRetry.length;\n}\n'],
  ['a documentation edit', 'docs/guides/glossary.md', '\nAn edit that links [the retry helper](../components/retry.md).\n'],
];

test('an edit of a small project builds in process and publishes what a worker thread and a build from scratch publish', () => {
  const inProcess = exampleProjectCopy();
  const threaded = exampleProjectCopy();
  // A publication to start from (the shared fixture's copy may come without one).
  sync(inProcess, []);
  sync(threaded, []);
  for (const [what, file, text] of EDITS) {
    appendFileSync(path.join(inProcess, file), text);
    appendFileSync(path.join(threaded, file), text);
    const here = sync(inProcess, ['--json']);
    assert.deepEqual(here.trace, ['bundle used', 'build in process', 'full cli (prior: build true)'], what);
    assert.equal(here.stderr, '', `${what}: nothing on stderr but the trace`);
    // stdout is exactly the command's JSON (the build module's stdout guard stays off in the main thread).
    const report = JSON.parse(here.stdout) as { rebuilt: boolean; stats: { mode: string; parsed: number } };
    assert.equal(report.rebuilt, true, what);
    assert.equal(report.stats.mode, 'delta', what);
    assert.equal(report.stats.parsed, 1, what);
    const there = sync(threaded, ['--json'], { DOCFORGE_BUILD_IN_PROCESS: '0' });
    assert.deepEqual(there.trace, ['bundle used', 'build in a worker thread', 'full cli (prior: build true)'], what);
    const graph = graphOf(inProcess);
    assert.deepEqual(graph, graphOf(threaded), `${what}: in process = worker thread`);
    assert.deepEqual(graph, scratchGraph(inProcess), `${what}: in process = from scratch`);
  }
  // The text report, and the next sync answers from the fast path.
  appendFileSync(path.join(inProcess, 'src/shared/retry.ts'), '\n// a comment\n');
  const text = sync(inProcess, []);
  assert.match(text.stdout, /^rebuilt: generation \d+, \d+ nodes, \d+ edges, \d+ issues \(\d+ sources\)\n {2}delta build: parsed 1, reused \d+, [\d.]+ ms\n$/);
  assert.deepEqual(sync(inProcess, []).trace, ['bundle used']);
});

test('a worker file named by DOCFORGE_WORKER_BUNDLE runs in a worker thread, never in the CLI process', () => {
  const root = exampleProjectCopy();
  sync(root, []);
  appendFileSync(path.join(root, 'docs/guides/glossary.md'), '\nAnother edit.\n');
  const bundle = path.join(REPO_ROOT, 'libs/index/dist/bundle/worker.cjs');
  const named = sync(root, ['--json'], { DOCFORGE_WORKER_BUNDLE: bundle });
  assert.deepEqual(named.trace, ['bundle used', 'build in a worker thread', 'full cli (prior: build true)']);
  assert.equal((JSON.parse(named.stdout) as { rebuilt: boolean }).rebuilt, true);
});

test('a sync that shows progress builds in a worker thread, so its progress lines come while it builds', () => {
  const root = exampleProjectCopy();
  sync(root, []);
  appendFileSync(path.join(root, 'src/shared/retry.ts'), '\n// shown progress\n');
  const shown = sync(root, ['--progress']);
  assert.deepEqual(shown.trace, ['bundle used', 'build in a worker thread', 'full cli (prior: build true)']);
  assert.match(shown.stderr, /^docforge: indexing, stage parse: /m);
});
