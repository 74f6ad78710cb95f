// Pins the launcher's bundled no-change sync (issue 14; apps/cli/bin/docforge.js, dist/bundle/fast-sync.cjs):
// its output equals the unbundled CLI's byte for byte (text and --json); a stale (an input changed in
// size, mtime, ctime or inode, even with its mtime put back), missing, unloadable or empty bundle is
// skipped for the full CLI with the same output, and what it prints while loading goes to stderr; a sync that needs a build builds once through
// the full CLI. DOCFORGE_CLI_TRACE=1 makes the launcher say on stderr which path ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { bundleState } from '@docforge/accelerate';
import path from 'node:path';
import { CLI_COMPILED, REPO_ROOT } from './helpers/paths.js';
import { exampleProjectCopy, sharedExampleProject, tempDir } from './helpers/projects.js';
import { type LauncherApp, realInputs, tempLauncher } from './helpers/launchers.js';

const APP = path.join(REPO_ROOT, 'apps/cli');
const LAUNCHER = path.join(APP, 'bin/docforge.js');
const BUNDLE = path.join(APP, 'dist/bundle/fast-sync.cjs');

interface Run {
  status: number | null;
  signal?: string | null;
  stdout: string;
  stderr: string;
}

function run(entry: string, args: string[], env: Record<string, string> = {}): Run {
  // The timeout only bounds a hang (a worker that never starts); no figure is asserted.
  const result = spawnSync(process.execPath, [entry, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, DOCFORGE_CLI_TRACE: '1', ...env } });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** The launcher's trace lines, and stderr without them. */
function traced(result: Run): { trace: string[]; stderr: string } {
  const lines = result.stderr.split('\n');
  return { trace: lines.filter((l) => l.startsWith('docforge-trace: ')).map((l) => l.slice('docforge-trace: '.length)), stderr: lines.filter((l) => !l.startsWith('docforge-trace: ')).join('\n') };
}

const FAST_APP: LauncherApp = { app: APP, launcher: 'bin/docforge.js', bundle: 'fast-sync.cjs' };

test('the bundle manifest lists the compiled fast path and its libraries, and the bundle is fresh', () => {
  const inputs = realInputs(FAST_APP);
  for (const file of ['apps/cli/dist/src/fast-sync.js', 'apps/cli/dist/src/sync-output.js', 'libs/sync/dist/src/no-change.js', 'libs/project/dist/src/walk.js']) {
    assert.ok(inputs.includes(path.join(REPO_ROOT, file)), `${file} is an input of the bundle`);
  }
  assert.equal(bundleState(BUNDLE), 'fresh', 'run node apps/cli/scripts/build-bundle.mjs after tsc -b');
});

test('a no-change sync through the bundle prints byte for byte what the unbundled CLI prints (text and --json)', () => {
  // Only no-change syncs and refused command lines: the run's shared example project (a private copy would be built again by
  // its first sync, as its index file has a new inode).
  const root = sharedExampleProject();
  assert.equal(run(CLI_COMPILED, ['sync', '-C', root]).status, 0);
  for (const args of [['sync', '-C', root], ['sync', '--json', '-C', root], ['sync', '--project-root', root, '--json'], ['sync', '--no-progress', '-C', root]]) {
    const bundled = run(LAUNCHER, args);
    const unbundled = run(CLI_COMPILED, args);
    const { trace, stderr } = traced(bundled);
    assert.deepEqual(trace, ['bundle used'], `the bundle answered ${args.join(' ')}`);
    assert.equal(bundled.status, 0, bundled.stderr);
    assert.equal(bundled.stdout, unbundled.stdout);
    assert.equal(stderr, unbundled.stderr);
    assert.equal(bundled.status, unbundled.status);
  }
  assert.match(run(LAUNCHER, ['sync', '-C', root]).stdout, /^up to date: generation \d+, /);
  // Anything but a plain sync with -C, --json and --(no-)progress goes to the full CLI, unchecked.
  // (`sync --limit 3`: the full CLI refuses an option sync does not take, exactly as the compiled CLI does.)
  const other = run(LAUNCHER, ['sync', '--limit', '3', '-C', root]);
  assert.deepEqual(traced(other).trace, ['bundle used', 'full cli']);
  const compiled = run(CLI_COMPILED, ['sync', '--limit', '3', '-C', root]);
  assert.deepEqual([other.status, other.stdout, traced(other).stderr], [compiled.status, compiled.stdout, compiled.stderr]);
  assert.equal(other.status, 2);
  assert.match(other.stderr, /sync does not take --limit/);
});

