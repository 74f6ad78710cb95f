#!/usr/bin/env node
/**
 * docforge: the command-line composition root (init, sync, validate, search, changeset, demo).
 * Output for people goes to stdout; logs go to stderr through pino.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { toDocforgeError } from '@docforge/core';
import { runDemo } from './demo.js';
import { runInit, runSearch, runSync, runValidate } from './commands.js';
import { runChangeset } from './changeset.js';

const USAGE = `Usage: docforge <command> [options]

Commands:
  init [DIR]              write a docforge.toml for an existing docs folder (scans DIR, default .)
  sync                    check source identity and rebuild the index when stale
  validate                list validation issues (exit 1 when there are errors)
  search QUERY            full-text search (bm25) over the project graph
  changeset list [--all]  list draft and ready changesets (--all: every status; stale derived when read)
  changeset show ID       one changeset: hash, base, operations, receipts
  changeset diff ID       per operation: front matter before/after and the body diff (colored on a terminal)
  changeset validate ID   project and validate a changeset (exit 1 when invalid)
  changeset abandon ID --writer W
                          abandon a changeset of writer W, keeping it and an audit receipt
  demo                    start docforge-mcp on the bundled examples/ and print a transcript

Options:
  -C, --project-root DIR  project root (default: current directory)
      --limit N           result limit for search and validate
      --json              print JSON instead of text
  -h, --help              show this help`;

async function main(argv: string[]): Promise<number> {
  const logger = pino({ name: 'docforge', level: process.env.DOCFORGE_LOG_LEVEL ?? 'warn' }, pino.destination({ fd: 2, sync: true }));
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        'project-root': { type: 'string', short: 'C' },
        limit: { type: 'string' },
        json: { type: 'boolean', default: false },
        writer: { type: 'string' },
        all: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    process.stderr.write(`docforge: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  const root = path.resolve(values['project-root'] ?? process.cwd());
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) {
      process.stderr.write('docforge: --limit must be a positive integer\n');
      return 2;
    }
  }
  const json = values.json === true;
  try {
    switch (command) {
      case 'init':
        return runInit(path.resolve(rest[0] ?? values['project-root'] ?? '.'), json);
      case 'sync':
        return await runSync(root, json, logger);
      case 'validate':
        return await runValidate(root, json, limit, logger);
      case 'search':
        if (rest.length === 0) {
          process.stderr.write('docforge: search needs a QUERY\n');
          return 2;
        }
        return await runSearch(root, rest.join(' '), json, limit, logger);
      case 'changeset':
        return await runChangeset(root, rest[0], rest.slice(1), { json, writer: values.writer ?? null, all: values.all === true, color: process.stdout.isTTY === true && !process.env.NO_COLOR }, logger);
      case 'demo':
        return await runDemo(values['project-root'] ? root : null);
      default:
        process.stderr.write(`docforge: unknown command ${JSON.stringify(command)}\n\n${USAGE}\n`);
        return 2;
    }
  } catch (error) {
    const wire = toDocforgeError(error).toWire();
    process.stderr.write(`docforge: ${wire.code}: ${wire.message}\n`);
    if (Object.keys(wire.details).length > 0) process.stderr.write(`  details: ${JSON.stringify(wire.details)}\n`);
    return 1;
  }
}

// A closed pipe (e.g. `docforge search x | head`) ends output quietly instead of crashing.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, (error: unknown) => {
  process.stderr.write(`docforge: fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
