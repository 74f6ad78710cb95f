// Pins docforge-mcp's launcher and its bundled server (the `mcp-bundle` tactic, issue 29;
// apps/mcp-server/bin/docforge-mcp.js, dist/bundle/main.cjs): a start through the bundle answers
// initialize, tools/list and a search byte for byte as the compiled entry does; the launcher uses the
// bundle only while it is fresh (libs/accelerate bundleState) and DOCFORGE_ACCELERATE leaves
// mcp-bundle on, and a stale, missing, moved, unloadable or switched-off bundle starts the compiled
// entry with the same answers. DOCFORGE_MCP_TRACE=1 makes the launcher say on stderr which path ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';

const APP = path.join(REPO_ROOT, 'apps/mcp-server');
const LAUNCHER = path.join(APP, 'bin/docforge-mcp.js');
const COMPILED = path.join(APP, 'dist/src/main.js');
const BUNDLE = path.join(APP, 'dist/bundle/main.cjs');
const MANIFEST = path.join(APP, 'dist/bundle/main.inputs.json');
const TRACE = 'docforge-mcp-trace: ';

/** initialize, initialized, tools/list and one search: JSON-RPC frames, each group sent after the answer before it. */
const STEPS: object[][] = [
  [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcp-bundle-test', version: '0' } } }],
  [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
  [{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'docforge_search', arguments: { query: 'refund ledger', limit: 10 } } }],
];

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
  const child = spawn(process.execPath, [entry, '--project-root', root, '--log-level', 'error'], {
    stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, DOCFORGE_ACCELERATE: '', DOCFORGE_MCP_TRACE: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  let step = 0;
  const send = (): void => {
    if (step < STEPS.length) child.stdin.write(STEPS[step]!.map((frame) => `${JSON.stringify(frame)}\n`).join(''));
    else child.stdin.end();
    step += 1;
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    // Every step but the notification's ends with one answer: its count of complete lines says which step is done.
    if (stdout.split('\n').length - 1 === step) send();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  send();
  const status = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
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

/** A copy of examples/ whose index is current (a first session builds it when the copy has none), so every session answers from one publication. */
async function indexedExample(): Promise<string> {
  const root = exampleProjectCopy();
  assert.equal((await session(COMPILED, root)).status, 0);
  return root;
}

/** Absolute paths of the real bundle's inputs. */
function realInputs(): string[] {
  return (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { inputs: string[] }).inputs.map((input) => path.resolve(path.dirname(MANIFEST), input));
}

/**
 * A copy of the launcher in a temp app folder whose dist/src links to the real compiled server and
 * node_modules to the repository's; with `bundle`, dist/bundle holds that bundle (a link to the real
 * one, or a file of the given text) and a manifest of the real inputs plus one temp input whose
 * modification time is `inputAgeS` seconds after the bundle's (negative: older).
 */
function tempLauncher(bundle: { real: true; inputAgeS: number } | { text: string } | null, builtIn?: string): string {
  const dir = tempDir('docforge-mcp-launcher-');
  mkdirSync(path.join(dir, 'bin'));
  mkdirSync(path.join(dir, 'dist'));
  copyFileSync(LAUNCHER, path.join(dir, 'bin/docforge-mcp.js'));
  copyFileSync(path.join(path.dirname(LAUNCHER), 'package.json'), path.join(dir, 'bin/package.json'));
  symlinkSync(path.join(APP, 'dist/src'), path.join(dir, 'dist/src'));
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  if (bundle !== null) {
    const out = path.join(dir, 'dist/bundle');
    mkdirSync(out);
    const file = path.join(out, 'main.cjs');
    if ('real' in bundle) symlinkSync(BUNDLE, file);
    else writeFileSync(file, bundle.text);
    const input = path.join(dir, 'input.js');
    writeFileSync(input, '// an input\n');
    const built = statSync(file).mtimeMs / 1000;
    const age = 'real' in bundle ? bundle.inputAgeS : -60;
    utimesSync(input, built + age, built + age);
    writeFileSync(path.join(out, 'main.inputs.json'), JSON.stringify({ bundle: 'main.cjs', built_in: builtIn ?? realpathSync(out), inputs: [...realInputs(), input] }));
  }
  return path.join(dir, 'bin/docforge-mcp.js');
}

test('the bundle manifest lists the compiled server and its libraries, none newer than the bundle', () => {
  const inputs = realInputs();
  for (const file of ['apps/mcp-server/dist/src/main.js', 'apps/mcp-server/dist/src/serve.js', 'libs/sync/dist/src/index.js', 'libs/accelerate/dist/src/index.cjs']) {
    assert.ok(inputs.includes(path.join(REPO_ROOT, file)), `${file} is an input of the bundle`);
  }
  assert.ok(inputs.some((input) => input.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)), 'zod is bundled');
  assert.ok(!inputs.some((input) => /[\\/]node_modules[\\/](better-sqlite3|piscina|typescript)[\\/]/.test(input)), 'native, pool and compiler packages stay external');
  const built = statSync(BUNDLE).mtimeMs;
  for (const input of inputs) assert.ok(statSync(input).mtimeMs <= built, `${input} is not newer than the bundle (run node apps/mcp-server/scripts/build-bundle.mjs after tsc -b)`);
});

test('a start through the bundle answers initialize, tools/list and a search as the compiled entry does, MCP frames only on stdout', async () => {
  const root = await indexedExample();
  const compiled = await session(COMPILED, root);
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
  const expected = answers((await session(COMPILED, root)).stdout);
  const cases: Array<[string, Record<string, string>, string[]]> = [
    [tempLauncher({ real: true, inputAgeS: -60 }), {}, ['bundle used']],
    [tempLauncher({ real: true, inputAgeS: 60 }), {}, ['bundle stale']],
    // Built in another folder (a moved checkout): its embedded absolute file URLs point elsewhere.
    [tempLauncher({ real: true, inputAgeS: -60 }, '/elsewhere/apps/mcp-server/dist/bundle'), {}, ['bundle stale']],
    [tempLauncher(null), {}, ['bundle missing']],
    [tempLauncher({ text: "throw new Error('a damaged bundle must not run');\n" }), {}, ['bundle error']],
    [tempLauncher({ real: true, inputAgeS: -60 }), { DOCFORGE_ACCELERATE: 'off' }, ['bundle off']],
    [tempLauncher({ real: true, inputAgeS: -60 }), { DOCFORGE_ACCELERATE: '-mcp-bundle,-prestart' }, ['bundle off']],
  ];
  for (const [launcher, env, trace] of cases) {
    const result = await session(launcher, root, env);
    assert.deepEqual(result.trace.filter((line) => !line.startsWith('bundle unloadable: ')), trace, `${launcher} ${JSON.stringify(env)}`);
    assert.equal(result.status, 0);
    assert.deepEqual(answers(result.stdout), expected, `${trace.join(', ')}`);
  }
});
