// Pins the launcher's bundled full CLI (the `cli-full-bundle` tactic, issue 29; apps/cli/bin/docforge.js,
// dist/bundle/cli.cjs): a command the no-change fast path does not answer prints through the bundle
// byte for byte what the compiled CLI prints; the launcher uses the bundle only while it is fresh
// (libs/accelerate bundleState) and DOCFORGE_ACCELERATE leaves cli-full-bundle on, and a stale, missing,
// moved, unloadable or switched-off bundle runs the compiled cli.js with the same output.
// DOCFORGE_CLI_TRACE=2 makes the launcher also say which full CLI ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_COMPILED, REPO_ROOT } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';

const APP = path.join(REPO_ROOT, 'apps/cli');
const LAUNCHER = path.join(APP, 'bin/docforge.js');
const BUNDLE = path.join(APP, 'dist/bundle/cli.cjs');
const MANIFEST = path.join(APP, 'dist/bundle/cli.inputs.json');
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

/** Absolute paths of the real bundle's inputs. */
function realInputs(): string[] {
  return (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { inputs: string[] }).inputs.map((input) => path.resolve(path.dirname(MANIFEST), input));
}

/**
 * A copy of the launcher in a temp app folder whose dist/src links to the real compiled CLI and
 * node_modules to the repository's; with `bundle`, dist/bundle holds that full-CLI bundle (a link to
 * the real one, or a file of the given text) and a manifest of the real inputs plus one temp input
 * whose modification time is `inputAgeS` seconds after the bundle's (negative: older).
 */
function tempLauncher(bundle: { real: true; inputAgeS: number } | { text: string } | null, builtIn?: string): string {
  const dir = tempDir('docforge-full-launcher-');
  mkdirSync(path.join(dir, 'bin'));
  mkdirSync(path.join(dir, 'dist'));
  copyFileSync(LAUNCHER, path.join(dir, 'bin/docforge.js'));
  copyFileSync(path.join(path.dirname(LAUNCHER), 'package.json'), path.join(dir, 'bin/package.json'));
  symlinkSync(path.join(APP, 'dist/src'), path.join(dir, 'dist/src'));
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  if (bundle !== null) {
    const out = path.join(dir, 'dist/bundle');
    mkdirSync(out);
    const file = path.join(out, 'cli.cjs');
    if ('real' in bundle) symlinkSync(BUNDLE, file);
    else writeFileSync(file, bundle.text);
    const input = path.join(dir, 'input.js');
    writeFileSync(input, '// an input\n');
    const built = statSync(file).mtimeMs / 1000;
    const age = 'real' in bundle ? bundle.inputAgeS : -60;
    utimesSync(input, built + age, built + age);
    writeFileSync(path.join(out, 'cli.inputs.json'), JSON.stringify({ bundle: 'cli.cjs', built_in: builtIn ?? realpathSync(out), inputs: [...realInputs(), input] }));
  }
  return path.join(dir, 'bin/docforge.js');
}

test('the full-CLI bundle manifest lists the compiled CLI and its libraries, none newer than the bundle', () => {
  const inputs = realInputs();
  for (const file of ['apps/cli/dist/src/cli.js', 'apps/cli/dist/src/commands.js', 'libs/sync/dist/src/index.js', 'libs/accelerate/dist/src/index.cjs']) {
    assert.ok(inputs.includes(path.join(REPO_ROOT, file)), `${file} is an input of the bundle`);
  }
  assert.ok(!inputs.some((input) => /[\\/]node_modules[\\/](better-sqlite3|piscina|typescript)[\\/]/.test(input)), 'native, pool and compiler packages stay external');
  const built = statSync(BUNDLE).mtimeMs;
  for (const input of inputs) assert.ok(statSync(input).mtimeMs <= built, `${input} is not newer than the bundle (run node apps/cli/scripts/build-full-bundle.mjs after tsc -b)`);
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
  const root = exampleProjectCopy();
  assert.equal(run(CLI_COMPILED, ['sync', '-C', root]).status, 0);
  const args = ['search', 'refund ledger', '--json', '-C', root];
  const expected = run(CLI_COMPILED, args);
  const cases: Array<[string, Record<string, string>, string]> = [
    [tempLauncher({ real: true, inputAgeS: -60 }), {}, 'full bundle used'],
    [tempLauncher({ real: true, inputAgeS: 60 }), {}, 'full bundle stale'],
    // Built in another folder (a moved checkout): its embedded absolute file URLs point elsewhere.
    [tempLauncher({ real: true, inputAgeS: -60 }, '/elsewhere/apps/cli/dist/bundle'), {}, 'full bundle stale'],
    [tempLauncher(null), {}, 'full bundle missing'],
    [tempLauncher({ text: "throw new Error('a damaged bundle must not run');\n" }), {}, 'full bundle error'],
    [tempLauncher({ text: 'exports.runMain = 42;\n' }), {}, 'full bundle error'],
    [tempLauncher({ real: true, inputAgeS: -60 }), { DOCFORGE_ACCELERATE: 'off' }, 'full bundle off'],
    [tempLauncher({ real: true, inputAgeS: -60 }), { DOCFORGE_ACCELERATE: '-cli-full-bundle' }, 'full bundle off'],
  ];
  for (const [launcher, env, path] of cases) {
    const result = run(launcher, args, env);
    assert.deepEqual(result.trace.filter((line) => !line.startsWith('full bundle unloadable: ')), ['full cli', path], `${launcher} ${JSON.stringify(env)}`);
    assert.equal(result.status, expected.status, result.stderr);
    assert.equal(result.stdout, expected.stdout);
    assert.equal(result.stderr, expected.stderr);
  }
  // Level 1 keeps its lines: the full CLI's path is reported at level 2 only.
  assert.deepEqual(run(LAUNCHER, args, { DOCFORGE_CLI_TRACE: '1' }).trace, ['full cli']);
});
