// Pins docforge-mcp's launcher and its bundled server (the `mcp-bundle` tactic, issue 29;
// apps/mcp-server/bin/docforge-mcp.js, dist/bundle/main.cjs): a start through the bundle answers
// initialize, tools/list and a search byte for byte as the compiled entry does; the launcher uses the
// bundle only while it is fresh (libs/accelerate bundleState: an input changed in size, mtime, ctime or
// inode makes it stale, even with its mtime put back) and DOCFORGE_ACCELERATE leaves mcp-bundle on, and
// a stale, missing, moved, unloadable or switched-off bundle, or one that loads but does not start the
// server through its runMain (empty, foreign, truncated: issue 29's break-it trial), starts the compiled
// entry with the same answers; what a bundle prints while loading never reaches stdout.
// DOCFORGE_MCP_TRACE=1 makes the launcher say on stderr which path ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { bundleManifestPath, bundleState } from '@docforge/accelerate';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';
import { sharedExampleProject } from './helpers/projects.js';
import { type LauncherApp, realInputs, tempLauncher } from './helpers/launchers.js';
import { searchSteps, stepwiseSession } from './helpers/stepwise.js';

const APP = path.join(REPO_ROOT, 'apps/mcp-server');
const LAUNCHER = path.join(APP, 'bin/docforge-mcp.js');
const COMPILED = path.join(APP, 'dist/src/main.js');
const BUNDLE = path.join(APP, 'dist/bundle/main.cjs');
const TRACE = 'docforge-mcp-trace: ';

const STEPS = searchSteps('mcp-bundle-test');

interface Run {
  status: number | null;
  stdout: string;
  trace: string[];
}

/**
 * One docforge-mcp session on `root` through `entry`: each step's frames are sent once the answer
 * to the step before has come (stdin is closed after the last answer), its trace lines apart.
 */
async function session(entry: string, root: string, env: Record<string, string> = {}): Promise<Run> {
  const { status, stdout, stderr } = await stepwiseSession(entry, ['--project-root', root, '--log-level', 'error'], { DOCFORGE_MCP_TRACE: '1', ...env }, STEPS);
  const trace = stderr.split('\n').filter((line) => line.startsWith(TRACE)).map((line) => line.slice(TRACE.length));
  return { status, stdout, trace };
}

/** The answers of a session with the search's timing fields (`*_ms`) left out. */
function answers(stdout: string): unknown[] {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).filter(([key]) => !key.endsWith('_ms')).map(([key, item]) => [key, strip(item)]));
  };
  const frames = stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { result?: { content?: { text: string }[] } });
  return frames.map((frame) => {
    const content = frame.result?.content;
    // The text block is the structured result as JSON: compare it parsed, timings aside.
    return content ? strip({ ...frame, result: { ...frame.result, content: content.map((block) => JSON.parse(block.text) as unknown) } }) : strip(frame);
  });
}

/**
 * The run's shared example project, whose index is current (a first session builds it when the tests run without ops/run-tests.mjs),
 * so every session answers from one publication. The sessions only read it (initialize, tools/list, a search).
 */
let indexed: Promise<string> | null = null;
function indexedExample(): Promise<string> {
  indexed ??= (async () => {
    const root = sharedExampleProject();
    assert.equal((await session(COMPILED, root)).status, 0);
    return root;
  })();
  return indexed;
}

/**
 * The compiled entry's session on {@link indexedExample}, the reference every launcher path is compared with: one compiled session
 * for the file (the answers of one publication do not change between sessions).
 */
let reference: Promise<Run> | null = null;
function compiledRun(): Promise<Run> {
  reference ??= (async () => session(COMPILED, await indexedExample()))();
  return reference;
}

/** {@link answers} of {@link compiledRun}. */
async function compiledAnswers(): Promise<unknown[]> {
  return answers((await compiledRun()).stdout);
}

const MCP_APP: LauncherApp = { app: APP, launcher: 'bin/docforge-mcp.js', bundle: 'main.cjs' };

