#!/usr/bin/env node
// Launcher of `docforge-mcp` (committed, so `npm ci` links the bin before dist/ is built; DESIGN.md section 8).
// Writes nothing to stdout: stdout carries MCP frames only.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(`docforge-mcp: the compiled program ${fileURLToPath(entry)} is missing; run npm run build (from the repository root) first\n`);
  process.exit(1);
}
await import(entry.href);
