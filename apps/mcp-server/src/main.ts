#!/usr/bin/env node
/**
 * docforge-mcp: the process entry of the MCP stdio server (run-main.ts does the work). The launcher
 * bin/docforge-mcp.js calls run-main.ts's runMain itself, from the bundled server when it is fresh
 * and else from this entry's folder; this entry serves callers that start `dist/src/main.js` themselves.
 */
import { runMain } from './run-main.js';

void runMain(process.argv.slice(2));
