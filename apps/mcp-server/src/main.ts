#!/usr/bin/env node
/**
 * docforge-mcp: the MCP stdio server composition root. Parses options, builds the pino logger
 * (stderr only: stdout carries MCP frames), binds the project root once and starts the transport.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { QueuedStdioServerTransport } from './stdio-transport.js';
import { ACCELERATE_ENV, AccelerateError, errors, isLogLevel, LOG_LEVELS, parseAccelerate, readDocforgeConfig, repeatedOption, toDocforgeError } from '@docforge/core';
import { guardStdout } from '@docforge/stdio';
import { CAPABILITY_MODES, type CapabilityMode } from '@docforge/policy';
import { createGenericServer, prepareCanonicalApplier, SERVER_VERSION } from './server.js';
import { createUnboundServer } from './unbound.js';

const USAGE = `Usage: docforge-mcp --project-root ABSOLUTE_DIR [--capability-mode read|proposal|application|operator]
       [--proposal-writer ID] [--canonical-applier ID] [--no-ast] [--diagnostics] [--log-level LEVEL]
       docforge-mcp --version | --help

A --project-root that does not exist, is not a directory or is relative does not stop the server:
it starts, answers initialize, and answers every tool call with project_root_invalid.
Without --project-root it prints this usage and exits with status 2.`;

async function main(): Promise<void> {
  const config = readDocforgeConfig();
  const envLevel = config.logLevelText;
  if (envLevel !== undefined && envLevel !== '' && !isLogLevel(envLevel)) {
    process.stderr.write(`docforge-mcp: DOCFORGE_LOG_LEVEL ${JSON.stringify(envLevel)} is not one of ${LOG_LEVELS.join(', ')}; logging at info\n`);
  }
  const logger = pino({ name: 'docforge-mcp', level: config.logLevel ?? 'info' }, pino.destination({ fd: 2, sync: true }));
  let values;
  let tokens;
  try {
    ({ values, tokens } = parseArgs({
      options: {
        'project-root': { type: 'string' },
        'capability-mode': { type: 'string' },
        'proposal-writer': { type: 'string' },
        'canonical-applier': { type: 'string' },
        'no-ast': { type: 'boolean', default: false },
        diagnostics: { type: 'boolean', default: false },
        'log-level': { type: 'string' },
        help: { type: 'boolean', default: false },
        version: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
      tokens: true,
    }));
  } catch (error) {
    process.stderr.write(`docforge-mcp: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  // The project root binds once (contract): a repeated option is ambiguous, never "the last one wins".
  const repeated = repeatedOption(tokens);
  if (repeated !== null) {
    process.stderr.write(`docforge-mcp: ${repeated} is given more than once; give it once\n${USAGE}\n`);
    process.exit(2);
  }
  const level = values['log-level'];
  if (level !== undefined && !isLogLevel(level)) {
    process.stderr.write(`docforge-mcp: --log-level must be one of ${LOG_LEVELS.join(', ')}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  if (values.version) {
    // Before any MCP traffic: the one thing this program prints on stdout outside MCP frames.
    process.stdout.write(`docforge-mcp ${SERVER_VERSION}\n`);
    return;
  }
  if (level !== undefined) {
    logger.level = level;
    // Worker threads (index builds) read the level from the environment they inherit.
    process.env.DOCFORGE_LOG_LEVEL = level;
  }
  // From here on, only MCP frames reach stdout: console and process.stdout of anything loaded go to the log.
  const mcpStdout = guardStdout(logger);
  const root = values['project-root'];
  if (!root) {
    process.stderr.write(`docforge-mcp: --project-root ABSOLUTE_DIR is required\n${USAGE}\n`);
    process.exit(2);
  }
  const mode = values['capability-mode'];
  if (mode !== undefined && !(CAPABILITY_MODES as readonly string[]).includes(mode)) {
    process.stderr.write(`docforge-mcp: --capability-mode must be one of ${CAPABILITY_MODES.join(', ')}\n`);
    process.exit(2);
  }
  const options = {
    capabilityMode: (mode as CapabilityMode | undefined) ?? null,
    proposalWriter: values['proposal-writer'] ?? null,
    canonicalApplier: values['canonical-applier'] ?? null,
    noAst: values['no-ast'] === true,
    logger,
  };
  let project: { server: Server; close(): Promise<void> };
  let bound: { root: string; mode: string } | null = null;
  try {
    if (!path.isAbsolute(root)) throw errors.projectRootInvalid(root, 'is not an absolute path');
    // The second startup gate (issue 11): the project must supply an applier; an interrupted application is recovered first.
    let applier = null;
    if (options.canonicalApplier !== null) {
      const prepared = await prepareCanonicalApplier(root);
      applier = prepared.applier;
      if (prepared.recovered !== null) logger.warn(prepared.recovered, 'recovered an interrupted canonical application');
    }
    const generic = createGenericServer({ ...options, applier, projectRoot: root, diagnostics: values.diagnostics === true });
    project = generic;
    bound = { root: generic.manager.root, mode: generic.policy.capability_mode };
  } catch (error) {
    const wire = toDocforgeError(error).toWire();
    // An invalid project root does not stop the server (below): logged as an error, not as fatal.
    if (wire.code === 'project_root_invalid') logger.error({ err: wire }, 'cannot bind the project root');
    else logger.fatal({ err: wire }, 'cannot start');
    process.stderr.write(`docforge-mcp: ${wire.message}\n`);
    if (wire.code !== 'project_root_invalid') process.exit(2);
    // Start anyway, so MCP clients can show why every tool call fails (not just "Connection closed").
    try {
      project = createUnboundServer({ ...options, projectRoot: root, error: wire });
    } catch (policyError) {
      process.stderr.write(`docforge-mcp: ${toDocforgeError(policyError).message}\n`);
      process.exit(2);
    }
  }
  const transport = new QueuedStdioServerTransport(process.stdin, mcpStdout);
  let closing = false;
  const shutdown = (): void => {
    // server.close() closes the transport, whose onclose calls this again: close once.
    if (closing) return;
    closing = true;
    void project.close().finally(() => process.exit(0));
  };
  transport.onclose = shutdown;
  process.stdin.on('end', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  await project.server.connect(transport);
  if (bound !== null) logger.info(bound, 'docforge-mcp ready');
  else logger.warn({ root }, 'docforge-mcp ready without a project root: every tool call answers project_root_invalid');
}

/**
 * Exits with status 2 and the reason when `DOCFORGE_ACCELERATE` names an unknown tactic (core
 * accelerate.cts): a usage error of the environment, refused before the server starts.
 */
function refuseInvalidAccelerate(): void {
  try {
    parseAccelerate(process.env[ACCELERATE_ENV]);
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
