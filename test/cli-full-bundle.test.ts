// Pins the launcher's bundled full CLI (the `cli-full-bundle` tactic, issue 29; apps/cli/bin/docforge.js,
// dist/bundle/cli.cjs): a command the no-change fast path does not answer prints through the bundle
// byte for byte what the compiled CLI prints; the launcher uses the bundle only while it is fresh
// (libs/accelerate bundleState: an input changed in size, mtime, ctime or inode, even with its mtime put
// back, makes it stale) and DOCFORGE_ACCELERATE leaves cli-full-bundle on, and a stale, missing, moved,
// unloadable or switched-off bundle, or one whose runMain is missing, throws or runs nothing (issue 29's
// break-it trial), runs the compiled cli.js with the same output; what it prints while loading goes to stderr.
// DOCFORGE_CLI_TRACE=2 makes the launcher also say which full CLI ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { bundleState } from '@docforge/accelerate';
import path from 'node:path';
import { CLI_COMPILED, REPO_ROOT } from './helpers/paths.js';
import { exampleProjectCopy, sharedExampleProject } from './helpers/projects.js';
import { type LauncherApp, realInputs, tempLauncher } from './helpers/launchers.js';

const APP = path.join(REPO_ROOT, 'apps/cli');
const LAUNCHER = path.join(APP, 'bin/docforge.js');
const BUNDLE = path.join(APP, 'dist/bundle/cli.cjs');
const TRACE = 'docforge-trace: ';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  trace: string[];
}

function run(entry: string, args: string[], env: Record<string, string> = {}): Run {
  // The timeout only bounds a hang; no figure is asserted.
  const result = spawnSync(process.execPath, [entry, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, DOCFORGE_ACCELERATE: '', DOCFORGE_CLI_TRACE: '2', ...env } });
  const lines = result.stderr.split('\n');
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: lines.filter((line) => !line.startsWith(TRACE)).join('\n'),
    trace: lines.filter((line) => line.startsWith(TRACE)).map((line) => line.slice(TRACE.length)),
  };
}

const FULL_APP: LauncherApp = { app: APP, launcher: 'bin/docforge.js', bundle: 'cli.cjs' };

test('the full-CLI bundle manifest lists the compiled CLI and its libraries, and the bundle is fresh', () => {
  const inputs = realInputs(FULL_APP);
  for (const file of ['apps/cli/dist/src/cli.js', 'apps/cli/dist/src/commands.js', 'libs/sync/dist/src/index.js', 'libs/accelerate/dist/src/index.cjs']) {
    assert.ok(inputs.includes(path.join(REPO_ROOT, file)), `${file} is an input of the bundle`);
  }
  assert.ok(!inputs.some((input) => /[\\/]node_modules[\\/](better-sqlite3|piscina|typescript)[\\/]/.test(input)), 'native, pool and compiler packages stay external');
  assert.equal(bundleState(BUNDLE), 'fresh', 'run node apps/cli/scripts/build-full-bundle.mjs after tsc -b');
});

test('search, status and an edit sync through the bundle print byte for byte what the compiled CLI prints', () => {
  const root = exampleProjectCopy();
  assert.equal(run(CLI_COMPILED, ['sync', '-C', root]).status, 0);
  for (const args of [['search', 'refund ledger', '-C', root], ['search', 'refund ledger', '--json', '-C', root], ['status', '-C', root]]) {
    const bundled = run(LAUNCHER, args);
    const compiled = run(CLI_COMPILED, args);
    assert.deepEqual(bundled.trace, ['full cli', 'full bundle used'], args.join(' '));
    assert.equal(bundled.status, compiled.status, bundled.stderr);
    assert.equal(bundled.stdout, compiled.stdout);
    assert.equal(bundled.stderr, compiled.stderr);
  }
  appendFileSync(path.join(root, 'docs/guides/glossary.md'), '\nAn edit.\n');
  const edited = run(LAUNCHER, ['sync', '--json', '-C', root]);
  assert.equal(edited.status, 0, edited.stderr);
  assert.deepEqual(edited.trace, ['bundle used', 'full cli (prior: build true)', 'full bundle used']);
  const report = JSON.parse(edited.stdout) as { rebuilt: boolean; stats: { mode: string } | null };
  assert.equal(report.rebuilt, true);
  assert.equal(report.stats?.mode, 'delta');
});

