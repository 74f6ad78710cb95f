#!/usr/bin/env node
// Launcher of `docforge-mcp` (committed, so `npm ci` links the bin before dist/ is built; DESIGN.md section 8).
// Writes nothing to stdout: stdout carries MCP frames only.
// CommonJS (bin/package.json): while the `mcp-bundle` tactic is on (DOCFORGE_ACCELERATE, issue 29) and
// the bundled server dist/bundle/main.cjs (apps/mcp-server/scripts/build-bundle.mjs) is fresh by the
// CLI launcher's rule (libs/accelerate bundleState: it exists, was built in this folder, neither it nor
// any input listed in main.inputs.json changed in size, mtime, ctime or inode, none is missing), a
// start loads that one file and never starts Node's ESM loader; otherwise it imports the compiled
// start dist/src/run-main.js. Either way the launcher calls the module's runMain (loading starts
// nothing), and the server is started only when runMain returned its run's promise. A bundle that
// throws while loading, exports no runMain function, or whose runMain throws or returns anything
// else (an empty, truncated or foreign file: issue 29's break-it trial) is skipped and the compiled
// start runs. What the bundle's module bodies print while it loads goes to stderr (libs/accelerate
// loadBundle), never to stdout; runMain guards stdout (libs/stdio) before the server's graph loads.
// The bundle runs the same run-main.js, so answers are the same either way.
// DOCFORGE_MCP_TRACE=1 reports on stderr which path ran, and why a fresh bundle was skipped.
// Two processes when the project configures a project-owned adapter (break-it trial of stop 45; its docforge.toml names
// a `module`): started by the client, this launcher loads nothing but node:child_process and runs
// itself again as the server, a child with stdio [0, 2, 2, 1]: the client's stdin, the
// client's stderr on the child's fd 1 and 2, the client's stdout on the child's fd 3, where the child
// writes MCP frames only (runMain's framesFd). A direct write to fd 1 (fs.writeSync(1, ...), a process
// spawned with inherited stdio) by a project-owned adapter, in any thread or descendant, so lands on
// stderr, never between frames. The parent forwards SIGTERM, SIGINT and SIGHUP to the child and exits
// as the child did (its exit code, or the same signal); the child exits when stdin closes.
// DOCFORGE_MCP_FRAMES_FD (set by the parent for the child only, removed by the child at once) tells
// the two apart.
'use strict';
const framesFd = process.env.DOCFORGE_MCP_FRAMES_FD;
if (framesFd !== undefined) {
  // Descendants of the server (adapters' processes, a nested docforge-mcp) are not the launcher's child.
  delete process.env.DOCFORGE_MCP_FRAMES_FD;
  serveHere(Number(framesFd), false);
} else {
  const adapter = projectAdapter(process.argv.slice(2));
  if (adapter === 'named') superviseServer();
  else serveHere(undefined, adapter === 'none');
}

/**
 * Whether the project named by `--project-root` may configure a project-owned adapter: `named` when
 * its docforge.toml names a `module` (a plain text test, no TOML parser loaded; a comment that says
 * `module =` only costs the second process), `none` when it was read and names none, `unknown` when
 * no root is given or its docforge.toml cannot be read. Without `named`, no project code runs in the
 * server and one process serves (a second Node start costs about a third of the start's CPU:
 * docs/architecture.md); only with `none` may the server bundle compile from its code cache (a
 * function compiled from V8 cached data cannot run `import()` on Node 20, and the server imports a
 * project-owned module to find its canonical applier).
 */
function projectAdapter(args) {
  const { readFileSync } = require('node:fs');
  const path = require('node:path');
  let root = null;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--project-root') root = args[i + 1] ?? null;
    else if (args[i].startsWith('--project-root=')) root = args[i].slice('--project-root='.length);
  }
  if (root === null || root === '') return 'unknown';
  try {
    return /\bmodule\s*=/.test(readFileSync(path.join(root, 'docforge.toml'), 'utf8')) ? 'named' : 'none';
  } catch {
    return 'unknown';
  }
}

/**
 * The parent: runs this launcher again as the server, its fd 3 on our stdout, its fd 1 on our
 * stderr; forwards SIGTERM, SIGINT and SIGHUP; exits with the child's exit code, or kills itself
 * with the child's signal. A child that cannot start exits 1 with the reason on stderr.
 */
