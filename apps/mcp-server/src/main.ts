#!/usr/bin/env node
/**
 * docforge-mcp: the MCP stdio server composition root. Parses the command line
 * (command-line.ts), builds the pino logger (stderr only: stdout carries MCP frames), binds the
 * project root once (or starts the unbound server that reports why it cannot) and starts the
 * transport.
 */
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { QueuedStdioServerTransport } from './stdio-transport.js';
import { errors, isLogLevel, LOG_LEVELS, readDocforgeConfig, toDocforgeError } from '@docforge/core';
import { AccelerateError, parseAccelerate } from '@docforge/accelerate';
import { guardStdout } from '@docforge/stdio';
import { parseCommandLine, USAGE, type ServeOptions } from './command-line.js';
import { createGenericServer, prepareCanonicalApplier, SERVER_VERSION } from './server.js';
import { createUnboundServer } from './unbound.js';

/** A started server and its cleanup, bound (`bound` names the root and mode) or not (`bound: null`). */
interface Started {
  project: { server: Server; close(): Promise<void> };
  bound: { root: string; mode: string } | null;
}

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
  const options = command.options;
  if (options.logLevel !== null) {
    logger.level = options.logLevel;
    // Worker threads (index builds) read the level from the environment they inherit.
    process.env.DOCFORGE_LOG_LEVEL = options.logLevel;
  }
  // From here on, only MCP frames reach stdout: console and process.stdout of anything loaded go to the log.
  const mcpStdout = guardStdout(logger);
  const started = await start(options, logger);
  await serve(started, mcpStdout, logger, options.root);
}

/**
 * Binds the project root (after the application gate when `--canonical-applier` is given). An
 * invalid root does not stop the server: the unbound server answers every tool call with
 * `project_root_invalid`. Any other start failure exits with status 2.
 */
async function start(options: ServeOptions, logger: Logger): Promise<Started> {
  const serverOptions = { capabilityMode: options.capabilityMode, proposalWriter: options.proposalWriter, canonicalApplier: options.canonicalApplier, noAst: options.noAst, logger };
  try {
    if (!path.isAbsolute(options.root)) throw errors.projectRootInvalid(options.root, 'is not an absolute path');
    // The second startup gate (issue 11): the project must supply an applier; an interrupted application is recovered first.
    let applier = null;
    if (options.canonicalApplier !== null) {
      const prepared = await prepareCanonicalApplier(options.root);
      applier = prepared.applier;
      if (prepared.recovered !== null) logger.warn(prepared.recovered, 'recovered an interrupted canonical application');
    }
    const generic = createGenericServer({ ...serverOptions, applier, projectRoot: options.root, diagnostics: options.diagnostics });
    return { project: generic, bound: { root: generic.manager.root, mode: generic.policy.capability_mode } };
  } catch (error) {
    const wire = toDocforgeError(error).toWire();
    // An invalid project root does not stop the server (below): logged as an error, not as fatal.
    if (wire.code === 'project_root_invalid') logger.error({ err: wire }, 'cannot bind the project root');
    else logger.fatal({ err: wire }, 'cannot start');
    process.stderr.write(`docforge-mcp: ${wire.message}\n`);
    if (wire.code !== 'project_root_invalid') process.exit(2);
    // Start anyway, so MCP clients can show why every tool call fails (not just "Connection closed").
    try {
      return { project: createUnboundServer({ ...serverOptions, projectRoot: options.root, error: wire }), bound: null };
    } catch (policyError) {
      process.stderr.write(`docforge-mcp: ${toDocforgeError(policyError).message}\n`);
      process.exit(2);
    }
  }
}

/** Connects the server to stdio and closes it once on end of input, SIGTERM or SIGINT. */
async function serve(started: Started, mcpStdout: Writable, logger: Logger, root: string): Promise<void> {
  const transport = new QueuedStdioServerTransport(process.stdin, mcpStdout);
  let closing = false;
  const shutdown = (): void => {
    // server.close() closes the transport, whose onclose calls this again: close once.
    if (closing) return;
    closing = true;
    void started.project.close().finally(() => process.exit(0));
  };
  transport.onclose = shutdown;
  process.stdin.on('end', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  await started.project.server.connect(transport);
  if (started.bound !== null) logger.info(started.bound, 'docforge-mcp ready');
  else logger.warn({ root }, 'docforge-mcp ready without a project root: every tool call answers project_root_invalid');
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