test('the launcher runs the full-CLI bundle only while fresh and switched on; otherwise the compiled CLI prints the same', () => {
  // A no-change sync and searches only: the run's shared example project (a private copy would be built again by its first
  // sync, as its index file has a new inode).
  const root = sharedExampleProject();
  assert.equal(run(CLI_COMPILED, ['sync', '-C', root]).status, 0);
  const args = ['search', 'refund ledger', '--json', '-C', root];
  const expected = run(CLI_COMPILED, args);
  const cases: Array<[string, Record<string, string>, string[]]> = [
    [tempLauncher(FULL_APP, { real: true }), {}, ['full bundle used']],
    [tempLauncher(FULL_APP, { real: true, change: 'newer' }), {}, ['full bundle stale']],
    // Content changed, old size and mtime put back (touch -r, cp -p, rsync -t): ctime tells (issue 29 break-it trial).
    [tempLauncher(FULL_APP, { real: true, change: 'put-back' }), {}, ['full bundle stale']],
    // Built in another folder (a moved checkout): its embedded absolute file URLs point elsewhere.
    [tempLauncher(FULL_APP, { real: true }, '/elsewhere/apps/cli/dist/bundle'), {}, ['full bundle stale']],
    [tempLauncher(FULL_APP, null), {}, ['full bundle missing']],
    [tempLauncher(FULL_APP, { text: "throw new Error('a damaged bundle must not run');\n" }), {}, ['full bundle unloadable: a damaged bundle must not run', 'full bundle error']],
    [tempLauncher(FULL_APP, { text: '' }), {}, ['full bundle exports no runMain function', 'full bundle error']],
    [tempLauncher(FULL_APP, { text: 'exports.runMain = 42;\n' }), {}, ['full bundle exports no runMain function', 'full bundle error']],
    // Loads and has a runMain that runs nothing (it used to exit 0 printing nothing), or throws.
    [tempLauncher(FULL_APP, { text: 'exports.runMain = () => {};\n' }), {}, ['full bundle runMain returned no promise', 'full bundle error']],
    [tempLauncher(FULL_APP, { text: "exports.runMain = () => { throw new Error('no run'); };\n" }), {}, ['full bundle runMain threw: no run', 'full bundle error']],
    [tempLauncher(FULL_APP, { real: true }), { DOCFORGE_ACCELERATE: 'off' }, ['full bundle off']],
    [tempLauncher(FULL_APP, { real: true }), { DOCFORGE_ACCELERATE: '-cli-full-bundle' }, ['full bundle off']],
  ];
  for (const [launcher, env, trace] of cases) {
    const result = run(launcher, args, env);
    assert.deepEqual(result.trace, ['full cli', ...trace], `${launcher} ${JSON.stringify(env)}`);
    assert.equal(result.status, expected.status, result.stderr);
    assert.equal(result.stdout, expected.stdout);
    assert.equal(result.stderr, expected.stderr);
  }
  // What the bundle prints while it loads goes to stderr, not into the command's output.
  const noisy = run(tempLauncher(FULL_APP, { text: `console.log('NOISE'); module.exports = require(${JSON.stringify(BUNDLE)});\n` }), args);
  assert.deepEqual(noisy.trace, ['full cli', 'full bundle used']);
  assert.equal(noisy.stdout, expected.stdout);
  assert.equal(noisy.stderr, `docforge: kept off stdout (printed while a bundle loaded): NOISE\n${expected.stderr}`);
  // Level 1 keeps its lines: the full CLI's path is reported at level 2 only.
  assert.deepEqual(run(LAUNCHER, args, { DOCFORGE_CLI_TRACE: '1' }).trace, ['full cli']);
});
