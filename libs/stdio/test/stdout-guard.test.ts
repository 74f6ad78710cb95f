// Pins the stdout guard: once installed, console methods and process.stdout.write of the thread, and of worker threads it starts, become pino lines on stderr, while the returned stream still reaches the real stdout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const GUARD = pathToFileURL(path.resolve(here, '../src/stdout-guard.js')).href;

const SCRIPT = `
import { Worker } from 'node:worker_threads';
const { guardStdout } = await import(${JSON.stringify(GUARD)});
const real = guardStdout();
console.log('main console.log %d', 1);
console.info('main console.info');
console.table([{ a: 1 }]);
process.stdout.write('main stdout.write\\n');
process.stdout.write(Buffer.from('main buffer write\\n'));
// An unguarded worker's stdout is piped into the main thread's (guarded) process.stdout.
await new Promise((resolve) => new Worker("console.log('plain worker console.log')", { eval: true }).on('exit', resolve));
// A guarded worker logs directly to fd 2.
const guarded = "const { guardStdout } = await import(" + JSON.stringify(${JSON.stringify(GUARD)}) + "); guardStdout(); console.log('guarded worker console.log'); process.stdout.write('guarded worker write');";
await new Promise((resolve) => new Worker(new URL('data:text/javascript,' + encodeURIComponent(guarded))).on('exit', resolve));
real.write('FRAME\\n');
`;

test('console and process.stdout go to the stderr log in the main thread and in worker threads; the returned stream is the real stdout', () => {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { encoding: 'utf8', env: { ...process.env, DOCFORGE_LOG_LEVEL: 'info' } });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, 'FRAME\n', 'only the returned stream reaches stdout');
  const lines = run.stderr.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; captured: string; level: number });
  const messages = lines.map((l) => l.msg);
  for (const expected of ['main console.log 1', 'main console.info', 'main stdout.write', 'main buffer write', 'plain worker console.log', 'guarded worker console.log', 'guarded worker write']) {
    assert.ok(messages.includes(expected), `${expected} in ${JSON.stringify(messages)}`);
  }
  assert.ok(messages.some((m) => m.includes('┌')), 'console.table is captured too');
  assert.ok(lines.every((l) => l.captured === 'stdout' && l.level === 40), 'captured at level warn');
});

test('every piscina worker entry of libs/builder and libs/sync installs the guard at its top level', () => {
  // The worker entries live beside the pools that start them: the parse pool in libs/builder, the build pool in libs/sync.
  const dirs = ['builder', 'sync'].map((lib) => path.resolve(here, '../../..', lib, 'src'));
  const entries = new Set<string>();
  const dirOf = new Map<string, string>();
  for (const src of dirs) for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(path.join(src, file), 'utf8');
    for (const m of text.matchAll(/new Piscina\(\{[^}]*?filename: new URL\('\.\/([a-z-]+)\.js'/gs)) { entries.add(`${m[1]}.ts`); dirOf.set(`${m[1]}.ts`, src); }
    // The build pool names its entry through buildWorkerFile(): the compiled worker.js, or its bundle (which runs worker.js's top level).
    // (build-pools.ts: `const file = buildWorkerFile(...); return new BuildPool({ file, ... })`, whose piscina runs `start.file`.)
    if (/new piscina\.Piscina\(\{[^}]*?filename: buildWorkerFile\(\)/s.test(text) || /const file = buildWorkerFile\(\);\s*const pool = new piscina\.Piscina\(\{[^}]*?filename: file,/s.test(text)
      || /const file = buildWorkerFile\([^)]*\);\s*return new BuildPool\(\{ file,/s.test(text)) {
      for (const m of text.matchAll(/new URL\('\.\/([a-z-]+)\.js', import\.meta\.url\)/g)) { entries.add(`${m[1]}.ts`); dirOf.set(`${m[1]}.ts`, src); }
    }
  }
  assert.deepEqual([...entries].sort(), ['parse-worker.ts', 'worker.ts'], 'the build worker and the parse threads');
  for (const entry of entries) {
    assert.match(readFileSync(path.join(dirOf.get(entry)!, entry), 'utf8'), /^guardStdout\(\);$/m, `${entry} calls guardStdout() at its top level`);
  }
});
