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
'use strict';
const { existsSync } = require('node:fs');
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

/**
 * Runs the full CLI from the bundled dist/bundle/cli.cjs (built by apps/cli/scripts/build-full-bundle.mjs)
 * when DOCFORGE_ACCELERATE leaves cli-full-bundle on and it is fresh (bundleState): true once its
 * runMain returned the command's promise; false (nothing ran, the compiled cli.js runs) when the
 * bundle is off, stale or missing, does not load, exports no runMain, or runMain throws or returns
 * something else. Loading runs no command: cli.js only defines runMain.
 */
function runFullBundle() {
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

if (!answered) {
  // The compiled program's entry names the build (cli.js, which it runs, is compiled beside it).
  const entry = path.join(__dirname, '..', 'dist', 'src', 'main.js');
  if (!existsSync(entry)) {
    process.stderr.write(`docforge: the compiled program ${entry} is missing; run npm run build (from the repository root) first\n`);
    process.exit(1);
  }
  trace(prior === null ? 'full cli' : `full cli (prior: build ${prior.build})`);
  if (!runFullBundle()) {
    import(pathToFileURL(path.join(__dirname, '..', 'dist', 'src', 'cli.js')).href).then((cli) => cli.runMain(argv, prior)).catch((error) => {
      process.stderr.write(`docforge: fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    });
  }
}
