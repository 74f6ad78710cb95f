// Where the test suite's CPU goes (issue 29 item 7). Preloaded into every Node process of a run:
//   mkdir /tmp/cpu && TEST_CPU_DIR=/tmp/cpu NODE_OPTIONS="--require $PWD/ops/test-cpu/hook.cjs" npm test
//   node ops/test-cpu/report.mjs /tmp/cpu
// At exit (or SIGTERM/SIGINT/SIGHUP) each process writes TEST_CPU_DIR/<pid>.json: its argv, parent
// pid (read at start), CPU (process.resourceUsage: user and system, every thread) and the CPU of its
// reaped descendants (/proc/self/stat cutime+cstime), plus the test file it runs under. A spawn with
// an explicit env that leaves NODE_OPTIONS out (the MCP SDK's StdioClientTransport passes only
// HOME, PATH and a few more) gets this hook's variables added, so docforge-mcp children are counted.
// A process killed by SIGKILL writes nothing; its CPU still shows in its parent's descendant CPU.
// Measurement only: nothing in the repository loads this file.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { isMainThread } = require('node:worker_threads');

const dir = process.env.TEST_CPU_DIR;
if (dir && isMainThread) {
  const started = Date.now();
  const ppid = process.ppid;
  const argv = process.argv.slice();
  // A test file's process (not the `node --test` runner) names itself for its descendants.
  const testFile = argv.find((a) => a.endsWith('.test.js'));
  // ops/test-files.mjs (the runner of ops/run-tests.mjs) names every file: it is a runner, not a test file.
  const runner = process.execArgv.includes('--test') || argv.some((a) => a.endsWith('test-files.mjs'));
  if (!runner && testFile) process.env.TEST_CPU_FILE = testFile;
  const hookEnv = Object.fromEntries(['TEST_CPU_DIR', 'TEST_CPU_FILE', 'NODE_OPTIONS'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  const childProcess = require('node:child_process');
  const spawn = childProcess.spawn;
  childProcess.spawn = function spawnCounted(...args) {
    const options = args.slice(1).find((a) => a !== null && typeof a === 'object' && !Array.isArray(a));
    if (options?.env && options.env.TEST_CPU_DIR === undefined) options.env = { ...options.env, ...hookEnv };
    return spawn.apply(this, args);
  };
  require('node:module').syncBuiltinESMExports();
  let written = false;
  const write = (how) => {
    if (written) return;
    written = true;
    try {
      const usage = process.resourceUsage();
      let descendants = 0;
      try {
        const stat = fs.readFileSync('/proc/self/stat', 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        descendants = (Number(fields[13]) + Number(fields[14])) / 100;
      } catch {
        // Not Linux: descendants stay 0.
      }
      fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify({
        pid: process.pid, ppid, argv, execArgv: process.execArgv, testfile: process.env.TEST_CPU_FILE ?? null,
        user: usage.userCPUTime, sys: usage.systemCPUTime, descendants, maxrss: usage.maxRSS, wall: Date.now() - started, how,
      }));
    } catch {
      // A measurement must never change how the process ends.
    }
  };
  process.on('exit', () => write('exit'));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    const onSignal = () => {
      write(signal);
      // Alone, this listener would stop the default exit: re-raise the signal as Node would act on it.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}
