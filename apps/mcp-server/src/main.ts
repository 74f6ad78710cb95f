#!/usr/bin/env node
/**
 * docforge-mcp: the MCP stdio server composition root. Parses options, builds the pino logger
 * (stderr only: stdout carries MCP frames), binds the project root once and starts the transport.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { toDocforgeError } from '@docforge/core';
import { CAPABILITY_MODES, type CapabilityMode } from '@docforge/policy';
import { createGenericServer } from './server.js';

const USAGE = `Usage: docforge-mcp --project-root ABSOLUTE_DIR [--capability-mode read|proposal|application|operator]
       [--proposal-writer ID] [--canonical-applier ID] [--no-ast] [--diagnostics] [--log-level LEVEL]`;

async function main(): Promise<void> {
  const logger = pino({ name: 'docforge-mcp', level: process.env.DOCFORGE_LOG_LEVEL ?? 'info' }, pino.destination({ fd: 2, sync: true }));
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        'project-root': { type: 'string' },
        'capability-mode': { type: 'string' },
        'proposal-writer': { type: 'string' },
        'canonical-applier': { type: 'string' },
        'no-ast': { type: 'boolean', default: false },
        diagnostics: { type: 'boolean', default: false },
        'log-level': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`docforge-mcp: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  if (values['log-level']) logger.level = values['log-level'];
  const root = values['project-root'];
  if (!root || !path.isAbsolute(root)) {
    process.stderr.write(`docforge-mcp: ${root ? `--project-root must be an absolute path (got ${root})` : '--project-root ABSOLUTE_DIR is required'}\n${USAGE}\n`);
    process.exit(2);
  }
  const mode = values['capability-mode'];
  if (mode !== undefined && !(CAPABILITY_MODES as readonly string[]).includes(mode)) {
    process.stderr.write(`docforge-mcp: --capability-mode must be one of ${CAPABILITY_MODES.join(', ')}\n`);
    process.exit(2);
  }
  let project;
  try {
    project = createGenericServer({
      projectRoot: root,
      capabilityMode: (mode as CapabilityMode | undefined) ?? null,
      proposalWriter: values['proposal-writer'] ?? null,
      canonicalApplier: values['canonical-applier'] ?? null,
      noAst: values['no-ast'] === true,
      diagnostics: values.diagnostics === true,
      logger,
    });
  } catch (error) {
    const wire = toDocforgeError(error).toWire();
    logger.fatal({ err: wire }, 'cannot start');
    process.stderr.write(`docforge-mcp: ${wire.message}\n`);
    process.exit(2);
  }
  const transport = new StdioServerTransport();
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
  logger.info({ root: project.manager.root, mode: project.policy.capability_mode }, 'docforge-mcp ready');
}

main().catch((error: unknown) => {
  process.stderr.write(`docforge-mcp: fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
