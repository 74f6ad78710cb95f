#!/usr/bin/env node
/**
 * docforge: the process entry of the CLI (cli.ts does the work). The launcher bin/docforge.js
 * calls cli.ts directly, after trying the bundled no-change sync; this entry runs the full CLI
 * (with its own no-change check) for callers that start `dist/src/main.js` themselves.
 */
import { runMain } from './cli.js';

void runMain(process.argv.slice(2), null);