test('a stale, missing or unloadable bundle is skipped silently for the full CLI', () => {
  // Only no-change syncs and refused command lines: the run's shared example project (a private copy would be built again by
  // its first sync, as its index file has a new inode).
  const root = sharedExampleProject();
  assert.equal(run(CLI_COMPILED, ['sync', '-C', root]).status, 0);
  const expected = run(CLI_COMPILED, ['sync', '--json', '-C', root]);
  const cases: Array<[string, string[]]> = [
    [tempLauncher(FAST_APP, { real: true }), ['bundle used']],
    [tempLauncher(FAST_APP, { real: true, change: 'newer' }), ['bundle stale', 'full cli']],
    // Content changed, old size and mtime put back (touch -r, cp -p, rsync -t): ctime tells (issue 29 break-it trial).
    [tempLauncher(FAST_APP, { real: true, change: 'put-back' }), ['bundle stale', 'full cli']],
    // Built in another folder (a moved checkout): its embedded absolute file URLs point elsewhere.
    [tempLauncher(FAST_APP, { real: true }, '/elsewhere/apps/cli/dist/bundle'), ['bundle stale', 'full cli']],
    [tempLauncher(FAST_APP, null), ['bundle missing', 'full cli']],
    [tempLauncher(FAST_APP, { text: "throw new Error('a stale bundle must not run');\n" }), ['bundle error', 'full cli']],
    [tempLauncher(FAST_APP, { text: '' }), ['bundle exports no runFastSync function', 'bundle error', 'full cli']],
    // Loadable, but damaged or foreign: it throws when run, or answers in another shape.
    [tempLauncher(FAST_APP, { text: "exports.runFastSync = () => { throw new Error('boom'); };\n" }), ['bundle used', 'bundle failed: boom', 'full cli']],
    [tempLauncher(FAST_APP, { text: "exports.runFastSync = () => ({ handled: 'yes', code: '0' });\n" }), ['bundle used', 'full cli']],
    // What a bundle prints while it loads goes to stderr, not into the command's output.
    [tempLauncher(FAST_APP, { text: "console.log('NOISE'); exports.runFastSync = () => ({ handled: false, prior: null });\n" }), ['bundle used', 'full cli']],
  ];
  for (const [launcher, path] of cases) {
    const result = run(launcher, ['sync', '--json', '-C', root]);
    const { trace, stderr } = traced(result);
    assert.deepEqual(trace.map((line) => line.replace(/^bundle unloadable: .*$/, '')).filter(Boolean), path);
    assert.equal(result.status, expected.status, result.stderr);
    assert.equal(result.stdout, expected.stdout);
    assert.equal(stderr.replace(/^docforge: kept off stdout \(printed while a bundle loaded\): NOISE\n/m, ''), expected.stderr);
  }
});

test('a sync that needs a build: the bundle checks once, the full CLI builds once and reports rebuilt', () => {
  const root = exampleProjectCopy();
  const before = run(CLI_COMPILED, ['sync', '--json', '-C', root]);
  assert.equal(before.status, 0, before.stderr);
  const generation = (JSON.parse(before.stdout) as { publication: { generation: number } }).publication.generation;
  appendFileSync(path.join(root, 'docs/guides/glossary.md'), '\nAn edit.\n');
  const edited = run(LAUNCHER, ['sync', '--json', '-C', root]);
  assert.equal(edited.status, 0, edited.stderr);
  assert.deepEqual(traced(edited).trace, ['bundle used', 'full cli (prior: build true)']);
  const report = JSON.parse(edited.stdout) as { rebuilt: boolean; publication: { generation: number }; stats: { mode: string } | null };
  assert.equal(report.rebuilt, true);
  assert.equal(report.publication.generation, generation + 1);
  assert.equal(report.stats?.mode, 'delta');
  const after = run(LAUNCHER, ['sync', '-C', root]);
  assert.deepEqual(traced(after).trace, ['bundle used']);
  assert.equal(after.stdout, run(CLI_COMPILED, ['sync', '-C', root]).stdout);
  assert.match(after.stdout, new RegExp(`^up to date: generation ${generation + 1}, `));
});

test('an edit whose bundled build worker cannot load (a damaged dist/bundle/worker.cjs): the launcher still publishes, on the compiled worker, and says so', () => {
  const root = exampleProjectCopy();
  assert.equal(run(CLI_COMPILED, ['sync', '-C', root]).status, 0);
  const bad = path.join(tempDir('docforge-bad-worker-'), 'worker.cjs');
  writeFileSync(bad, "throw new Error('a damaged worker bundle');\n");
  appendFileSync(path.join(root, 'docs/guides/glossary.md'), '\nAn edit built without the bundle.\n');
  const edited = run(LAUNCHER, ['sync', '--json', '-C', root], { DOCFORGE_WORKER_BUNDLE: bad });
  assert.equal(edited.status, 0, edited.stderr);
  assert.equal(edited.signal ?? null, null);
  assert.match(edited.stderr, /the bundled build worker could not start; running the compiled worker/);
  assert.match(edited.stderr, /a damaged worker bundle/);
  const report = JSON.parse(edited.stdout) as { rebuilt: boolean; sync_error: unknown; stats: { mode: string } | null };
  assert.equal(report.rebuilt, true);
  assert.equal(report.sync_error, null);
  assert.equal(report.stats?.mode, 'delta');
  assert.match(run(CLI_COMPILED, ['sync', '-C', root]).stdout, /^up to date: /);
});
