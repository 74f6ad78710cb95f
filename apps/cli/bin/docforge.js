#!/usr/bin/env node
// Launcher of `docforge` (committed, so `npm ci` links the bin before dist/ is built; DESIGN.md section 8).
// CommonJS (bin/package.json), so a no-change sync never starts Node's ESM loader (issue 14).
// A `sync` first tries the bundled no-change fast path (dist/bundle/fast-sync.cjs, built by
// apps/cli/scripts/build-bundle.mjs), but only while that bundle is fresh (libs/accelerate bundleState):
// it exists, was built in this folder, and neither it nor any input listed in its manifest
// (fast-sync.inputs.json) changed in size, mtime, ctime or inode or is missing. A stale, missing or
// unloadable bundle is skipped silently and the full CLI (dist/src/cli.js) runs, which then makes the
// no-change check itself; so is the bundle when DOCFORGE_ACCELERATE turns cli-bundle or
// no-change-check off. The full CLI runs from the bundled dist/bundle/cli.cjs (the cli-full-bundle tactic,
// issue 29; apps/cli/scripts/build-full-bundle.mjs) under the same freshness rule and switch, else from
// the compiled dist/src/cli.js. Loading either bundle runs nothing: the launcher calls its export
// (runFastSync, runMain), and a bundle that throws while loading, exports no such function, or whose
// runMain throws or returns no promise (an empty, truncated or foreign file: issue 29's break-it trial)
// is skipped for the compiled cli.js. What a bundle's module bodies print while it loads goes to
// stderr (libs/accelerate loadBundle). DOCFORGE_CLI_TRACE=1 reports on stderr which path ran (=2: also
// which full CLI).
// Two processes when the project configures a project-owned adapter (its docforge.toml, at -C /
// --project-root or the nearest folder at or above the current one, names a `module`; the technique of docforge-mcp's launcher,
// break-it trial of stop 45): this launcher loads no DocForge code (node:child_process besides the
// core modules it reads docforge.toml with) and runs itself again as a child with stdio [0, 2, 2, 1]. The child's fd 1 is our stderr and its fd 3 our stdout;
// the CLI writes its own output (results, --json documents, --version, usage, the no-change path)
// to fd 3 only and takes its color decision from fd 3 (apps/cli/src/terminal.ts cliOutput), so an
// adapter's direct write to fd 1 (fs.writeSync(1, ...), a process spawned with inherited stdio), in
// any thread or descendant, lands on stderr. The parent forwards SIGTERM, SIGINT and SIGHUP and exits
// as the child did. DOCFORGE_CLI_OUTPUT_FD (set by the parent for the child only, removed by the
// child at once) tells the two apart. Without a `module` one process runs, at the cost of one file read.
'use strict';
const { existsSync, lstatSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const argv = process.argv.slice(2);
const traceLevel = process.env.DOCFORGE_CLI_TRACE;
const trace = traceLevel === '1' || traceLevel === '2' ? (line) => process.stderr.write(`docforge-trace: ${line}\n`) : () => {};
// Level 2 also reports which full CLI ran (bundled or compiled); level 1's lines stay as they were.
const traceFull = traceLevel === '2' ? trace : () => {};

/**
 * 'fresh', 'stale' or 'missing' for the bundle at `file` and its manifest: libs/accelerate's
 * bundleState, the rule docforge-mcp's launcher applies too. An unloadable @docforge/accelerate
 * counts as 'missing' (the full CLI then runs).
 */
function bundleState(file) {
  try {
    return require('@docforge/accelerate').bundleState(file);
  } catch (error) {
    trace(`accelerate unloadable: ${error instanceof Error ? error.message : String(error)}`);
    return 'missing';
  }
}

/**
 * Whether DOCFORGE_ACCELERATE leaves the bundled check on: unset or empty, every tactic is; else
 * @docforge/accelerate (CommonJS) says (unloadable or invalid: off, and the full CLI reports an
 * invalid value). This launcher runs before any ES module can load libs/core's
 * config module, so it reads the variable itself (documented in libs/core/src/config.ts).
 */
function bundleAccelerated() {
  if ((process.env.DOCFORGE_ACCELERATE ?? '') === '') return true;
  try {
    const { Accelerators } = require('@docforge/accelerate');
    const accelerators = Accelerators.from({ accelerateText: process.env.DOCFORGE_ACCELERATE });
    return accelerators.on('cli-bundle') && accelerators.on('no-change-check');
  } catch (error) {
    trace(`accelerate switch unloadable: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

/** Writes what a bundle printed on stdout while it loaded to stderr instead (libs/accelerate loadBundle). */
const divert = (text) => process.stderr.write(`docforge: kept off stdout (printed while a bundle loaded): ${text}${text.endsWith('\n') ? '' : '\n'}`);

/**
 * The bundled no-change path of a `sync` (dist/bundle/fast-sync.cjs) while it is fresh and on:
 * answered (the exit code is set) or not, and what its check learnt for the full CLI (`prior`).
 */
function fastSync() {
  let prior = null;
  let answered = false;
  if (argv.includes('sync') && bundleAccelerated()) {
    const bundle = path.join(__dirname, '..', 'dist', 'bundle', 'fast-sync.cjs');
    const state = bundleState(bundle);
    let runFastSync = null;
    if (state === 'fresh') {
      // bundleState loaded @docforge/accelerate already.
      const load = require('@docforge/accelerate').loadBundle(bundle, 'runFastSync', divert);
      if (load.ok) runFastSync = load.start;
      else trace(`bundle ${load.reason}`);
    }
    trace(`bundle ${runFastSync === null ? (state === 'fresh' ? 'error' : state) : 'used'}`);
    if (runFastSync !== null) {
      // A bundle that throws or answers in another shape (damaged, foreign) is skipped like an unloadable one.
      let outcome = null;
      try {
        outcome = runFastSync(argv);
      } catch (error) {
        trace(`bundle failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (outcome !== null && typeof outcome === 'object' && outcome.handled === true && Number.isInteger(outcome.code)) {
        answered = true;
        process.exitCode = outcome.code;
      } else if (outcome !== null && typeof outcome === 'object' && outcome.handled === false && (outcome.prior === null || typeof outcome.prior?.build === 'boolean')) {
        prior = outcome.prior;
      }
    }
  }
  return { answered, prior };
}

/**
 * Runs the full CLI from the bundled dist/bundle/cli.cjs (built by apps/cli/scripts/build-full-bundle.mjs)
 * when DOCFORGE_ACCELERATE leaves cli-full-bundle on and it is fresh (bundleState): true once its
 * runMain returned the command's promise; false (nothing ran, the compiled cli.js runs) when the
 * bundle is off, stale or missing, does not load, exports no runMain, or runMain throws or returns
 * something else. Loading runs no command: cli.js only defines runMain.
 */
function runFullBundle(prior) {
  const bundle = path.join(__dirname, '..', 'dist', 'bundle', 'cli.cjs');
  const text = process.env.DOCFORGE_ACCELERATE ?? '';
  let accelerate;
  let state;
  try {
    accelerate = require('@docforge/accelerate');
    state = text === '' || accelerate.Accelerators.from({ accelerateText: text }).on('cli-full-bundle') ? accelerate.bundleState(bundle) : 'off';
  } catch (error) {
    traceFull(`full bundle: accelerate unloadable: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
  let ran = false;
  if (state === 'fresh') {
    const load = accelerate.loadBundle(bundle, 'runMain', divert);
    if (!load.ok) traceFull(`full bundle ${load.reason}`);
    else {
      try {
        ran = accelerate.isThenable(load.start(argv, prior));
        if (!ran) traceFull('full bundle runMain returned no promise');
      } catch (error) {
        traceFull(`full bundle runMain threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  traceFull(`full bundle ${ran ? 'used' : state === 'fresh' ? 'error' : state}`);
  return ran;
}

/** The full CLI: bundled while fresh and on (runFullBundle), else the compiled dist/src/cli.js; `prior` is the no-change check's finding. */
function runFullCli(prior) {
  // The compiled program's entry names the build (cli.js, which it runs, is compiled beside it).
  const entry = path.join(__dirname, '..', 'dist', 'src', 'main.js');
  if (!existsSync(entry)) {
    process.stderr.write(`docforge: the compiled program ${entry} is missing; run npm run build (from the repository root) first\n`);
    process.exit(1);
  }
  trace(prior === null ? 'full cli' : `full cli (prior: build ${prior.build})`);
  if (!runFullBundle(prior)) {
    import(pathToFileURL(path.join(__dirname, '..', 'dist', 'src', 'cli.js')).href).then((cli) => cli.runMain(argv, prior)).catch((error) => {
      process.stderr.write(`docforge: fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    });
  }
}

/** The CLI in this process: the bundled no-change path for `sync`, then the full CLI. */
function runHere() {
  const { answered, prior } = fastSync();
  if (!answered) runFullCli(prior);
}

/**
 * The project root a command line names: the last -C / --project-root value (-C DIR, -CDIR,
 * --project-root DIR, --project-root=DIR; the CLI refuses a repeat anyway), else the nearest folder
 * at or above the current one that holds a docforge.toml, else the current folder.
 */
function projectRootOf(args) {
  let root = null;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--') break;
    if (arg === '-C' || arg === '--project-root') root = args[i + 1] ?? null;
    else if (arg.startsWith('--project-root=')) root = arg.slice('--project-root='.length);
    else if (arg.startsWith('-C')) root = arg.slice(2);
  }
  return root === null || root === '' ? nearestDescriptorFolder(process.cwd()) : root;
}

/**
 * The nearest folder at or above `dir` holding a docforge.toml, else `dir`: the CLI's project
 * discovery without -C (libs/core nearestProjectRoot, restated here since this launcher loads no
 * DocForge code before it knows whether the project has an adapter module).
 */
function nearestDescriptorFolder(dir) {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    try {
      lstatSync(path.join(current, 'docforge.toml'));
      return current;
    } catch {
      if (path.dirname(current) === current) return dir;
    }
  }
}

/**
 * Whether the project of this command line may configure a project-owned adapter: its docforge.toml
 * names a `module` (a plain text test, no TOML parser loaded; a comment that says `module =` only
 * costs the second process). Without one, no project code runs in the CLI and one process serves.
 */
function mayHaveProjectAdapter(args) {
  try {
    return /\bmodule\s*=/.test(readFileSync(path.join(projectRootOf(args), 'docforge.toml'), 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The parent: runs this launcher again as the CLI, its fd 3 on our stdout, its fd 1 on our stderr,
 * its stdin ours; forwards SIGTERM, SIGINT and SIGHUP; exits with the child's exit code, or kills
 * itself with the child's signal. A child that cannot start exits 1 with the reason on stderr.
 */
function superviseCli() {
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, [...process.execArgv, __filename, ...process.argv.slice(2)], {
    stdio: [0, 2, 2, 1],
    env: { ...process.env, DOCFORGE_CLI_OUTPUT_FD: '3' },
  });
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  for (const signal of signals) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`docforge: cannot start the CLI process: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    for (const name of signals) process.removeAllListeners(name);
    process.kill(process.pid, signal);
  });
}

const outputFd = process.env.DOCFORGE_CLI_OUTPUT_FD;
if (outputFd !== undefined) {
  // Descendants of the CLI (adapters' processes, a docforge-mcp it starts) are not the launcher's child.
  delete process.env.DOCFORGE_CLI_OUTPUT_FD;
  // Read by cliOutput (apps/cli/src/terminal.ts) in whichever copy of the CLI runs: a process slot, as the bundles and the compiled CLI are separate modules.
  process[Symbol.for('docforge.cli.outputFd')] = Number(outputFd);
  runHere();
} else if (mayHaveProjectAdapter(argv)) {
  superviseCli();
} else {
  runHere();
}