function superviseServer() {
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, [...process.execArgv, __filename, ...process.argv.slice(2)], {
    stdio: [0, 2, 2, 1],
    env: { ...process.env, DOCFORGE_MCP_FRAMES_FD: '3' },
  });
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  for (const signal of signals) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`docforge-mcp: cannot start the server process: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    for (const name of signals) process.removeAllListeners(name);
    process.kill(process.pid, signal);
  });
}

/**
 * The server: MCP frames on file descriptor `fd` (3, the launcher's child), or on stdout when `fd` is
 * undefined (one process). `cacheable`: the project's docforge.toml was read and names no project-owned
 * module, so the bundle may compile from its V8 code cache (the `bundle-cache` tactic).
 */
function serveHere(fd, cacheable) {
  const { existsSync } = require('node:fs');
  const path = require('node:path');
  const { pathToFileURL } = require('node:url');

  const argv = process.argv.slice(2);
  const trace = process.env.DOCFORGE_MCP_TRACE === '1' ? (line) => process.stderr.write(`docforge-mcp-trace: ${line}\n`) : () => {};
  const message = (error) => (error instanceof Error ? error.message : String(error));

  /**
   * @docforge/accelerate, or null when it cannot load (the compiled start then runs and reports
   * what is wrong with the installation).
   */
  function accelerate() {
    try {
      return require('@docforge/accelerate');
    } catch (error) {
      trace(`accelerate unloadable: ${message(error)}`);
      return null;
    }
  }

  /**
   * The bundle's state ('fresh', 'stale', 'missing'), or 'off' when DOCFORGE_ACCELERATE turns
   * mcp-bundle off (an invalid value too: the compiled start then refuses it) or @docforge/accelerate
   * cannot load. This launcher reads the variable itself, as the CLI's does (documented in
   * libs/core/src/config.ts).
   */
  function bundleUse(lib, bundle) {
    if (lib === null) return 'off';
    const text = process.env.DOCFORGE_ACCELERATE ?? '';
    try {
      if (text !== '' && !lib.Accelerators.from({ accelerateText: text }).on('mcp-bundle')) return 'off';
    } catch (error) {
      trace(`accelerate switch: ${message(error)}`);
      return 'off';
    }
    return lib.bundleState(bundle);
  }

  /**
   * The V8 code cache directory the bundle compiles through while the project is `cacheable` and
   * DOCFORGE_ACCELERATE leaves bundle-cache on (DOCFORGE_CODE_CACHE_DIR and XDG_CACHE_HOME as
   * libs/core config.ts reads them; this launcher reads them itself, as DOCFORGE_ACCELERATE), else
   * null: a plain require.
   */
  function bundleCacheDir(lib) {
    if (!cacheable) return null;
    const env = process.env;
    return lib.Accelerators.from({ accelerateText: env.DOCFORGE_ACCELERATE, codeCacheDirText: env.DOCFORGE_CODE_CACHE_DIR || null, xdgCacheHome: env.XDG_CACHE_HOME || null }).bundleCacheDir;
  }

  /**
   * Starts the server from the fresh bundle: true once its runMain returned the run's promise; false
   * (nothing started) when it does not load, exports no runMain, or runMain throws or returns
   * something else. Its loading's stdout goes to stderr.
   */
  function startBundle(lib, bundle) {
    const load = lib.loadBundle(bundle, 'runMain', (text) => {
      process.stderr.write(`docforge-mcp: kept off stdout (printed while the bundle loaded): ${text}${text.endsWith('\n') ? '' : '\n'}`);
    }, bundleCacheDir(lib));
    if (!load.ok) {
      trace(`bundle ${load.reason}`);
      return false;
    }
    let run;
    try {
      run = load.start(argv, fd === undefined ? {} : { framesFd: fd });
    } catch (error) {
      trace(`bundle runMain threw: ${message(error)}`);
      return false;
    }
    if (!lib.isThenable(run)) {
      trace('bundle runMain returned no promise');
      return false;
    }
    return true;
  }

  const bundle = path.join(__dirname, '..', 'dist', 'bundle', 'main.cjs');
  const lib = accelerate();
  const state = bundleUse(lib, bundle);
  const started = state === 'fresh' && startBundle(lib, bundle);
  trace(`bundle ${started ? 'used' : state === 'fresh' ? 'error' : state}`);

  if (!started) {
    // The compiled program's entry names the build (run-main.js, which it runs, is compiled beside it).
    const entry = path.join(__dirname, '..', 'dist', 'src', 'main.js');
    if (!existsSync(entry)) {
      process.stderr.write(`docforge-mcp: the compiled program ${entry} is missing; run npm run build (from the repository root) first\n`);
      process.exit(1);
    }
    import(pathToFileURL(path.join(__dirname, '..', 'dist', 'src', 'run-main.js')).href).then((start) => start.runMain(argv, fd === undefined ? {} : { framesFd: fd })).catch((error) => {
      process.stderr.write(`docforge-mcp: fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
  }
}
