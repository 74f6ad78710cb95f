#!/usr/bin/env node
// Launcher of the graph-browser worker `docforge-graph-browser` (committed, so `npm ci` links the bin before dist/ is built; DESIGN.md section 8).
// The viewer manager forks this file with DOCFORGE_WORKER_CONFIG and an IPC channel.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(`docforge-graph-browser: the compiled program ${fileURLToPath(entry)} is missing; run npm run build (from the repository root) first\n`);
  process.exit(1);
}
await import(entry.href);
