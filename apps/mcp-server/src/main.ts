#!/usr/bin/env node
/**
 * docforge-mcp: the MCP stdio server composition root. Checks `DOCFORGE_ACCELERATE`, parses the
 * command line (command-line.ts) and builds the pino logger (stderr only: stdout carries MCP
 * frames); a usage error, `--help` and `--version` are answered here, before the server's module
 * graph (serve.ts and everything it imports) is loaded, so they cost a bare Node start.
 */
import { pino } from 'pino';
import { isLogLevel, LOG_LEVELS, readDocforgeConfig } from '@docforge/core';
import { AccelerateError, parseAccelerate } from '@docforge/accelerate';
import { parseCommandLine, USAGE } from './command-line.js';
import { SERVER_VERSION } from './version.js';

async function main(): Promise<void> {
  const config = readDocforgeConfig();
  const envLevel = config.logLevelText;
  if (envLevel !== undefined && envLevel !== '' && !isLogLevel(envLevel)) {
    process.stderr.write(`docforge-mcp: DOCFORGE_LOG_LEVEL ${JSON.stringify(envLevel)} is not one of ${LOG_LEVELS.join(', ')}; logging at info\n`);
  }
  const logger = pino({ name: 'docforge-mcp', level: config.logLevel ?? 'info' }, pino.destination({ fd: 2, sync: true }));
  const command = parseCommandLine(process.argv.slice(2));
  if (command.kind === 'usage_error') {
    process.stderr.write(command.message);
    process.exit(2);
  }
  if (command.kind === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  if (command.kind === 'version') {
    // Before any MCP traffic: the one thing this program prints on stdout outside MCP frames.
    process.stdout.write(`docforge-mcp ${SERVER_VERSION}\n`);
    return;
  }
  // Only a command line that starts a server loads the server's module graph.
  const { runServer } = await import('./serve.js');
  await runServer(command.options, logger);
}

/**
 * Exits with status 2 and the reason when `DOCFORGE_ACCELERATE` names an unknown tactic
 * (libs/accelerate `parseAccelerate`): a usage error of the environment, refused before the server starts.
 */
function refuseInvalidAccelerate(): void {
  try {
    parseAccelerate(readDocforgeConfig().accelerateText);
  } catch (error) {
    if (!(error instanceof AccelerateError)) throw error;
    process.stderr.write(`docforge-mcp: ${error.message}\n`);
    process.exit(2);
  }
}

refuseInvalidAccelerate();

main().catch((error: unknown) => {
  process.stderr.write(`docforge-mcp: fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
