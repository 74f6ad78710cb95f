/**
 * The serving half of `docforge-mcp` (main.ts parses and checks the command line first, then
 * imports this module, so that a usage error, `--help` or `--version` never loads the server's
 * module graph): binds the project root once (or starts the unbound server that reports why it
 * cannot), guards stdout for MCP frames only and connects the stdio transport.
 */
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Logger } from 'pino';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { QueuedStdioServerTransport } from './stdio-transport.js';
import { errors, toDocforgeError, type WireError } from '@docforge/core';
import { guardStdout } from '@docforge/stdio';
import type { ServeOptions } from './command-line.js';
import { createGenericServer } from './server.js';
import { openApplicationGate } from './application-gate.js';
import { createUnboundServer } from './unbound.js';

/**
 * A started server and its cleanup: bound (`bound` names the root and mode), or refusing every
 * tool call with the start error (`bound: null`, `refusal` is that error).
 */
interface Started {
  project: { server: Server; close(): Promise<void> };
  bound: { root: string; mode: string } | null;
  refusal: WireError | null;
}

/**
 * Serves `options` over stdio until the client goes away: sets the log level (also for worker
 * threads, through the environment they inherit), logs every exit with its cause, keeps stdout
 * for MCP frames only, starts the server and connects it; `frames` is the one writer of MCP frames
 * (the guarded stdout, or fd 3 under the launcher: run-main.ts). Exits the process with status 2 when
 * the options are refused by every project (see `start`).
 */
export async function runServer(options: ServeOptions, logger: Logger, frames: Writable): Promise<void> {
  if (options.logLevel !== null) {
    logger.level = options.logLevel;
    // Worker threads (index builds) read the level from the environment they inherit.
    process.env.DOCFORGE_LOG_LEVEL = options.logLevel;
  }
  // From here on every exit logs its cause (issue 30 item 18): the end of input no longer ends the server silently.
  const exits = logExits(logger);
  // From here on, only MCP frames reach stdout: console and process.stdout of anything loaded go to the log.
  guardStdout(logger);
  const started = await start(options, logger);
  await serve(started, frames, logger, exits);
}

/**
 * Binds the project root (after the application gate when `--canonical-applier` is given). A start
 * the project cannot honour does not stop the server (issue 30 item 4): the project root is invalid,
 * the project supplies no canonical applier, its adapter cannot be loaded (an interrupted
 * application that cannot be recovered yet is answered by every tool call instead: application-gate.ts). The server
 * starts, answers `initialize`, and answers every tool call with that structured error and its
 * remediation (unbound.ts), so MCP clients show the cause instead of "Connection closed". Only
 * options that are invalid whatever the project (command-line.ts) exit with status 2.
 */
async function start(options: ServeOptions, logger: Logger): Promise<Started> {
  const serverOptions = { capabilityMode: options.capabilityMode, proposalWriter: options.proposalWriter, canonicalApplier: options.canonicalApplier, noAst: options.noAst, logger };
  try {
    if (!path.isAbsolute(options.root)) throw errors.projectRootInvalid(options.root, 'is not an absolute path');
    // The second startup gate (issue 11): the project must supply an applier; an interrupted
    // application is recovered before the first tool call, never holding up initialize (application-gate.ts).
    const opened = options.canonicalApplier !== null ? await openApplicationGate(options.root, logger) : null;
    const generic = createGenericServer({ ...serverOptions, applier: opened?.applier ?? null, gate: opened?.gate ?? null, projectRoot: options.root, diagnostics: options.diagnostics });
    return { project: generic, bound: { root: generic.manager.root, mode: generic.policy.capability_mode }, refusal: null };
  } catch (error) {
    const wire = toDocforgeError(error).toWire();
    logger.error({ err: wire }, wire.code === 'project_root_invalid' ? 'cannot bind the project root' : 'cannot serve the project');
    process.stderr.write(`docforge-mcp: ${wire.message}\n`);
    try {
      return { project: createUnboundServer({ ...serverOptions, projectRoot: options.root, error: wire }), bound: null, refusal: wire };
    } catch (policyError) {
      // Options no project could honour: refused like a usage error.
      const message = toDocforgeError(policyError).message;
      logger.fatal({ err: toDocforgeError(policyError).toWire() }, 'cannot start');
      process.stderr.write(`docforge-mcp: ${message}\n`);
      process.exit(2);
    }
  }
}

/** The cause of the coming exit, logged by the `exit` hook of {@link logExits}. */
interface ExitCause {
  set(cause: string): void;
}

/**
 * Logs every exit of the serving process with its cause and status on stderr (pino, synchronous),
 * including uncaught exceptions and unhandled rejections, which exit with status 1.
 */
function logExits(logger: Logger): ExitCause {
  let cause = 'process.exit without a recorded cause';
  process.on('exit', (code) => {
    const line = { cause, exit_code: code };
    if (code === 0) logger.info(line, 'docforge-mcp exits');
    else logger.error(line, 'docforge-mcp exits');
  });
  const fatal = (kind: string) => (error: unknown): void => {
    cause = kind;
    logger.fatal({ err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) }, kind);
    process.exit(1);
  };
  process.on('uncaughtException', fatal('uncaught exception'));
  process.on('unhandledRejection', fatal('unhandled promise rejection'));
  return { set: (next) => void (cause = next) };
}

/** Connects the server to stdio and closes it once on end of input, a closed transport, SIGTERM or SIGINT. */
async function serve(started: Started, mcpStdout: Writable, logger: Logger, exits: ExitCause): Promise<void> {
  const transport = new QueuedStdioServerTransport(process.stdin, mcpStdout, { logger });
  let closing = false;
  const shutdown = (cause: string): void => {
    // server.close() closes the transport, whose onclose calls this again: close once.
    if (closing) return;
    closing = true;
    exits.set(cause);
    void started.project.close().finally(() => process.exit(0));
  };
  transport.onclose = () => shutdown('the MCP transport closed');
  process.stdin.on('end', () => shutdown('end of standard input (the MCP client closed it)'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await started.project.server.connect(transport);
  // The server's error hook: transport and protocol errors are logged, never dropped.
  started.project.server.onerror = (error) => logger.warn({ err: error.message }, 'MCP protocol error');
  logger.info({ limit_bytes: transport.limitBytes }, 'largest MCP message read');
  if (started.bound !== null) logger.info(started.bound, 'docforge-mcp ready');
  else logger.warn({ code: started.refusal?.code }, `docforge-mcp ready without its project: every tool call answers ${started.refusal?.code}`);
}
