/**
 * The no-change `docforge sync` fast path (issue 14) as its own small entry: the launcher
 * (apps/cli/bin/docforge.js) runs it from one bundled CommonJS file (apps/cli/dist/bundle/fast-sync.cjs,
 * built by apps/cli/scripts/build-bundle.mjs) so a no-change sync pays for one module load instead
 * of the ESM loader resolving some thirty; the full CLI (cli.ts) uses the same functions unbundled.
 * Light imports only: noChangeSync, the sync output, the terminal helpers and the build pool's
 * prestart (piscina stays external). A worker it prestarts is returned as a value (`prior.pool`),
 * which the launcher hands to the full CLI and the CLI to its IndexManager: no process-wide slot.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Accelerators } from '@docforge/accelerate';
import { nearestProjectRoot, readDocforgeConfig, repeatedOption } from '@docforge/core';
import { buildPoolSettings, prestartBuildWorker, type PrestartedBuildPool } from '@docforge/sync';
import type { PrepareTask } from '@docforge/builder';
import { noChangeSync } from '@docforge/sync';
import { printSyncResult } from './sync-output.js';
import { guardStdoutPipe } from './terminal.js';

/**
 * What a fast-path check that did not answer learned: the publication is not current, and whether
 * the full synchronization will most likely build (so the CLI starts the build worker at once),
 * with the worker it started then (for the sync's IndexManager to adopt; the CLI releases it
 * when no build took it).
 */
export interface PriorSyncCheck {
  build: boolean;
  /** The build worker started because a build is coming (build-pools.ts), or null/absent. */
  pool?: PrestartedBuildPool | null;
}

/** What {@link answerNoChange} learned when it did not answer: the prior check, and what a build worker may prepare meanwhile. */
type NotAnswered = { code: null; prior: PriorSyncCheck; prepare: PrepareTask | null };

/** The answer of a no-change check: the exit code when it printed the result, else what the full sync should know. */
export type NoChangeOutcome = { code: number } | NotAnswered;

/**
 * Answers `docforge sync` for the project at `root` when nothing changed: prints exactly what the
 * full synchronization prints (`rebuilt: false`, staleness `current`, no stats, no error; text or
 * JSON) and returns its exit code. Otherwise prints nothing and returns code null with whether a
 * build is likely. Never throws for a project problem (noChangeSync never throws; the full sync
 * then reports it).
 * @param root absolute project root
 */
export function answerNoChange(root: string, json: boolean): NoChangeOutcome {
  const answer = noChangeSync(root, { noAst: false });
  if (!answer.current) return { code: null, prior: { build: answer.build }, prepare: answer.prepare ?? null };
  return { code: printSyncResult({ rebuilt: false, staleness: 'current', publication: answer.publication, stats: null, sync_error: null, error_issues: answer.errors }, json) };
}

/** What {@link runFastSync} did: answered (with the exit code), or left the command to the full CLI with what it learned (null: not checked). */
export type FastSyncOutcome = { handled: true; code: number } | { handled: false; prior: PriorSyncCheck | null };

/**
 * The bundled entry: handles only a plain `docforge sync` with at most `-C/--project-root DIR`,
 * `--json` and `--progress`/`--no-progress` (any other argument, option or parse problem: not
 * handled, prior null, nothing
 * printed, so the full CLI parses and reports as always). A handled sync's output and exit code
 * equal the full CLI's byte for byte.
 * @param argv the arguments after the program (process.argv.slice(2))
 */
export function runFastSync(argv: readonly string[]): FastSyncOutcome {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      // --progress/--no-progress only shape a build's progress report: a no-change answer prints the same either way.
      options: {
        'project-root': { type: 'string', short: 'C' },
        json: { type: 'boolean', default: false },
        progress: { type: 'boolean', default: false },
        'no-progress': { type: 'boolean', default: false },
      },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch {
    return { handled: false, prior: null };
  }
  const { values, positionals, tokens } = parsed;
  // A repeated option is a usage error the full CLI reports.
  if (repeatedOption(tokens) !== null) return { handled: false, prior: null };
  if (positionals.length !== 1 || positionals[0] !== 'sync') return { handled: false, prior: null };
  guardStdoutPipe();
  // The full CLI's rule (cli.ts projectRootOf): -C exactly, else the nearest folder holding docforge.toml.
  const given = values['project-root'];
  const outcome = answerNoChange(given !== undefined ? path.resolve(given) : nearestProjectRoot(process.cwd()) ?? process.cwd(), values.json === true);
  if (outcome.code !== null) return { handled: true, code: outcome.code };
  // A build is coming: its worker thread loads while the main thread loads the full CLI (which
  // gives it to the sync's IndexManager, or releases it when no build took it).
  const config = readDocforgeConfig();
  if (!outcome.prior.build || !Accelerators.from(config).on('prestart')) return { handled: false, prior: outcome.prior };
  return { handled: false, prior: { ...outcome.prior, pool: prestartBuildWorker(outcome.prepare, buildPoolSettings(config)) } };
}
