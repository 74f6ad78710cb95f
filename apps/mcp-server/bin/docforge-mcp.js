#!/usr/bin/env node
// Launcher of `docforge-mcp` (committed, so `npm ci` links the bin before dist/ is built; DESIGN.md section 8).
// Writes nothing to stdout: stdout carries MCP frames only.
// CommonJS (bin/package.json): while the `mcp-bundle` tactic is on (DOCFORGE_ACCELERATE, issue 29) and
// the bundled server dist/bundle/main.cjs (apps/mcp-server/scripts/build-bundle.mjs) is fresh by the
// CLI launcher's rule (libs/accelerate bundleState: it exists, was built in this folder, no input
// listed in main.inputs.json is newer or missing), a start loads that one file and never starts
// Node's ESM loader; otherwise it imports the compiled entry dist/src/main.js as before. A stale,
// missing or unloadable bundle is skipped silently. The bundle runs the same main.js, so answers are
// the same either way. DOCFORGE_MCP_TRACE=1 reports on stderr which path ran.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const trace = process.env.DOCFORGE_MCP_TRACE === '1' ? (line) => process.stderr.write(`docforge-mcp-trace: ${line}\n`) : () => {};

/**
 * The bundle's state ('fresh', 'stale', 'missing'), or 'off' when DOCFORGE_ACCELERATE turns
 * mcp-bundle off (an invalid value too: the compiled entry then refuses it) or @docforge/accelerate
 * cannot load. This launcher reads the variable itself, as the CLI's does (documented in
 * libs/core/src/config.ts).
 */
function bundleUse(bundle) {
  let accelerate;
  try {
    accelerate = require('@docforge/accelerate');
  } catch (error) {
    trace(`accelerate unloadable: ${error instanceof Error ? error.message : String(error)}`);
    return 'off';
  }
  const text = process.env.DOCFORGE_ACCELERATE ?? '';
  if (text !== '' && !accelerate.Accelerators.from({ accelerateText: text }).on('mcp-bundle')) return 'off';
  return accelerate.bundleState(bundle);
}

const bundle = path.join(__dirname, '..', 'dist', 'bundle', 'main.cjs');
const state = bundleUse(bundle);
let loaded = false;
if (state === 'fresh') {
  try {
    // Running it starts the server: main.js's module body, bundled. A throw here comes from loading
    // (a damaged file, a module's initialisation), before main() runs, so the compiled entry may still start.
    require(bundle);
    loaded = true;
  } catch (error) {
    trace(`bundle unloadable: ${error instanceof Error ? error.message : String(error)}`);
  }
}
trace(`bundle ${loaded ? 'used' : state === 'fresh' ? 'error' : state}`);

if (!loaded) {
  const entry = path.join(__dirname, '..', 'dist', 'src', 'main.js');
  if (!existsSync(entry)) {
    process.stderr.write(`docforge-mcp: the compiled program ${entry} is missing; run npm run build (from the repository root) first\n`);
    process.exit(1);
  }
  import(pathToFileURL(entry).href).catch((error) => {
    process.stderr.write(`docforge-mcp: fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