test('the bundle manifest lists the compiled server and its libraries, and the bundle is fresh', () => {
  const inputs = realInputs(MCP_APP);
  for (const file of ['apps/mcp-server/dist/src/run-main.js', 'apps/mcp-server/dist/src/serve.js', 'libs/sync/dist/src/index.js', 'libs/accelerate/dist/src/index.cjs']) {
    assert.ok(inputs.includes(path.join(REPO_ROOT, file)), `${file} is an input of the bundle`);
  }
  assert.ok(inputs.some((input) => input.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)), 'zod is bundled');
  assert.ok(!inputs.some((input) => /[\\/]node_modules[\\/](better-sqlite3|piscina|typescript)[\\/]/.test(input)), 'native, pool and compiler packages stay external');
  assert.ok(!inputs.includes(path.join(REPO_ROOT, 'apps/mcp-server/dist/src/main.js')), 'the bundle starts nothing: main.js, which runs runMain, is not in it');
  assert.equal(bundleState(BUNDLE), 'fresh', 'run node apps/mcp-server/scripts/build-bundle.mjs after tsc -b');
});

test('a start through the bundle answers initialize, tools/list and a search as the compiled entry does, MCP frames only on stdout', async () => {
  const root = await indexedExample();
  const compiled = await compiledRun();
  assert.equal(compiled.status, 0);
  const bundled = await session(LAUNCHER, root);
  assert.deepEqual(bundled.trace, ['bundle used']);
  assert.equal(bundled.status, 0);
  const expected = answers(compiled.stdout);
  assert.equal(expected.length, 3, compiled.stdout.slice(0, 500));
  assert.deepEqual(answers(bundled.stdout), expected);
  const off = await session(LAUNCHER, root, { DOCFORGE_ACCELERATE: '-mcp-bundle' });
  assert.deepEqual(off.trace, ['bundle off']);
  assert.deepEqual(answers(off.stdout), expected);
  const version = spawnSync(process.execPath, [LAUNCHER, '--version'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(version.stdout, spawnSync(process.execPath, [COMPILED, '--version'], { encoding: 'utf8', timeout: 60_000 }).stdout);
});

test('the launcher uses the bundle only while fresh and switched on; otherwise the compiled entry answers the same', async () => {
  const root = await indexedExample();
  const expected = await compiledAnswers();
  const cases: Array<[string, Record<string, string>, string[]]> = [
    [tempLauncher(MCP_APP, { real: true }), {}, ['bundle used']],
    [tempLauncher(MCP_APP, { real: true, change: 'newer' }), {}, ['bundle stale']],
    // Content changed, old size and mtime put back (touch -r, cp -p, rsync -t): ctime tells (issue 29 break-it trial).
    [tempLauncher(MCP_APP, { real: true, change: 'put-back' }), {}, ['bundle stale']],
    // Built in another folder (a moved checkout): its embedded absolute file URLs point elsewhere.
    [tempLauncher(MCP_APP, { real: true }, '/elsewhere/apps/mcp-server/dist/bundle'), {}, ['bundle stale']],
    [tempLauncher(MCP_APP, null), {}, ['bundle missing']],
    [tempLauncher(MCP_APP, { real: true }), { DOCFORGE_ACCELERATE: 'off' }, ['bundle off']],
    [tempLauncher(MCP_APP, { real: true }), { DOCFORGE_ACCELERATE: '-mcp-bundle,-prestart' }, ['bundle off']],
  ];
  for (const [launcher, env, trace] of cases) {
    const result = await session(launcher, root, env);
    assert.deepEqual(result.trace, trace, `${launcher} ${JSON.stringify(env)}`);
    assert.equal(result.status, 0);
    assert.deepEqual(answers(result.stdout), expected, `${trace.join(', ')}`);
  }
});

test('a fresh bundle that does not start the server (empty, foreign, throwing, truncated, a no-op runMain) is skipped for the compiled start, never a silent exit', async () => {
  const root = await indexedExample();
  const expected = await compiledAnswers();
  const real = readFileSync(BUNDLE, 'utf8');
  const cases: Array<[string, Array<string | RegExp>]> = [
    // The break-it trial's bundle: an empty main.cjs with a fresh mtime used to exit 0 with no answer.
    ['', ['bundle exports no runMain function', 'bundle error']],
    ['module.exports = {};\n', ['bundle exports no runMain function', 'bundle error']],
    ['exports.runMain = 42;\n', ['bundle exports no runMain function', 'bundle error']],
    ["throw new Error('a damaged bundle must not run');\n", ['bundle unloadable: a damaged bundle must not run', 'bundle error']],
    // Cut anywhere: the parser's message depends on where.
    [real.slice(0, Math.floor(real.length / 2)), [/^bundle unloadable: \S/, 'bundle error']],
    ['exports.runMain = () => {};\n', ['bundle runMain returned no promise', 'bundle error']],
    ["exports.runMain = () => { throw new Error('no start'); };\n", ['bundle runMain threw: no start', 'bundle error']],
  ];
  for (const [text, trace] of cases) {
    const result = await session(tempLauncher(MCP_APP, { text }), root);
    assert.equal(result.trace.length, trace.length, result.trace.join('\n'));
    trace.forEach((line, index) => (typeof line === 'string' ? assert.equal(result.trace[index], line) : assert.match(result.trace[index]!, line)));
    assert.equal(result.status, 0);
    assert.deepEqual(answers(result.stdout), expected, text.slice(0, 80));
  }
});

test('what a bundle prints while it loads goes to stderr: stdout carries MCP frames only', async () => {
  const root = await indexedExample();
  const expected = await compiledAnswers();
  const noisy = `console.log('NOISE from console'); process.stdout.write('NOISE from write\\n'); module.exports = require(${JSON.stringify(BUNDLE)});\n`;
  // The bundle on, whatever the run's own DOCFORGE_ACCELERATE (CI's accelerators-off leg sets it to off).
  const child = spawn(process.execPath, [tempLauncher(MCP_APP, { text: noisy }), '--version'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DOCFORGE_ACCELERATE: '' } });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  assert.equal(await new Promise<number | null>((resolve) => child.on('exit', resolve)), 0);
  assert.equal(stdout, spawnSync(process.execPath, [COMPILED, '--version'], { encoding: 'utf8', timeout: 60_000 }).stdout);
  assert.match(stderr, /NOISE from console/);
  assert.match(stderr, /NOISE from write/);
  const result = await session(tempLauncher(MCP_APP, { text: noisy }), root);
  assert.deepEqual(result.trace, ['bundle used']);
  assert.equal(result.status, 0);
  // Every line of stdout is a JSON-RPC frame: answers() parses each one.
  assert.deepEqual(answers(result.stdout), expected);
});

test('a malformed or unlisting manifest, or a malformed package.json beside the launcher: the compiled start, or a clear refusal', async () => {
  const root = await indexedExample();
  const expected = await compiledAnswers();
  const malformed = tempLauncher(MCP_APP, { real: true });
  const manifestOf = (launcher: string): string => bundleManifestPath(path.join(path.dirname(launcher), '../dist/bundle/main.cjs'));
  writeFileSync(manifestOf(malformed), '{ "inputs": [');
  const gone = tempLauncher(MCP_APP, { real: true });
  const manifest = JSON.parse(readFileSync(manifestOf(gone), 'utf8')) as { inputs: string[] };
  writeFileSync(manifestOf(gone), JSON.stringify({ ...manifest, inputs: manifest.inputs.map((input) => `${input}.gone`) }));
  for (const [launcher, trace] of [[malformed, ['bundle missing']], [gone, ['bundle stale']]] as const) {
    const result = await session(launcher, root);
    assert.deepEqual(result.trace, trace);
    assert.equal(result.status, 0);
    assert.deepEqual(answers(result.stdout), expected);
  }
  // Node reads bin/package.json (type commonjs) before the launcher runs: it refuses, naming the file.
  const broken = tempLauncher(MCP_APP, { real: true });
  writeFileSync(path.join(path.dirname(broken), 'package.json'), '{ "type": "commonjs",');
  const refused = spawnSync(process.execPath, [broken, '--version'], { encoding: 'utf8', timeout: 60_000 });
  assert.notEqual(refused.status, 0);
  assert.equal(refused.stdout, '');
  assert.match(refused.stderr, /package\.json/);
});
