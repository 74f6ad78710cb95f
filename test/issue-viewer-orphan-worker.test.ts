// Regression (issue 30 item 19): a graph-browser worker whose viewer manager dies exits, also when
// the manager dies while the worker is still starting (before it registered any handler), so no
// worker listens forever unseen by `viewer status` and `viewer stop --all`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { viewerRuntimePaths } from '@docforge/ipc';
import { sharedExampleProject, tempDir } from './helpers/projects.js';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { useServer } from './helpers/server.js';
import { useViewerRuntime } from './helpers/viewer.js';

const WORKER_BIN = path.join(REPO_ROOT, 'apps/graph-browser/bin/graph-browser.js');
/** How long a process gets to exit before the test calls it an orphan (a bound, not a timing assertion). */
const EXIT_BOUND_MS = 60_000;

/** Whether `pid` is a live process (a zombie waiting to be reaped counts as exited). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits until `pid` exited, up to {@link EXIT_BOUND_MS}; true when it did. */
async function exits(pid: number): Promise<boolean> {
  const until = Date.now() + EXIT_BOUND_MS;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

/** The publication of `root` as the worker configuration's signature and index path. */
function workerConfig(root: string): Record<string, unknown> {
  const current = JSON.parse(readFileSync(path.join(root, '.docforge/index/current.json'), 'utf8')) as Record<string, unknown>;
  const signature = { generation: current.generation, source_identity: current.source_identity, index_file: current.index_file, index_ino: current.index_ino, index_size: current.index_size };
  return { worker_id: 'orphan-test', project_root: root, project_id: current.project_id, index_path: path.join(root, '.docforge/index', String(current.index_file)), signature, no_ast: false };
}

test('a worker whose manager is SIGKILLed right after the fork, before the worker started, exits', async () => {
  // Only read (the worker's log goes to a temp dir): the run's shared fixture, current, so the sync below
  // answers "up to date"; run alone, a private copy, whose index file has another inode than its
  // publication records: the sync makes the worker bind a valid one.
  const root = sharedExampleProject();
  const synced = spawnSync(process.execPath, [CLI_ENTRY, 'sync', '-C', root], { encoding: 'utf8' });
  assert.equal(synced.status, 0, synced.stderr);
  // A stand-in manager: forks the real worker launcher with a valid configuration, prints its pid,
  // and kills itself at once, so the worker's channel closes while the worker loads its modules.
  const workerLog = path.join(tempDir('docforge-orphan-log-'), 'worker.log');
  const manager = [
    "import { fork } from 'node:child_process';",
    "import { openSync } from 'node:fs';",
    `const log = openSync(${JSON.stringify(workerLog)}, 'a');`,
    `const child = fork(${JSON.stringify(WORKER_BIN)}, [], { env: { ...process.env, DOCFORGE_WORKER_CONFIG: process.argv[1] }, execArgv: [], stdio: ['ignore', log, log, 'ipc'] });`,
    "process.stdout.write(String(child.pid) + '\\n', () => process.kill(process.pid, 'SIGKILL'));",
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', manager, JSON.stringify(workerConfig(root))], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
  assert.equal(signal, 'SIGKILL');
  const pid = Number.parseInt(out, 10);
  assert.ok(pid > 0, `the stand-in manager printed the worker pid: ${JSON.stringify(out)}`);
  const gone = await exits(pid);
  if (!gone) process.kill(pid, 'SIGKILL');
  const logged = readFileSync(workerLog, 'utf8');
  assert.ok(gone, `the orphaned worker exited by itself: ${logged}`);
  assert.doesNotMatch(logged, /cannot start/, 'it stopped for its closed channel, not for a bad configuration');
});

test('the real viewer manager SIGKILLed right after it forks a worker: the worker exits', async () => {
  const runtime = useViewerRuntime();
  // Only reads the project: the run's shared fixture, current (a private copy is always built from scratch).
  const root = sharedExampleProject();
  const s = await useServer(root, { env: runtime.env });
  const log = viewerRuntimePaths(runtime.env).log;
  const pending = s.call('docforge_visualize', {}).catch(() => null);
  // The manager logs `worker forked` with its own pid (pino base) and the worker's (the line's last pid).
  let forked: { manager: number; worker: number } | null = null;
  const until = Date.now() + EXIT_BOUND_MS;
  while (forked === null && Date.now() < until) {
    const line = existsSync(log) ? readFileSync(log, 'utf8').split('\n').find((l) => l.includes('"worker forked"')) : undefined;
    if (line !== undefined) {
      const pids = [...line.matchAll(/"pid":(\d+)/g)].map((m) => Number(m[1]));
      forked = { manager: pids[0]!, worker: pids[pids.length - 1]! };
    } else {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  assert.ok(forked !== null && forked.manager !== forked.worker, `the manager logged the fork: ${existsSync(log) ? readFileSync(log, 'utf8') : '(no log)'}`);
  process.kill(forked.manager, 'SIGKILL');
  const gone = await exits(forked.worker);
  if (!gone) process.kill(forked.worker, 'SIGKILL');
  assert.ok(gone, 'the worker of the killed manager exited by itself');
  await pending;
  await s.close();
});
