/**
 * The start of `docforge-mcp`, defined and not run: main.ts (the compiled entry) calls
 * {@link runMain}, and so does the launcher bin/docforge-mcp.js on the bundled server
 * dist/bundle/main.cjs, built from this module (apps/mcp-server/scripts/build-bundle.mjs). Loading
 * this module starts nothing, so a bundle that loads but lacks a working `runMain` (an empty or
 * foreign file) is told apart from one that started the server (issue 29 break-it trial). Checks
 * `DOCFORGE_ACCELERATE`, parses the command line (command-line.ts), builds the pino logger (stderr
 * only) and guards stdout (libs/stdio) before anything else loads, so only MCP frames reach it; a
 * usage error, `--help` and `--version` are answered here, before the server's module graph
 * (serve.ts and everything it imports) is loaded, so they cost a bare Node start.
 */
import { pino } from 'pino';
import { isLogLevel, LOG_LEVELS, readDocforgeConfig } from '@docforge/core';
import { AccelerateError, parseAccelerate } from '@docforge/accelerate';
import type { Writable } from 'node:stream';
import { framesStream, guardStdout } from '@docforge/stdio';
import { parseCommandLine, USAGE } from './command-line.js';
import { SERVER_VERSION } from './version.js';

/** How the launcher runs the server (bin/docforge-mcp.js). */
export interface RunMainOptions {
  /**
   * The file descriptor MCP frames (and `--version`) are written to: 3 when the launcher started
   * this process as its child with the client's stdout on fd 3 and the client's stderr on fd 1;
   * absent: the process's own stdout (guarded).
   */
  framesFd?: number;
}

async function main(argv: readonly string[], options: RunMainOptions): Promise<void> {
  const config = readDocforgeConfig();
  const envLevel = config.logLevelText;
  if (envLevel !== undefined && envLevel !== '' && !isLogLevel(envLevel)) {
    process.stderr.write(`docforge-mcp: DOCFORGE_LOG_LEVEL ${JSON.stringify(envLevel)} is not one of ${LOG_LEVELS.join(', ')}; logging at info\n`);
  }
  const logger = pino({ name: 'docforge-mcp', level: config.logLevel ?? 'info' }, pino.destination({ fd: 2, sync: true }));
  // Before the server's module graph loads (its module bodies run on import): from here on console
  // and process.stdout go to the log, and only this stream (then the MCP transport) writes stdout.
  const guarded = guardStdout(logger);
  const stdout: Writable = options.framesFd === undefined ? guarded : framesStream(options.framesFd);
  const command = parseCommandLine([...argv]);
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
    stdout.write(`docforge-mcp ${SERVER_VERSION}\n`);
    return;
  }
  // Only a command line that starts a server loads the server's module graph.
  const { runServer } = await import('./serve.js');
  await runServer(command.options, logger, stdout);
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

/**
 * Runs `docforge-mcp` with the command-line arguments `argv` (without node and the script): refuses
 * an invalid `DOCFORGE_ACCELERATE` (exit 2), then answers the command line or serves until the
 * client goes away. A fatal error prints `docforge-mcp: fatal:` and its stack and exits with status 1.
 * `options.framesFd` names the descriptor of MCP frames (see {@link RunMainOptions}).
 * @returns a promise settled when the run ends (never rejected); the launcher takes a returned
 *   promise as the sign that the server started
 */
export function runMain(argv: readonly string[], options: RunMainOptions = {}): Promise<void> {
  refuseInvalidAccelerate();
  return main(argv, options).catch((error: unknown) => {
    process.stderr.write(`docforge-mcp: fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
