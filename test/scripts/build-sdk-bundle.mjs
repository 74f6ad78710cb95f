#!/usr/bin/env node
// Bundles the MCP SDK values the end-to-end harness uses (test/helpers/mcp-sdk.ts, compiled to
// test/dist/helpers/mcp-sdk.js) and everything they import into one ES module,
// test/dist/helpers/mcp-sdk.bundle.mjs (issue 29 item 7): a test-file process that imports
// test/helpers/server.js then compiles one file instead of the SDK's, zod's and ajv's modules through
// the ESM loader (0.8 -> 0.37 s of CPU per process). Their CommonJS parts (ajv, cross-spawn) call
// require, which an ES module lacks: the banner defines it. Nothing is external but Node's built-ins.
// server.ts loads the bundle when it exists, else the compiled mcp-sdk.js. Run after `tsc -b`; does
// nothing while mcp-sdk.stamp.json says the bundle is current (ops/build-stamp.mjs); --force rebuilds.
import { existsSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropStamp, esbuildVersion, fileHash, forced, stampIsCurrent, writeStamp } from '../../ops/build-stamp.mjs';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'helpers');
const entry = path.join(out, 'mcp-sdk.js');
const bundle = path.join(out, 'mcp-sdk.bundle.mjs');
if (!existsSync(entry)) {
  console.error(`build-sdk-bundle: ${entry} is missing; run tsc -b first`);
  process.exit(1);
}
const stamp = path.join(out, 'mcp-sdk.stamp.json');
const key = { esbuild: esbuildVersion(), built_in: realpathSync(out), scripts: [fileHash(fileURLToPath(import.meta.url))] };
if (!forced() && stampIsCurrent(stamp, key)) process.exit(0);
dropStamp(stamp);
const { build } = await import('esbuild');
const result = await build({
  entryPoints: [entry],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: "import { createRequire as __sdkCreateRequire } from 'node:module'; const require = __sdkCreateRequire(import.meta.url);" },
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  write: false,
  logLevel: 'warning',
});
if (result.outputFiles.length !== 1) throw new Error(`build-sdk-bundle: expected one output file, got ${result.outputFiles.length}`);
writeFileSync(`${bundle}.tmp`, result.outputFiles[0].contents);
renameSync(`${bundle}.tmp`, bundle);
writeStamp(stamp, key, Object.keys(result.metafile.inputs).map((input) => path.resolve(input)), [bundle]);
